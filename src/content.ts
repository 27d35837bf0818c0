/**
 * The pages' queries on the pulled collections (src/data/), render-ready and sanitised; which article goes where:
 * docs/editeurs.md.
 */
import { getCollection } from 'astro:content';
import type { Article, LegalId } from './content.config.ts';
import { memoizedPerBuild } from './lib/build-memo.ts';
import { sanitizeContentHtml } from './lib/html.server.ts';
import { visibleLinks } from './lib/links.ts';
import { entryId, explainTerms, type ExplainOptions } from './features/content/falc/glossary.ts';
import { optimiseHtmlPictures } from './features/content/pictures/pictures.server.ts';
export { FEED_NEWS_COUNT, HOME_NEWS_COUNT, NEWS_PER_PAGE } from './features/content/news/news.ts';
import { revealAt } from './lib/obfuscation.ts';
import { siteLegalFacts } from './association.ts';
import { generatedLegalPage } from './features/content/legal/generated-pages.ts';

/**
 * An article ready to render: id, slug (the id when empty), titre with '[at]' revealed, introHtml and contenuHtml
 * sanitised, the first use of each glossary acronym (in a FALC article, each glossary word) linked to its explanation
 * (explainTerms), their pictures optimised; date in seconds.
 */
export type ArticleView = Awaited<ReturnType<typeof toView>>;

/**
 * The view of the article `id` as the build makes it; `pictures` turns the <img> of the sanitised HTML into what the
 * page shows (by default optimiseHtmlPictures; the space's preview shows pictures not yet pulled by their address).
 */
export async function toView(
  id: string,
  { slug, intro, contenu, titre, ...data }: Article,
  pictures: (html: string) => string | Promise<string> = optimiseHtmlPictures,
) {
  // A « Facile à lire » article explains every glossary word it uses, below its text (FalcArticle).
  const explain: ExplainOptions = data.cat === 'facile' ? { every: true, href: (entry) => `#${entryId(entry)}` } : {};
  return {
    id,
    ...data,
    slug: slug || id,
    titre: revealAt(titre),
    introHtml: await pictures(explainTerms(sanitizeContentHtml(intro), explain)),
    contenuHtml: await pictures(explainTerms(sanitizeContentHtml(contenu), explain)),
  };
}

/** Views of a collection's entries (of category `cat` when given), once per build (shared: never change them). */
const viewsOf = memoizedPerBuild(
  (name: 'articles' | 'partenaires', cat?: string) => `${name}/${cat ?? ''}`,
  async (name: 'articles' | 'partenaires', cat?: string): Promise<ArticleView[]> => {
    const entries = await getCollection(name, (entry) => cat === undefined || entry.data.cat === cat);
    return Promise.all(entries.map((entry) => toView(entry.id, entry.data)));
  },
);

const newestFirst = (a: ArticleView, b: ArticleView) => (b.date ?? 0) - (a.date ?? 0);

/** Views sorted by `then`, then those the category `cat` lists in its `articles` moved first in that order. */
async function inCategoryOrder(cat: string, views: ArticleView[], then: (a: ArticleView, b: ArticleView) => number) {
  const order = (await category(cat))?.articles ?? [];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : Number.POSITIVE_INFINITY);
  return views.toSorted(then).toSorted((a, b) => rank(a.id) - rank(b.id));
}

/**
 * The document `id` of a small collection the database may lack (a menu, a category), or undefined. Not getEntry: it
 * logs « Entry … was not found » at each render for a document whose absence is normal (the demo has no category
 * `facile`, the original admin's database none of the site's own).
 */
async function optionalEntry<C extends 'menus' | 'categories'>(name: C, id: string) {
  return (await getCollection(name, (entry) => entry.id === id))[0];
}

/**
 * Visible, sorted links of a menu document (spec §3 ids principal, reseaux, pied, divers; [] when missing), once per
 * build (every page's header and footer).
 */
export const menuLinks = memoizedPerBuild(
  (id: 'principal' | 'reseaux' | 'pied' | 'divers') => id,
  async (id: 'principal' | 'reseaux' | 'pied' | 'divers') => {
    const entry = await optionalEntry('menus', id);
    return entry ? visibleLinks(entry.data.liens) : [];
  },
);

/** A category's titre/descr/articles, or undefined. */
export async function category(id: string) {
  return (await optionalEntry('categories', id))?.data;
}

/** Articles of a category: in the order of the category's `articles` list, then the others newest first. */
export async function articlesOf(cat: string): Promise<ArticleView[]> {
  return inCategoryOrder(cat, await viewsOf('articles', cat), newestFirst);
}

/** News: articles of category `actualites`, newest first. */
export async function news(): Promise<ArticleView[]> {
  return (await viewsOf('articles', 'actualites')).toSorted(newestFirst);
}

/** Sponsors: every document of `partenaires`, in the category's order, else by name. */
export async function sponsors(): Promise<ArticleView[]> {
  return inCategoryOrder('partenaires', await viewsOf('partenaires'), (a, b) => a.titre.localeCompare(b.titre, 'fr'));
}

/**
 * A legal page (`mentions`, `rgpd`, `accessibilite`): the editors' article when published, else the page written from
 * what the site knows (src/features/content/legal/generated-pages.ts), never another association's text. `generated` says
 * which; the pull reports a generated page and what it lacks to the editors (report.json, « Publier le site »).
 */
export async function legalArticle(id: LegalId): Promise<ArticleView & { generated: boolean }> {
  // Not getEntry: it logs a warning at each render for an article the database may well lack.
  const [entry] = await getCollection('articles', (candidate) => candidate.id === id);
  if (entry) return { ...(await toView(entry.id, entry.data)), generated: false };
  const page = generatedLegalPage(id, await siteLegalFacts());
  return { ...(await toView(id, { slug: id, cat: 'legal', ...page })), generated: true };
}
