/**
 * The site's structure as editors change it in the space (partners, categories' article order, the four menus, the
 * association's document): form fields → documents in the original admin's shape (`''` for none, `ordre` as text,
 * dates in seconds), and their validation with the pull's own zod schemas (src/content.config.ts), so that nothing
 * saved here is later left out of the site. Pure: no Firestore, usable by pages and tests alike.
 */
import { z } from 'astro/zod';
import { firestoreSchemas, type CollectionName } from '../../content.config';
import { issuesInFrench } from '../editing/messages';

/** A document as Firestore holds it: any fields. */
export type RawDocument = Record<string, unknown>;

/** The four menus of the specification (§3), in the order the space lists them, with their French names. */
export const MENUS = {
  principal: { name: 'Menu principal', help: 'le menu en haut de chaque page (bouton « Menu » sur téléphone)' },
  reseaux: { name: 'Réseaux sociaux', help: 'les liens vers les réseaux, en haut de page et sur la page Contact' },
  pied: { name: 'Pied de page', help: 'les liens du bas de chaque page (mentions légales, plan du site…)' },
  divers: {
    name: 'Liens mis en avant',
    help: 'les boutons de l’en-tête (« Faire un don »…) et l’adresse du suivi des démarches',
  },
} as const;

/** A menu's id. */
export type MenuId = keyof typeof MENUS;

/** True for one of the four menus' ids. */
export function isMenuId(value: unknown): value is MenuId {
  return typeof value === 'string' && Object.hasOwn(MENUS, value);
}

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
const field = (fields: Map<string, string>, name: string) => (fields.get(name) ?? '').trim();

/** A document id or slug from a title: lower case, no accents, words joined by `-` (« Café Lumière » → cafe-lumiere). */
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
 * `{src, alt}` (`{src: '', alt: ''}` for none), `imgContenu` and `picto` kept or empty. Errors: the schema's and the
 * form's own (a logo needs its description, a readable date, a valid id).
 */
export function partnerFromForm(
  fields: Map<string, string>,
  previous: RawDocument | undefined,
): { form: PartnerForm; document: RawDocument; errors: FieldErrors } {
  const form: PartnerForm = {
    id: field(fields, 'id'),
    titre: field(fields, 'titre'),
    intro: field(fields, 'intro'),
    date: field(fields, 'date'),
    logo: field(fields, 'logo'),
    logoAlt: field(fields, 'logoAlt'),
  };
  const errors: FieldErrors = {};
  if (!previous) {
    form.id ||= slugify(form.titre);
    if (form.id && !SLUG_PATTERN.test(form.id)) errors.id = STRUCTURE_MESSAGES.badSlug;
  }
  const seconds = form.date ? dateInputToSeconds(form.date) : undefined;
  if (form.date && seconds === undefined) errors.date = STRUCTURE_MESSAGES.badDate;
  if (form.logo && !form.logoAlt) errors['img.alt'] = STRUCTURE_MESSAGES.altRequired;
  const document: RawDocument = {
    slug: '',
    contenu: '',
    imgContenu: { src: '' },
    picto: { src: '', alt: '' },
    ...previous,
    cat: 'partenaires',
    titre: form.titre,
    intro: form.intro,
    date: seconds ?? '',
    img: { src: form.logo, alt: form.logo ? form.logoAlt : '' },
  };
  document.slug = previous ? document.slug || '' : form.id;
  return { form, document, errors: { ...schemaErrors('partenaires', document), ...errors } };
}

/** A link as its form shows it (checkboxes as booleans). */
export interface LinkForm {
  titre: string;
  href: string;
  ancre: string;
  nouvelOnglet: boolean;
  visible: boolean;
  exergue: boolean;
  picto: string;
  pictoAlt: string;
}

