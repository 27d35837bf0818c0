/**
 * The routes of the demo build, shared by the browser tests and `npm run screenshots`: every page of the site and
 * paths the not-found page answers.
 */

/**
 * Slugs of the news pages (category actualites of the demo dataset the build
 * pulls), newest first: the news index lists exactly these, in this order
 * (the news-search browser tests). The home carousel shows at most HOME_NEWS_COUNT of them.
 */
export const NEWS_SLUGS = [
  'bibliotheque-adaptee',
  'atelier-parents-mdph',
  'rentree-2026',
  'course-solidaire-2026',
  'portes-ouvertes-2026',
  'fete-hiver-2025',
  'rentree-2025',
];

/** Every route of the site (status 200). */
export const ROUTES: string[] = [
  '/',
  '/asso',
  '/ecole',
  '/ecole/schema',
  '/soutenir',
  '/soutenir/annule',
  '/soutenir/valide',
  '/contact',
  '/mentions',
  '/rgpd',
  '/accessibilite',
  '/sitemap',
  '/actualites',
  '/recherche',
  '/affichage',
  '/facile',
  '/facile/facile-ecole',
  '/facile/facile-preinscription',
  '/facile/facile-don',
  ...NEWS_SLUGS.map((slug) => `/actualites/${slug}`),
];

/** Routes whose page template another route of ROUTES shows with other content: a news page, a FALC page. */
const SAME_TEMPLATE = [
  ...NEWS_SLUGS.slice(1).map((slug) => `/actualites/${slug}`),
  '/facile/facile-preinscription',
  '/facile/facile-don',
];

/**
 * One route per page template (ROUTES less the other news and FALC pages): where the browser tests run axe and the
 * reflow check, which find the same on every route of a template.
 */
export const TEMPLATE_ROUTES: string[] = ROUTES.filter((route) => !SAME_TEMPLATE.includes(route));

/** Paths that are not routes: the not-found page answers with status 404. */
export const NOT_FOUND_ROUTES = ['/nimporte-quoi', '/pas-de-page-ici'];
