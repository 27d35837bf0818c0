/**
 * What the articles' forms of the space share with their island: the categories an article can belong to, slugs
 * derived from titles, the date picker's value in the original admin's seconds, and the French messages of the form
 * that are not the pull's schema's own (src/content.config.ts keeps those).
 */
import { quotedLinkAddress } from '../../../lib/link-address';

/** What locates an article on the site: its id, category and slug. */
type ArticlePlace = { id: string; cat: string; slug: string };

/**
 * The categories of articles (spec §3), in the order the form lists them: each one's French `name`, and the `page`
 * where a published article of it is read (its own page for news, legal pages and « Facile à lire », else its
 * category's page).
 */
export const ARTICLE_CATEGORIES = {
  actualites: { name: 'Actualités', page: ({ slug }: ArticlePlace) => `/actualites/${slug}` },
  accueil: { name: 'Accueil', page: () => '/' },
  asso: { name: 'L’association', page: () => '/asso' },
  ecole: { name: 'L’école', page: () => '/ecole' },
  legal: { name: 'Pages légales', page: ({ id }: ArticlePlace) => `/${id}` },
  facile: { name: 'Facile à lire', page: ({ slug }: ArticlePlace) => `/facile/${slug}` },
} as const;

/** A category id of ARTICLE_CATEGORIES. */
export type ArticleCategory = keyof typeof ARTICLE_CATEGORIES;

/** True for a category id of ARTICLE_CATEGORIES. */
export function isArticleCategory(value: unknown): value is ArticleCategory {
  return typeof value === 'string' && Object.hasOwn(ARTICLE_CATEGORIES, value);
}

/**
 * A category's name in the space: ARTICLE_CATEGORIES', else « Autre (<id>) » for one the original admin made (the
 * address article's `divers`), « Sans rubrique » for none.
 */
export const categoryName = (cat: string) =>
  isArticleCategory(cat) ? ARTICLE_CATEGORIES[cat].name : cat ? `Autre (${cat})` : 'Sans rubrique';

/** Where a published article is read on the site; undefined for a category the form does not list. */
export const articlePage = (article: ArticlePlace): string | undefined =>
  isArticleCategory(article.cat) ? ARTICLE_CATEGORIES[article.cat].page(article) : undefined;

/** A slug: lower-case letters without accents, digits, single dashes between them, 1 to 80 characters. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Why a slug cannot be an article's, or undefined: `nouveau` is the new article's form (/espace/articles/nouveau), and
 * a number alone is a page of the news list (/actualites/2).
 */
export function reservedSlug(slug: string): string | undefined {
  if (slug === 'nouveau') return ARTICLE_MESSAGES.slugNew;
  return /^\d+$/.test(slug) ? ARTICLE_MESSAGES.slugNumber : undefined;
}

/** « Fête de l’école 2026 ! » → `fete-de-l-ecole-2026` (at most 80 characters, cut at a dash). */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= 80) return slug;
  const cut = slug.slice(0, 80);
  return cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The date picker's `YYYY-MM-DD` as whole seconds since the epoch (noon UTC, the same day in Paris whatever the
 * season), the shape the original admin stored; '' for an empty picker; anything else as typed, for the pull's schema
 * to refuse in its own words (« Sa date est illisible »).
 */
export function dateInputToSeconds(value: string): number | string {
  const text = value.trim();
  const match = DAY.exec(text);
  if (!match) return text;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  const date = new Date(time);
  // 2026-02-31 rolls over to March: refused as typed.
  return date.getUTCDate() === Number(match[3]) ? time / 1000 : text;
}

/** Stored seconds (or their text) as the date picker's `YYYY-MM-DD` in Paris; '' when there is no readable date. */
export function secondsToDateInput(value: unknown): string {
  const seconds = typeof value === 'string' ? Number(value.trim()) : value;
  const stamp = value as { seconds?: unknown; _seconds?: unknown } | undefined;
  const whole = typeof seconds === 'number' ? seconds : Number(stamp?.seconds ?? stamp?._seconds);
  if (!Number.isFinite(whole) || whole === 0) return '';
  const date = new Date((Math.abs(whole) >= 1e11 ? whole : whole * 1000) as number);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}

/** Largest picture accepted from the form (bytes): 20 MB, more than any phone photo. */
export const MAX_PICTURE_BYTES = 20 * 1024 * 1024;

