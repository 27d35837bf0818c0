/**
 * The site's structure as editors change it in the space (partners, categories' article order, the four menus, the
 * association's document): form fields → documents in the original admin's shape (`''` for none, `ordre` as text,
 * dates in seconds), and their validation with the pull's own zod schemas (src/content.config.ts), so that nothing
 * saved here is later left out of the site. Pure: no Firestore, usable by pages and tests alike.
 */
import * as z from 'zod';
import { firestoreSchemas, type CollectionName } from '../../../content.config';
import { holdsScript, refusedLinks, sanitizeEditorHtml } from '../../../lib/html.server';
import { ARTICLE_MESSAGES } from '../articles/articles';
import { issuesInFrench } from '../editing/messages';

/** A document as Firestore holds it: any fields. */
export type RawDocument = Record<string, unknown>;

/**
 * The categories whose article order editors change, and the collection their ids come from (the site's order:
 * src/content.ts `articlesOf`, `sponsors`).
 */
export const ORDERED_CATEGORIES = {
  accueil: 'articles',
  actualites: 'articles',
  asso: 'articles',
  ecole: 'articles',
  partenaires: 'partenaires',
} as const satisfies Record<string, 'articles' | 'partenaires'>;

/** A category whose order the space edits. */
export type OrderedCategory = keyof typeof ORDERED_CATEGORIES;

/** True for a category id the space orders. */
export function isOrderedCategory(value: unknown): value is OrderedCategory {
  return typeof value === 'string' && Object.hasOwn(ORDERED_CATEGORIES, value);
}

/** A field's problem: the dotted path in the document (`titre`, `liens.2.href`, `img.alt`) → a French sentence. */
export type FieldErrors = Record<string, string>;

/**
 * Every problem the pull would find in `data` as a document of `collection` (its zod schema, its French reasons as the
 * editing layer words them), by dotted path; `{}` when the pull publishes it whole. The space saves only a document
 * without problems (saveContent checks again).
 */
export function schemaErrors(collection: CollectionName, data: unknown): FieldErrors {
  const parsed = firestoreSchemas[collection].safeParse(data);
  if (parsed.success) return {};
  return Object.fromEntries(
    issuesInFrench(parsed.error.issues).map(({ field, message }) => [field || '(document)', message]),
  );
}

/** The errors under `prefix` (`liens.2`), keyed by the rest of their path (`href`); others are left out. */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([path]) => path.startsWith(`${prefix}.`))
      .map(([path, message]) => [path.slice(prefix.length + 1), message]),
  );
}

/** A form's text field, trimmed ('' when absent). */
export const formText = (fields: Map<string, string>, name: string) => (fields.get(name) ?? '').trim();

