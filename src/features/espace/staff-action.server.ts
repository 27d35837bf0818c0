/**
 * The space's forms as Astro Actions (`astro:actions`): each staff form posts to its own page with `action={actions.…}`
 * (plain HTML, no JavaScript needed), Astro runs the action after the site's middleware (origin check, session guard),
 * and the page reads the outcome with `Astro.getActionResult` (pageOutcome in action-outcome.server.ts). This module
 * is what every action shares: the section's role check (an action can be posted to any page, so it checks its own),
 * the refusal written to the access log, the net under every text field, and failures turned into ActionErrors that
 * carry the French message a person is shown.
 */
import { ActionError, defineAction, isInputError } from 'astro:actions';
import type { APIContext, AstroGlobal } from 'astro';
import * as z from 'zod';
import { hasForbiddenCharacter } from '../../lib/fields';
import { HTTP_MESSAGES } from '../../lib/http';
import { adminFirestore } from '../../lib/firebase-admin.server';
import type { FieldIssue } from '../content/editing/messages';
import { recordAccess } from './access-log.server';
import type { StaffSession } from './auth.server';
import { MAX_FIELD_CHARS } from './form-post.server';
import { ESPACE_MESSAGES } from './messages';
import { canOpen, type SectionName } from './roles';
import { failureOf } from './server-calls.server';

/** What an action's handler gets besides its input: the signed-in person and Astro's context. */
export interface StaffActionContext {
  session: StaffSession;
  /** Astro's context of the page the form posted to (its `params`, `url`, `request`, `locals`, `cookies`). */
  context: Pick<APIContext, 'request' | 'url' | 'locals' | 'cookies' | 'params'>;
}

/**
 * A refusal by field: `errors` maps a field's name to its French message. Sent as Astro's own input error (the wire
 * shape `isInputError` reads), so a page finds it in `error.fields` whether zod or the save refused.
 */
export class FieldsRefused extends ActionError {
  readonly type = 'AstroActionInputError';
  readonly issues: { path: string[]; message: string }[];
  readonly fields: Record<string, string[]>;

  /** `code`: the page's status (BAD_REQUEST; CONFLICT for a field that clashes with a stored document). */
  constructor(errors: Record<string, string>, code: ActionError['code'] = 'BAD_REQUEST') {
    super({ code, message: ESPACE_MESSAGES.fieldsRefused });
    this.issues = Object.entries(errors).map(([field, message]) => ({ path: [field], message }));
    this.fields = Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, [message]]));
  }
}

/** The ActionError code of an HTTP status the space's server code throws (anything else: a server error). */
function codeOf(status: number): ActionError['code'] {
  const codes: Record<number, ActionError['code']> = {
    400: 'BAD_REQUEST',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    413: 'CONTENT_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'TOO_MANY_REQUESTS',
    503: 'SERVICE_UNAVAILABLE',
  };
  return codes[status] ?? 'INTERNAL_SERVER_ERROR';
}

/** A failure as the ActionError a page shows: an HttpError's status and French message; anything else logged, 500. */
export function actionErrorOf(failure: unknown, tag: string): ActionError {
  if (failure instanceof ActionError) return failure;
  const { status, message } = failureOf(failure, tag);
  return new ActionError({ code: codeOf(status), message });
}

/**
 * A text field of a staff form: trimmed unless `keepSpaces`, at most `max` characters (MAX_FIELD_CHARS by default),
 * no control character or bidirectional override (line breaks and tabs pass). Absent or empty counts as ''.
 */
export function staffText(max: number = MAX_FIELD_CHARS, keepSpaces = false) {
  // nullish: Astro reads an empty or absent form field as null (formDataToObject), not ''.
  return z
    .string()
    .nullish()
    .transform((value) => (keepSpaces ? (value ?? '') : (value ?? '').trim()))
    .refine((value) => !hasForbiddenCharacter(value, true), ESPACE_MESSAGES.forbiddenCharacter)
    .refine((value) => [...value].length <= max, ESPACE_MESSAGES.fieldTooLong(max));
}