/** Megabytes, French style: 31457280 → « 30 Mo », 2621440 → « 2,5 Mo ». */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo`;
}

/** The articles' form's French messages (the schema's own are in src/content.config.ts). */
export const ARTICLE_MESSAGES = {
  script:
    'Ce texte contient du code (une balise <script>, un attribut « on… » ou un lien « javascript: ») : il n’est ' +
    'pas accepté. Retirez-le, puis enregistrez à nouveau.',
  badLink: (href: string) =>
    `Le lien « ${quotedLinkAddress(href)} » n’est pas accepté : écrivez une ` +
    'adresse https://…, mailto:…, tel:… ou /page du site, puis enregistrez à nouveau.',
  slugTaken: (titre: string) => `Ce lien est déjà celui de l’article « ${titre} » : choisissez-en un autre.`,
  slugShape:
    'Le lien ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets (par exemple ' +
    'fete-de-l-ecole).',
  slugNew: 'Le lien « nouveau » est réservé à l’écriture d’un nouvel article : choisissez-en un autre.',
  slugNumber:
    'Un lien fait seulement de chiffres est celui d’une page de la liste des actualités (/actualites/2) : ajoutez-y ' +
    'un mot, par exemple sortie-2026.',
  slugEmpty:
    'Le titre ne contient aucune lettre latine ni aucun chiffre dont tirer le lien de la page : écrivez ce lien ' +
    'vous-même (des lettres minuscules sans accent, des chiffres et des tirets, par exemple fete-de-l-ecole).',
  titleEmpty: 'Son titre est vide.',
  category: 'Merci de choisir une rubrique dans la liste.',
  legalDraft: (page: string) =>
    `« ${page} » est une page légale : elle ne peut pas être un brouillon, car elle est toujours publiée (sans elle, ` +
    'le site écrit lui-même une page à partir de ses seules informations). Décochez « Brouillon », puis enregistrez.',
  legalCategory: (page: string) =>
    `« ${page} » est une page légale : elle reste dans la rubrique « Pages légales », sinon le site la remplacerait ` +
    'par une page écrite à partir de ses seules informations.',
  legalRestore: (page: string) =>
    `Rien n’a été rétabli : cette version de « ${page} » est un brouillon, est dans une autre rubrique ou n’existait ` +
    'pas encore ; la rétablir retirerait votre texte de cette page légale.',
  restoreSlugTaken: (slug: string, titre: string) =>
    `Rien n’a été rétabli : le lien de cette version (${slug}) est aujourd’hui celui de l’article « ${titre} ». ` +
    'Changez d’abord le lien de l’un des deux.',
  htmlOnly:
    'Ce texte contient des éléments (image, vidéo, tableau…) que l’éditeur ne sait pas modifier : il est présenté ' +
    'en HTML pour ne rien perdre. Modifiez les mots entre les balises (<p>, </p>…) sans retirer les balises.',
  altMissing: 'Décrivez l’image en quelques mots pour les personnes qui ne la voient pas (texte de remplacement).',
  tooLarge: (bytes: number) =>
    `Ce fichier pèse ${megabytes(bytes)} : une image peut peser ${megabytes(MAX_PICTURE_BYTES)} au plus. ` +
    'Choisissez une photo plus légère (ou réduisez-la), puis réessayez.',
  tooMuchAtOnce: (bytes: number, limit: number) =>
    `Les images choisies pèsent ensemble ${megabytes(bytes)} : un enregistrement peut en envoyer ` +
    `${megabytes(limit)} au plus. Celle-ci est retirée de l’envoi : enregistrez, puis choisissez-la à ` +
    'nouveau.',
  bodyTooLarge:
    `Le fichier envoyé dépasse ${megabytes(MAX_PICTURE_BYTES)} : rien n’a été enregistré. Choisissez une photo plus ` +
    'légère, puis réessayez.',
  notImage: 'Ce fichier n’est pas une image : choisissez une photo au format JPEG, PNG ou WebP.',
  heic:
    'Cette photo est au format HEIC (iPhone), que le site ne sait pas encore convertir. Envoyez-la en JPEG : sur ' +
    'l’iPhone, Réglages › Appareil photo › Formats › « Le plus compatible », ou partagez-la par « Enregistrer en ' +
    'JPEG ».',
  unreadableImage: 'Cette image est illisible ou abîmée : choisissez-en une autre (JPEG, PNG ou WebP).',
  saved: 'L’article est enregistré.',
  savedDraft: 'Le brouillon est enregistré : il ne sera pas publié tant qu’il reste un brouillon.',
  notFound: 'Cet article n’existe pas ou a été supprimé.',
} as const;