/** An id or slug from a title: lower case, no accents, words joined by `-` (« Café Lumière » → cafe-lumiere). */
export function slugify(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** A slug or id editors may type: lower-case letters, digits and single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Messages of the space's structure forms that the pull's schemas do not have. */
export const STRUCTURE_MESSAGES = {
  altRequired: 'Décrivez le logo en quelques mots (par exemple « Logo de la boulangerie Au Pain Doré »).',
  badSlug: 'L’identifiant ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets.',
  takenSlug: 'Un partenaire porte déjà cet identifiant : choisissez-en un autre.',
  badDate: 'Merci de choisir une date valide.',
  notFound: 'Ce document n’existe pas ou a été supprimé.',
  linkNotFound: 'Ce lien n’existe plus : le menu a peut-être été modifié entre-temps. Rechargez la page.',
  staleOrder:
    'La liste a changé depuis l’ouverture de la page (un article ajouté ou supprimé) : voici la liste à jour, ' +
    'rien n’a été enregistré.',
  deleteUnconfirmed: 'Merci de confirmer la suppression.',
  /** Beside a file field of a form refused for its other fields: the picture was not stored. */
  pictureNotKept:
    'L’image choisie n’a pas été envoyée : choisissez-la de nouveau après avoir corrigé les autres champs.',
  saved: 'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  orderSaved: 'Ordre enregistré. Il sera en ligne à la prochaine publication.',
  orderUnsaved: 'Ordre modifié, pas encore enregistré : cliquez sur « Enregistrer l’ordre ».',
  deleted: 'Supprimé. Le site le retirera à la prochaine publication.',
} as const;

/** A `YYYY-MM-DD` date input's value → whole seconds at 00:00 UTC that day; undefined when unreadable. */
export function dateInputToSeconds(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const millis = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const date = new Date(millis);
  return date.getUTCDate() === Number(match[3]) && date.getUTCFullYear() >= 1970 ? millis / 1000 : undefined;
}

/** Seconds (as the pull reads them: number, numeric text, Timestamp…) → a date input's `YYYY-MM-DD` in Paris; ''. */
export function secondsToDateInput(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  return new Intl.DateTimeFormat('fr-CA', { timeZone: 'Europe/Paris' }).format(new Date(seconds * 1000));
}

/** A partner as its form shows it. */
export interface PartnerForm {
  id: string;
  titre: string;
  intro: string;
  date: string;
  logo: string;
  logoAlt: string;
}

/**
 * A partner's form post → its document in the original admin's shape, over `previous` (the stored document: fields the
 * form does not show, `contenu` or `picto`, are kept): `cat` `partenaires`, `slug` = id, `date` in seconds, `img`
 * `{src, alt}` (`{src: '', alt: ''}` for none), `imgContenu` and `picto` kept or empty, `intro` HTML sanitised as the
 * articles' (plain text as typed). Errors: the schema's and the form's own (a logo needs its description, a readable
 * date, a valid id, no script in `intro`: ARTICLE_MESSAGES.script, no link safeLinkAddress refuses: badLink).
 */
export function partnerFromForm(
  fields: Map<string, string>,
  previous: RawDocument | undefined,
): { form: PartnerForm; document: RawDocument; errors: FieldErrors } {
  const form: PartnerForm = {
    id: formText(fields, 'id'),
    titre: formText(fields, 'titre'),
    intro: formText(fields, 'intro'),
    date: formText(fields, 'date'),
    logo: formText(fields, 'logo'),
    logoAlt: formText(fields, 'logoAlt'),
  };
  const errors: FieldErrors = {};
  if (!previous) {
    form.id ||= slugify(form.titre);
    if (form.id && !SLUG_PATTERN.test(form.id)) errors.id = STRUCTURE_MESSAGES.badSlug;
  }
  const seconds = form.date ? dateInputToSeconds(form.date) : undefined;
  if (form.date && seconds === undefined) errors.date = STRUCTURE_MESSAGES.badDate;
  if (form.logo && !form.logoAlt) errors['img.alt'] = STRUCTURE_MESSAGES.altRequired;
  const refused = refusedLinks(form.intro)[0];
  if (holdsScript(form.intro)) errors.intro = ARTICLE_MESSAGES.script;
  else if (refused !== undefined) errors.intro = ARTICLE_MESSAGES.badLink(refused);
  const document: RawDocument = {
    slug: '',
    contenu: '',
    imgContenu: { src: '' },
    picto: { src: '', alt: '' },
    ...previous,
    cat: 'partenaires',
    titre: form.titre,
    intro: form.intro.includes('<') ? sanitizeEditorHtml(form.intro) : form.intro,
    date: seconds ?? '',
    img: { src: form.logo, alt: form.logo ? form.logoAlt : '' },
  };
  document.slug = previous ? document.slug || '' : form.id;
  return { form, document, errors: { ...schemaErrors('partenaires', document), ...errors } };
}

/**
 * `ids` (the order shown) after a « Monter » (`-1`) or « Descendre » (`+1`) of `id`; the same list at an end or for an
 * unknown id.
 */
export function moveId(ids: string[], id: string, step: -1 | 1): string[] {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return ids;
  const moved = [...ids];
  [moved[from], moved[to]] = [moved[to]!, moved[from]!];
  return moved;
}

/**
 * A category's articles in the order the site shows them: those its `articles` list names first, in that order, then
 * the others (`rest`, already sorted as the site does: newest first, or by name for partners). Ids of the list that no
 * longer exist are left out.
 */
export function categoryOrder(listed: unknown, existing: string[]): string[] {
  const ids = Array.isArray(listed) ? listed.filter((id): id is string => typeof id === 'string') : [];
  const known = new Set(existing);
  const first = [...new Set(ids)].filter((id) => known.has(id));
  return [...first, ...existing.filter((id) => !first.includes(id))];
}

/**
 * The posted order of a category (`ordre`, one value per item, in order) checked against the articles it has now: the
 * same ids, each once; else undefined (an article was added or deleted meanwhile).
 */
export function postedOrder(posted: string[], current: string[]): string[] | undefined {
  if (posted.length !== current.length || new Set(posted).size !== posted.length) return undefined;
  return posted.every((id) => current.includes(id)) ? posted : undefined;
}

/** Stored `intro`/`contenu` of article `adresse` (lines, or HTML with `<br>` and `<p>`) → one line per line. */
export function htmlToTextLines(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<br\s*\/?>|<\/p>\s*<p[^>]*>|<\/(div|li)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** Typed lines → stored lines (one per line, trimmed, blank lines dropped), as the demo's `adresse` holds them. */
export function textLines(value: string): string {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** The largest number of lines of the postal address and of the contacts. */
export const IDENTITY_MAX_LINES = 8;

/** The identity form's own rules (the article's schema adds « son titre est vide »). */
export const identityFormSchema = z.object({
  adresse: z.string().refine((value) => value.split('\n').length <= IDENTITY_MAX_LINES, {
    message: `L’adresse tient en ${IDENTITY_MAX_LINES} lignes au plus.`,
  }),
  contacts: z.string().refine((value) => value.split('\n').length <= IDENTITY_MAX_LINES, {
    message: `Les contacts tiennent en ${IDENTITY_MAX_LINES} lignes au plus.`,
  }),
});
