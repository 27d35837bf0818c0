/**
 * Named queries the pages use: they read the pulled collections (src/data/) and return render-ready,
 * sanitised shapes. Which article goes where (home cards, news, footer address, legal pages) is in docs/editeurs.md.
 */
import { getCollection, getEntry } from 'astro:content';
import demoArticles from '../content/demo/articles.json';
import { articleSchema, type Article, type Category } from './content.config.ts';
import { htmlToLines, sanitizeContentHtml } from './lib/html.server.ts';
import { visibleLinks, type VisibleLink } from './lib/links.ts';
import { optimiseHtmlPictures } from './features/pictures/pictures.server.ts';
export { FEED_NEWS_COUNT, HOME_NEWS_COUNT, NEWS_PER_PAGE } from './features/news/news.ts';
import { parseContactLines, revealAt, type ContactLine } from './lib/obfuscation.ts';

/** Ids of the menu documents (spec §3). */
export type MenuId = 'principal' | 'reseaux' | 'pied' | 'divers';

/** An article ready to render: HTML sanitised, its pictures optimised, '[at]' revealed. */
export interface ArticleView {
  /** Firestore document id. */
  id: string;
  /** URL slug (the id when the document has none). */
  slug: string;
  cat: string;
  titre: string;
  /** Safe HTML of the intro ('' when none). */
  introHtml: string;
  /** Safe HTML of the full text ('' when none). */
  contenuHtml: string;
  /** Seconds since the epoch. */
  date: number | undefined;
  img: Article['img'];
  imgContenu: Article['imgContenu'];
  picto: Article['picto'];
}

async function toView(id: string, data: Article): Promise<ArticleView> {
  return {
    id,
    slug: data.slug || id,
    cat: data.cat,
    titre: revealAt(data.titre),
    introHtml: await optimiseHtmlPictures(sanitizeContentHtml(data.intro)),
    contenuHtml: await optimiseHtmlPictures(sanitizeContentHtml(data.contenu)),
    date: data.date,
    img: data.img,
    imgContenu: data.imgContenu,
    picto: data.picto,
  };
}

/** Views of entries, in the entries' order. */
const toViews = (entries: { id: string; data: Article }[]) =>
  Promise.all(entries.map((entry) => toView(entry.id, entry.data)));

const newestFirst = (a: ArticleView, b: ArticleView) => (b.date ?? 0) - (a.date ?? 0);

/** Visible, sorted links of a menu document ([] when the document is missing). */
export async function menuLinks(id: MenuId): Promise<VisibleLink[]> {
  const entry = await getEntry('menus', id);
  return entry ? visibleLinks(entry.data.liens) : [];
}

/** Source of the ecole/schema frame (menus/divers, field schema.src). */
export async function schemaSource(): Promise<string | undefined> {
  return (await getEntry('menus', 'divers'))?.data.schema?.src;
}

/** A category's titre/descr/articles, or undefined. */
export async function category(id: string): Promise<Category | undefined> {
  return (await getEntry('categories', id))?.data;
}

/** Articles of a category: in the order of the category's `articles` list, then the others newest first. */
export async function articlesOf(cat: string): Promise<ArticleView[]> {
  const order = (await category(cat))?.articles ?? [];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : Number.POSITIVE_INFINITY);
  return (await toViews(await getCollection('articles', (entry) => entry.data.cat === cat)))
    .toSorted(newestFirst)
    .toSorted((a, b) => rank(a.id) - rank(b.id));
}

/** Home intro cards: articles of category `accueil`. */
export function homeIntroCards(): Promise<ArticleView[]> {
  return articlesOf('accueil');
}

/** News: articles of category `actualites`, newest first. */
export async function news(): Promise<ArticleView[]> {
  return (await toViews(await getCollection('articles', (entry) => entry.data.cat === 'actualites'))).toSorted(
    newestFirst,
  );
}

/** The `count` latest news items, newest first (the home carousel, the feed). */
export async function latestNews(count: number): Promise<ArticleView[]> {
  return (await news()).slice(0, count);
}

/** Sponsors: every document of `partenaires`, in the category's order, else by name. */
export async function sponsors(): Promise<ArticleView[]> {
  const order = (await category('partenaires'))?.articles ?? [];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : Number.POSITIVE_INFINITY);
  return (await toViews(await getCollection('partenaires')))
    .toSorted((a, b) => a.titre.localeCompare(b.titre, 'fr'))
    .toSorted((a, b) => rank(a.id) - rank(b.id));
}

/** The association's name when article `adresse` is missing (package.json's description names it). */
const ASSOCIATION_NAME = 'Les Petits Pas Ensemble';

/** The association's address and contact lines, from article `adresse`. */
export interface Address {
  /** Name of the association (titre). */
  name: string;
  /** Postal address lines (intro), emails and phones linked; [] when the article is missing. */
  lines: ContactLine[];
  /** Phones, emails and other "Label : value" lines (contenu); [] when none. */
  contacts: ContactLine[];
}

/**
 * The footer/contact address from article `adresse`: intro's postal lines and contenu's contact lines
 * (split on newlines, <br>, <p>, <li>), phones as tel:, emails ('[at]' → '@', spec §9) as mailto:;
 * without the article, the association's name alone.
 */
export async function address(): Promise<Address> {
  const entry = await getEntry('articles', 'adresse');
  if (!entry) return { name: ASSOCIATION_NAME, lines: [], contacts: [] };
  return {
    name: revealAt(entry.data.titre),
    lines: parseContactLines(htmlToLines(entry.data.intro)),
    contacts: parseContactLines(htmlToLines(entry.data.contenu)),
  };
}

/** Ids of the articles that hold the legal pages' text (route = id). */
export type LegalId = 'mentions' | 'rgpd' | 'accessibilite';

/** A legal page's article (`mentions`, `rgpd`, `accessibilite`) from Firestore, else the demo dataset's, so one is always published. */
export async function legalArticle(id: LegalId): Promise<ArticleView> {
  const entry = await getEntry('articles', id);
  if (entry) return toView(entry.id, entry.data);
  return toView(id, articleSchema.parse(demoArticles[id]));
}
