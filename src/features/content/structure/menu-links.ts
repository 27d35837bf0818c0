/**
 * The four menus as editors change them in the space: a link's form ↔ its stored fields in the original admin's shape
 * (`statut` and `exergue` booleans or text, `ordre` as text, `target` `_blank` or `''`, `picto` `{src, alt}`), links
 * found by their place (`3`, `3.1`), added, removed and reordered. Pure, like structure.ts.
 */
import { formText, type RawDocument } from './structure';

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
    titre: formText(fields, 'titre'),
    href: formText(fields, 'href'),
    ancre: formText(fields, 'ancre').replace(/^#/, ''),
    nouvelOnglet: fields.get('nouvelOnglet') === 'oui',
    visible: fields.get('visible') === 'oui',
    exergue: fields.get('exergue') === 'oui',
    picto: formText(fields, 'picto'),
    pictoAlt: formText(fields, 'pictoAlt'),
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

/** A link's name in the space's lists: its title, else its pictogram's description. */
export function nameOf(link: RawDocument): string {
  const shown = linkToForm(link);
  return shown.titre || shown.pictoAlt || '(sans titre)';
}

/** A link's line in a list: where it goes and its states (« masqué », « mis en avant »…). */
export function detailOf(link: RawDocument): string {
  const shown = linkToForm(link);
  const where = `${shown.href || '(sans adresse)'}${shown.ancre ? `#${shown.ancre}` : ''}`;
  const states = [
    !shown.visible && 'masqué',
    shown.exergue && 'mis en avant',
    shown.nouvelOnglet && 'nouvel onglet',
    shown.picto && 'pictogramme',
  ].filter(Boolean);
  return [where, ...states].join(' · ');
}

/** A list's links as ReorderList items, keyed by stored index, in `keys` order (default: the site's order). */
export function orderItems(links: RawDocument[], keys?: string[]) {
  return (keys ?? linkOrder(links).map(String)).flatMap((key) => {
    const link = links[Number(key)];
    return link ? [{ key, label: nameOf(link), detail: detailOf(link) }] : [];
  });
}