/** A stored link (or sub-link) → its form, reading the original shapes (`statut` `"false"`, `picto` `''`…). */
export function linkToForm(link: RawDocument | undefined): LinkForm {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const picto = (link?.picto ?? {}) as RawDocument | string;
  const statut = link?.statut;
  const exergue = link?.exergue;
  return {
    titre: text(link?.titre),
    href: text(link?.href),
    ancre: text(link?.ancre),
    nouvelOnglet: text(link?.target).trim() === '_blank',
    visible: !(statut === false || (typeof statut === 'string' && statut.trim().toLowerCase() === 'false')),
    exergue: exergue === true || (typeof exergue === 'string' && exergue.trim().toLowerCase() === 'true'),
    picto: typeof picto === 'string' ? picto : text(picto.src),
    pictoAlt: typeof picto === 'string' ? '' : text(picto.alt),
  };
}

/** A link's form post → the form and the link's fields in the original shape (`target` `_blank` or `''`). */
export function linkFromForm(fields: Map<string, string>): { form: LinkForm; fields: RawDocument } {
  const form: LinkForm = {
    titre: field(fields, 'titre'),
    href: field(fields, 'href'),
    ancre: field(fields, 'ancre').replace(/^#/, ''),
    nouvelOnglet: fields.get('nouvelOnglet') === 'oui',
    visible: fields.get('visible') === 'oui',
    exergue: fields.get('exergue') === 'oui',
    picto: field(fields, 'picto'),
    pictoAlt: field(fields, 'pictoAlt'),
  };
  return {
    form,
    fields: {
      titre: form.titre,
      href: form.href,
      target: form.nouvelOnglet ? '_blank' : '',
      ancre: form.ancre,
      statut: form.visible,
      exergue: form.exergue,
      picto: { src: form.picto, alt: form.picto ? form.pictoAlt : '' },
    },
  };
}

/** A link's place in a menu: its index in `liens`, and its child's index when it is a sub-link. */
export interface LinkPlace {
  index: number;
  child?: number;
}

/** `"3"` or `"3.1"` (a query or form value) → a place; undefined when unreadable. */
export function parseLinkPlace(value: string | null | undefined): LinkPlace | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,3}))?$/.exec(value ?? '');
  if (!match) return undefined;
  return { index: Number(match[1]), ...(match[2] !== undefined && { child: Number(match[2]) }) };
}

/** A place as the dotted path of the menu document (`liens.3.children.1`). */
export function linkPath(place: LinkPlace): string {
  return place.child === undefined ? `liens.${place.index}` : `liens.${place.index}.children.${place.child}`;
}

/** A menu's `liens` or a link's `children` as a list ('' and null: none). */
export function linkList(value: unknown): RawDocument[] {
  return Array.isArray(value) ? value.map((link) => (link && typeof link === 'object' ? link : {}) as RawDocument) : [];
}

/** A stored `ordre` as a number (text or number; none last). */
function orderOf(link: RawDocument): number {
  const value = typeof link.ordre === 'string' ? Number(link.ordre.trim() || Number.NaN) : link.ordre;
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
}

/** Indexes of `links` in the site's order: `ordre` ascending, then as stored (src/lib/links.ts sorts the same way). */
export function linkOrder(links: RawDocument[]): number[] {
  return links
    .map((link, index) => ({ index, order: orderOf(link) }))
    .toSorted((a, b) => a.order - b.order || a.index - b.index)
    .map(({ index }) => index);
}

/**
 * `links` in the order of `order` (indexes, each once), with `ordre` rewritten `"1"`, `"2"`… as the original admin
 * stored it; undefined when `order` is not a permutation of the links' indexes (the menu changed meanwhile).
 */
export function reorderLinks(links: RawDocument[], order: number[]): RawDocument[] | undefined {
  const sorted = order.toSorted((a, b) => a - b);
  if (sorted.length !== links.length || sorted.some((value, index) => value !== index)) return undefined;
  return order.map((index, position) => ({ ...links[index], ordre: String(position + 1) }));
}

