/**
 * Menu link rules of spec §3: `statut: false` hides (with children), `ordre` sorts, `ancre` appends `#ancre`, `_blank`
 * opens a tab.
 */
import type { Link } from '../content.config.ts';

/**
 * A link ready to render: href with its anchor (undefined for a group label), newTab for `_blank`, iconOnly when the
 * picto alone names it, visible children.
 */
export type VisibleLink = Pick<Link, 'titre' | 'picto' | 'href'> & {
  newTab: boolean;
  exergue: boolean;
  iconOnly?: boolean;
  children: VisibleLink[];
};

/** Appends `#ancre` to href (an existing fragment is replaced). */
export function applyAnchor(href: string | undefined, ancre: string | undefined): string | undefined {
  return ancre ? `${(href ?? '').split('#')[0]}#${ancre.replace(/^#/, '')}` : href;
}

/** Drops `statut === false` links (with children) and sorts by `ordre` (stable, none last), children too. */
export function visibleLinks(links: readonly Link[]): VisibleLink[] {
  const rank = (link: { ordre?: number | undefined }) => link.ordre ?? Number.POSITIVE_INFINITY;
  return links
    .filter((link) => link.statut !== false)
    .toSorted((a, b) => rank(a) - rank(b))
    .map((link) => ({
      titre: link.titre,
      href: applyAnchor(link.href, link.ancre),
      newTab: link.target === '_blank',
      exergue: link.exergue === true,
      iconOnly: link.iconOnly === true && link.picto !== undefined,
      picto: link.picto,
      children: link.children ? visibleLinks(link.children) : [],
    }));
}
