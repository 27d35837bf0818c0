/**
 * Content types of the site: the ONLY place they are declared (spec §3).
 *
 * The zod schemas below validate every Firestore document twice: once in
 * `scripts/pull-content.ts` (so a broken document stops the pull with its
 * collection, id and field path), and once more when Astro loads the pulled
 * JSON with `file()` loaders. Everything else derives its types from them
 * (`z.infer`, `CollectionEntry`).
 *
 * Imports come from `astro/content/config`, `astro/loaders` and `astro/zod`
 * (not the virtual `astro:content`) so that plain Node scripts can import
 * this file too.
 */
import { defineCollection } from 'astro/content/config';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';

/** An image reference: `src` is a site path (`/contenu/...`) or an https URL. */
export const imageSchema = z.object({
  /** Path or URL of the image. */
  src: z.string().min(1),
  /** Text alternative; an empty string marks a decorative image. */
  alt: z.string().default(''),
});

/** A sub-link of a menu link (spec §3: children "also have statut"). */
export const childLinkSchema = z.object({
  /** Visible text. */
  titre: z.string().min(1),
  /** Target URL: site path (`/ecole`) or absolute URL. */
  href: z.string().min(1),
  /** `_blank` opens a new tab (announced to screen readers). */
  target: z.string().optional(),
  /** Anchor (without `#`) appended to href. */
  ancre: z.string().optional(),
  /** `false` hides the link; missing means shown. */
  statut: z.boolean().optional(),
  /** Sort key, ascending; links without one come last. */
  ordre: z.number().optional(),
  /** `true` highlights the link (e.g. "Faire un don"). */
  exergue: z.boolean().optional(),
  /** Optional icon shown before (or, with an empty titre, instead of) the text. */
  picto: imageSchema.optional(),
});

/** A menu link (spec §3 "liens"), with optional children. */
export const linkSchema = childLinkSchema.extend({
  /** A parent may be a pure group label without href. */
  href: z.string().optional(),
  /** Sub-links; a hidden parent hides its children too. */
  children: z.array(childLinkSchema).optional(),
});

/** Menu document (ids principal, reseaux, pied, divers). */
export const menuSchema = z.object({
  /** Links of the menu, in any order (sorted by `ordre` when shown). */
  liens: z.array(linkSchema).default([]),
  /** Only in `divers`: the source of the ecole/schema frame. */
  schema: z.object({ src: z.string().min(1) }).optional(),
});

/** Category document (id is a slug: accueil, actualites, asso, ecole, partenaires). */
export const categorySchema = z.object({
  /** Page title. */
  titre: z.string().min(1),
  /** Introductory sentence(s) under the title. */
  descr: z.string().default(''),
  /** Optional display order: ids of the category's articles. */
  articles: z.array(z.string()).default([]),
});

/** Article document (collections articles and partenaires). */
export const articleSchema = z.object({
  /** URL slug; defaults to the document id when empty. */
  slug: z.string().default(''),
  /** Category id (accueil, actualites, asso, ecole, partenaires, divers). */
  cat: z.string().default(''),
  /** Title. */
  titre: z.string().min(1),
  /** Short text; may hold light HTML (sanitised at build time). */
  intro: z.string().default(''),
  /** Full text; may hold HTML (sanitised at build time). */
  contenu: z.string().default(''),
  /** Publication date in seconds since the Unix epoch (Timestamps are converted by the pull). */
  date: z.number().int().nonnegative().optional(),
  /** Main image. */
  img: imageSchema.optional(),
  /** Image shown with the full text. */
  imgContenu: z.object({ src: z.string().min(1) }).optional(),
  /** Small icon. */
  picto: imageSchema.optional(),
});

/** Where the pull writes each collection's JSON (object: document id → data). */
export const dataFiles = {
  menus: 'src/data/menus.json',
  categories: 'src/data/categories.json',
  articles: 'src/data/articles.json',
  partenaires: 'src/data/partenaires.json',
} as const;

/** Firestore collection name → schema of its documents (spec §7 "read all documents"). */
export const firestoreSchemas = {
  menus: menuSchema,
  categories: categorySchema,
  articles: articleSchema,
  partenaires: articleSchema,
} as const;

/** Name of a collection read by the pull. */
export type CollectionName = keyof typeof firestoreSchemas;
/** A link as stored. */
export type Link = z.infer<typeof linkSchema>;
/** A sub-link as stored. */
export type ChildLink = z.infer<typeof childLinkSchema>;
/** An article (or partner) after validation. */
export type Article = z.infer<typeof articleSchema>;
/** A menu document after validation. */
export type Menu = z.infer<typeof menuSchema>;
/** A category document after validation. */
export type Category = z.infer<typeof categorySchema>;

export const collections = {
  menus: defineCollection({ loader: file(dataFiles.menus), schema: menuSchema }),
  categories: defineCollection({ loader: file(dataFiles.categories), schema: categorySchema }),
  articles: defineCollection({ loader: file(dataFiles.articles), schema: articleSchema }),
  partenaires: defineCollection({ loader: file(dataFiles.partenaires), schema: articleSchema }),
};