/** The next `ordre` after every link of `links`, as text (a new link goes last). */
export function nextOrder(links: RawDocument[]): string {
  const orders = links.map(orderOf).filter(Number.isFinite);
  return String(orders.length ? Math.floor(Math.max(...orders)) + 1 : 1);
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

/** The association's document fields the space edits, in form order. */
export const ASSOCIATION_FIELDS = [
  'objet',
  'enregistrement',
  'signataire',
  'horaires',
  'delaiReponse',
  'soutenirDon',
  'soutenirBenevolat',
  'soutenirMecenat',
] as const;

/** The identity as article `adresse` holds it, as its form shows it: one postal or contact line per line. */
export interface IdentityForm {
  nom: string;
  adresse: string;
  contacts: string;
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

/** Where a link form writes: an existing link, or a new link at the top level (`parent` undefined) or under a link. */
export type LinkTarget = { place: LinkPlace } | { parent: number | undefined };

/** `"3"`, `"3.1"`, `"nouveau"` or `"3.nouveau"` → a link target; undefined when unreadable. */
export function parseLinkTarget(value: string | null | undefined): LinkTarget | undefined {
  const fresh = /^(?:(\d{1,3})\.)?nouveau$/.exec(value ?? '');
  if (fresh) return { parent: fresh[1] === undefined ? undefined : Number(fresh[1]) };
  const place = parseLinkPlace(value);
  return place && { place };
}

/** The stored link at `place` of `menu`, or undefined. */
export function linkAt(menu: RawDocument | undefined, place: LinkPlace): RawDocument | undefined {
  const link = linkList(menu?.liens)[place.index];
  return place.child === undefined ? link : link && linkList(link.children)[place.child];
}

/** A copy of `menu` with `liens` replaced (a stored `liens` of `''` becomes a list). */
const withLinks = (menu: RawDocument | undefined, liens: RawDocument[]): RawDocument => ({ ...menu, liens });

/**
 * `menu` with a link's fields written: over the link at `target.place` (its `ordre` and `children` kept), or as a new
 * link last of its list (`ordre` after the others, `children: []`); undefined when the place no longer exists.
 */
export function writeLink(
  menu: RawDocument | undefined,
  target: LinkTarget,
  fields: RawDocument,
): RawDocument | undefined {
  const liens = linkList(menu?.liens);
  if ('place' in target) {
    const { index, child } = target.place;
    const link = liens[index];
    if (!link) return undefined;
    if (child === undefined) return withLinks(menu, liens.with(index, { ...link, ...fields }));
    const children = linkList(link.children);
    if (!children[child]) return undefined;
    const updated = children.with(child, { ...children[child], ...fields });
    return withLinks(menu, liens.with(index, { ...link, children: updated }));
  }
  if (target.parent === undefined) {
    return withLinks(menu, [...liens, { ...fields, ordre: nextOrder(liens), children: [] }]);
  }
  const parent = liens[target.parent];
  if (!parent) return undefined;
  const children = linkList(parent.children);
  const added = [...children, { ...fields, ordre: nextOrder(children), children: [] }];
  return withLinks(menu, liens.with(target.parent, { ...parent, children: added }));
}

/** `menu` without the link at `place` (a top-level link goes with its sub-links); undefined when it is not there. */
export function removeLink(menu: RawDocument | undefined, place: LinkPlace): RawDocument | undefined {
  const liens = linkList(menu?.liens);
  const link = liens[place.index];
  if (!link) return undefined;
  if (place.child === undefined) return withLinks(menu, liens.toSpliced(place.index, 1));
  const children = linkList(link.children);
  if (!children[place.child]) return undefined;
  return withLinks(menu, liens.with(place.index, { ...link, children: children.toSpliced(place.child, 1) }));
}

/**
 * `menu` with the links of one list (the top level when `parent` is undefined, else that link's sub-links) in the order
 * of `order` (their indexes), `ordre` rewritten; undefined when the list changed meanwhile.
 */
export function reorderMenu(
  menu: RawDocument | undefined,
  parent: number | undefined,
  order: number[],
): RawDocument | undefined {
  const liens = linkList(menu?.liens);
  if (parent === undefined) {
    const sorted = reorderLinks(liens, order);
    return sorted && withLinks(menu, sorted);
  }
  const link = liens[parent];
  const sorted = link && reorderLinks(linkList(link.children), order);
  return sorted && withLinks(menu, liens.with(parent, { ...link, children: sorted }));
}