/** A document's version as its form sent it back (the stale check's input): a number, NaN when absent or empty. */
export const staffVersion = z
  .string()
  .nullish()
  .transform((value) => (value ? Number(value) : Number.NaN));

/**
 * A staff form's action: refused (403, written to the access log) unless the session's roles open `section`; the
 * handler's failures become ActionErrors (`actionErrorOf`). The input is read from the form by `input` (zod; its
 * refusals are input errors by field).
 */
export function staffAction<Input extends z.ZodObject, Output>(
  section: SectionName,
  input: Input,
  handler: (value: z.output<Input>, staff: StaffActionContext) => Promise<Output>,
) {
  // The handler's type is a conditional on the schema, which TypeScript cannot narrow for a generic one: the handler
  // below is written against the schema's output, and defineAction checks the schema itself.
  const run = async (value: z.output<Input>, context: StaffActionContext['context']): Promise<Output> => {
    const session = context.locals.espace;
    if (!session || !canOpen(session.roles, section)) {
      if (session) {
        await recordAccess(adminFirestore(), session, 'refus', context.url.pathname).catch((failure: unknown) =>
          console.error('[espace] refusal not logged', failure),
        );
      }
      throw new ActionError({ code: 'FORBIDDEN', message: ESPACE_MESSAGES.forbidden });
    }
    try {
      return await handler(value, { session, context });
    } catch (failure) {
      throw actionErrorOf(failure, `[espace/${section}]`);
    }
  };
  return defineAction<Output, 'form', Input>({ accept: 'form', input, handler: run as never });
}

/**
 * A text field of a refused form, to show it back as typed: '' for a file, or a text holding a forbidden character (the
 * refusal asks to retype it; it never reaches the page), else at most `max` characters.
 */
export function typedText(posted: FormData, name: string, max: number = MAX_FIELD_CHARS): string {
  const value = posted.get(name);
  if (typeof value !== 'string' || hasForbiddenCharacter(value, true)) return '';
  return value.slice(0, max);
}

/** FieldIssues (the error summary's lines) from a refusal by field; none for any other error. */
export function issuesOfFields(fields: Record<string, string[] | undefined> | undefined): FieldIssue[] {
  return Object.entries(fields ?? {}).flatMap(([field, messages]) =>
    messages?.[0] ? [{ field, message: messages[0] }] : [],
  );
}

/** What a page shows after one of its actions ran: nothing yet, done, or refused (its message and fields). */
export type FormOutcome =
  { state: 'none' } | { state: 'done' } | { state: 'refused'; message: string; issues: FieldIssue[] };

/**
 * The outcome of `result` (`Astro.getActionResult(actions.…)`) for the page: a refusal sets the page's status to the
 * error's (400, 403, 409, 503…) and gives its French message (ESPACE_MESSAGES.fieldsRefused above refused fields).
 */
export function formOutcome(
  Astro: Pick<AstroGlobal, 'response'>,
  result: { data?: unknown; error?: unknown } | undefined,
): FormOutcome {
  if (!result) return { state: 'none' };
  if (!result.error) return { state: 'done' };
  const error = result.error as ActionError;
  Astro.response.status = error.status;
  if (isInputError(error)) {
    return { state: 'refused', message: ESPACE_MESSAGES.fieldsRefused, issues: issuesOfFields(error.fields) };
  }
  return { state: 'refused', message: frenchMessageOf(error), issues: [] };
}

/** An error's French message: Astro's own refusals (a body past its limit, not a form) say theirs in English. */
function frenchMessageOf(error: ActionError): string {
  if (error.code === 'CONTENT_TOO_LARGE' && error.message.startsWith('Request body exceeds')) {
    return HTTP_MESSAGES.tooLarge;
  }
  if (error.code === 'UNSUPPORTED_MEDIA_TYPE' && (!error.message || error.message.startsWith('This action only'))) {
    return ESPACE_MESSAGES.badForm;
  }
  return error.message || ESPACE_MESSAGES.unavailable;
}
