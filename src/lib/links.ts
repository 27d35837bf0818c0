/** Menu link rules of spec §3: `statut: false` hides (with children), `ordre` sorts, `ancre` appends `#ancre`, `_blank` opens a tab. */
import type { ChildLink, Link } from '../content.config.ts';

/** A link ready to render. */
export interface VisibleLink {
  titre: string;
  /** Final URL with the anchor applied; undefined for a pure group label. */
  href: string | undefined;
  /** True when the link opens a new tab (target `_blank`). */
  newTab: boolean;
  exergue: boolean;
  /** True when the editor left the titre empty: only the picto shows (titre = the picto's alt). */
  iconOnly?: boolean;
  picto: { src: string; alt: string } | undefined;
  /** Visible children, sorted (empty for a child). */
  children: VisibleLink[];
}

/** Appends `#ancre` to href (an existing fragment is replaced). */
export function applyAnchor(href: string | undefined, ancre: string | undefined): string | undefined {
  if (!ancre) return href;
  const anchor = ancre.replace(/^#/, '');
  return `${(href ?? '').split('#')[0]}#${anchor}`;
}

function byOrder(a: { ordre?: number | undefined }, b: { ordre?: number | undefined }): number {
  return (a.ordre ?? Number.POSITIVE_INFINITY) - (b.ordre ?? Number.POSITIVE_INFINITY);
}

function toVisible(link: ChildLink | Link): VisibleLink {
  const children = 'children' in link && link.children ? visibleLinks(link.children) : [];
  return {
    titre: link.titre,
    href: applyAnchor(link.href, link.ancre),
    newTab: link.target === '_blank',
    exergue: link.exergue === true,
    iconOnly: link.iconOnly === true && link.picto !== undefined,
    picto: link.picto,
    children,
  };
}

/** Drops `statut === false` links (with children) and sorts by `ordre` (stable, none last), children too. */
export function visibleLinks(links: readonly (ChildLink | Link)[]): VisibleLink[] {
  return links
    .filter((link) => link.statut !== false)
    .toSorted(byOrder)
    .map(toVisible);
}
