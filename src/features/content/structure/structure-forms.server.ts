/**
 * What the structure forms' actions and pages share: the editing layer's refusal (ContentRejected, by the schema's
 * dotted path) turned into a refusal by the form's fields, which the page shows beside each field; and, on the page,
 * what a refused form sent, shown again.
 */
import type { AstroGlobal } from 'astro';
import { hasForbiddenCharacter } from '../../../lib/fields';
import type { StaffSession } from '../../espace/auth.server';
import * as z from 'zod';
import type { SectionName } from '../../espace/roles';
import { FieldsRefused, staffAction, staffText, type FormOutcome } from '../../espace/staff-action.server';
import type { FieldIssue } from '../editing/messages';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { failureOf } from '../../espace/server-calls.server';
import { ARTICLE_MESSAGES } from '../articles/articles';
import { storePicture } from '../articles/media.server';
import { ContentRejected, saveContent, type SaveRequest } from '../editing/content-store.server';
import { restoreOwnVersion } from '../editing/history.server';

/**
 * Saves `request` (saveContent); returns the new version. A refusal of the layer's checks is thrown by field:
 * `fieldOf` names the form's field of a schema path (`titre` → `nom`; default: the path, '' as `(document)`).
 * @throws FieldsRefused for what the layer refused, else as saveContent (409 when stale, 503).
 */
export async function saveOrRefuse(
  session: StaffSession,
  request: SaveRequest,
  fieldOf: (path: string) => string = (path) => path,
): Promise<number> {
  try {
    return await saveContent(session, request);
  } catch (failure) {
    if (!(failure instanceof ContentRejected)) throw failure;
    throw fieldsRefusedOf(failure, fieldOf);
  }
}

/**
 * The history's « Rétablir » of a structure page as an action of `section`: puts back the version before history entry
 * `restaurer` when it is a change of one of `documentsOf(params)` (the page's own documents, from its route); an old
 * version the pull would no longer accept is refused with each of its problems.
 * @throws FieldsRefused, else as restoreOwnVersion (and as documentsOf: 404 for an address that is not the page's).
 */
export function restoreAction(
  section: SectionName,
  documentsOf: (params: Record<string, string | undefined>) => readonly string[],
) {
  return staffAction(section, z.object({ restaurer: staffText(200) }), async ({ restaurer }, { session, context }) => {
    try {
      await restoreOwnVersion(session, restaurer, documentsOf(context.params));
    } catch (failure) {
      if (!(failure instanceof ContentRejected)) throw failure;
      throw fieldsRefusedOf(failure);
    }
  });
}

/** A ContentRejected as FieldsRefused, its paths named by `fieldOf` as saveOrRefuse does. */
function fieldsRefusedOf(failure: ContentRejected, fieldOf: (path: string) => string = (path) => path) {
  return new FieldsRefused(
    Object.fromEntries(failure.issues.map(({ field, message }) => [fieldOf(field) || '(document)', message])),
  );
}

/** A FieldsRefused's messages by field, to refuse them again with more (the field's first message). */
export function errorsOf(refusal: FieldsRefused): Record<string, string> {
  return Object.fromEntries(refusal.issues.map(({ path, message }) => [path.join('.'), message]));
}

/** A picture chosen in a form's file field; undefined when none was (an empty file field posts an empty file). */
export function chosenPicture(file: File | undefined): File | undefined {
  return file && file.size > 0 ? file : undefined;
}

/**
 * The address that stands for a chosen picture while the form's other fields are checked (a picture is stored only
 * for a form that passes them: storeChosenPicture then gives its real address).
 */
export const PENDING_PICTURE = '/medias/envoi.png';

/**
 * Stores `picture` as the articles' pictures are (storePicture: checked, resized, to Blobs); returns its address.
 * @throws FieldsRefused `{ [field]: why }` for a picture refused (too heavy, not an image…) or Blobs unavailable.
 */
export async function storeChosenPicture(picture: File, origin: string, field: string, tag: string): Promise<string> {
  try {
    return await storePicture(picture, origin);
  } catch (failure) {
    throw new FieldsRefused({ [field]: failureOf(failure, tag).message });
  }
}

/** A page's refused post: which outcome, its French message, its refusals by field, and the fields it sent. */
export interface Refusal {
  outcome: FormOutcome;
  message: string;
  issues: FieldIssue[];
  /** What was sent, to show again as typed (without forbidden characters); undefined when Astro did not read it (413, 415). */
  posted: FormData | undefined;
}

/**
 * The refusal among a page's `outcomes` (formOutcome's; one action runs per post), or undefined. Astro's own refusals
 * are said in French: a post past the size limit (413) as the articles' picture upload says it, a post that is not a
 * form (415) as the space's other forms.
 */
export async function refusalOf(
  Astro: Pick<AstroGlobal, 'request' | 'response'>,
  outcomes: FormOutcome[],
): Promise<Refusal | undefined> {
  const outcome = outcomes.find((each) => each.state === 'refused');
  if (outcome?.state !== 'refused') return undefined;
  const status = Astro.response.status;
  const unread = status === 413 || status === 415;
  return {
    outcome,
    message:
      status === 413 ? ARTICLE_MESSAGES.bodyTooLarge : status === 415 ? ESPACE_MESSAGES.badForm : outcome.message,
    issues: outcome.issues,
    // A copy: an island's renderer reads the request again after the page.
    posted: unread
      ? undefined
      : await Astro.request
          .clone()
          .formData()
          .then(withoutForbidden, () => undefined),
  };
}

/** `form`'s texts without the characters the space refuses (a NUL, a bidirectional override), to show them again. */
function withoutForbidden(form: FormData): FormData {
  const shown = new FormData();
  for (const [name, value] of form) {
    const text = typeof value === 'string' && hasForbiddenCharacter(value, true);
    shown.append(
      name,
      text ? [...value].filter((character) => !hasForbiddenCharacter(character, true)).join('') : value,
    );
  }
  return shown;
}
