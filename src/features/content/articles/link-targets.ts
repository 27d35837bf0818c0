/**
 * The places a link of the rich-text editor can point to on the site (the link dialog's search): the site's own pages
 * (its routes, fixed in code) and its articles' pages, each with a title to search and its address.
 */
import { articlePage } from './articles';

/** A page of the site a link can point to: its title, its address (`/…`), a page of the site or an article. */
export interface LinkTarget {
  titre: string;
  href: string;
  kind: 'page' | 'article';
}

/** The site's own pages (src/pages), in the order of its menu. */
export const SITE_PAGES: readonly LinkTarget[] = [
  { titre: 'Accueil', href: '/', kind: 'page' },
  { titre: 'L’association', href: '/asso', kind: 'page' },
  { titre: 'L’école', href: '/ecole', kind: 'page' },
  { titre: 'Préinscription à l’école', href: '/ecole#preinscription', kind: 'page' },
  { titre: 'Actualités', href: '/actualites', kind: 'page' },
  { titre: 'Soutenir l’association (faire un don)', href: '/soutenir', kind: 'page' },
  { titre: 'Contact', href: '/contact', kind: 'page' },
  { titre: 'Facile à lire', href: '/facile', kind: 'page' },
  { titre: 'Mentions légales', href: '/mentions', kind: 'page' },
  { titre: 'Données personnelles', href: '/rgpd', kind: 'page' },
  { titre: 'Accessibilité', href: '/accessibilite', kind: 'page' },
];

/**
 * The targets of a list of articles (drafts left out: their page is not online), after the site's pages; an article
 * whose page is its category's (Accueil, L'association, L'école) points there.
 */
export function linkTargets(
  articles: readonly { id: string; titre: string; cat: string; slug: string; brouillon: boolean }[],
): LinkTarget[] {
  const pages = new Set(SITE_PAGES.map((page) => page.href));
  const own = articles.flatMap((article) => {
    const href = article.brouillon ? undefined : articlePage(article);
    // A legal page's article is already there under its page's name.
    return href && !(article.cat === 'legal' && pages.has(href))
      ? [{ titre: article.titre, href, kind: 'article' as const }]
      : [];
  });
  return [...SITE_PAGES, ...own];
}

/** Folds case and accents: « École » and « ecole » match. */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, ' ');

/** The targets whose title holds every word of `query` (case and accents aside), at most `limit`. */
export function searchTargets(targets: readonly LinkTarget[], query: string, limit = 8): LinkTarget[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return targets.filter((target) => words.every((word) => folded(target.titre).includes(word))).slice(0, limit);
}
