/**
 * Content types (spec §3), normalising what editors really store (docs/content.md): '' or null for none, numbers as
 * text, any date.
 */
import { defineCollection } from 'astro/content/config';
import type { Loader } from 'astro/loaders';
import { file } from 'astro/loaders';
import * as z from 'zod';
import { associationSchema } from './content-association.ts';
import { LINK_REFUSED, safeLinkAddress } from './lib/link-address.ts';
import { waitForPull } from './lib/pull-gate.ts';

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const isBlank = (value: unknown) => value == null || (typeof value === 'string' && !value.trim());
const blankToUndefined = (value: unknown) =>
  isBlank(value) ? undefined : typeof value === 'string' ? value.trim() : value;
const blankToEmptyList = (value: unknown) => (isBlank(value) ? [] : value);

/** `"true"`/`"false"` (any case) → boolean, numeric text → number, '' and null → none. */
function fromText(value: unknown): unknown {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  return text && NUMERIC.test(text) ? Number(text) : blankToUndefined(value);
}

/**
 * Any stored date (Timestamp or its JSON, seconds or milliseconds, as numbers or text, ISO 8601) → whole seconds; ''
 * and null → none; else as is, for the schema to reject.
 */
export function toSeconds(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  const stamp = value as { toMillis?: () => number; seconds?: unknown; _seconds?: unknown };
  let seconds =
    typeof stamp.toMillis === 'function' ? stamp.toMillis() / 1000 : (stamp.seconds ?? stamp._seconds ?? value);
  if (typeof seconds === 'string') {
    seconds = ISO_DATE.test(seconds.trim()) ? Date.parse(seconds.trim()) / 1000 : fromText(seconds);
  }
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return value;
  // Above 1e11 a number is milliseconds (1e11 s is the year 5138; 1e11 ms is 1973).
  return Math.floor(Math.abs(seconds) >= 1e11 ? seconds / 1000 : seconds);
}

const optional = <T extends z.ZodType>(normalise: (value: unknown) => unknown, schema: T) =>
  z.preprocess(normalise, schema.optional()).optional();

const text = (what: string) => z.preprocess((value) => value ?? '', z.string({ error: `${what} n’est pas un texte` }));

/**
 * A picture's `src`: a site path, an http(s) URL (the build downloads it, docs/pictures.md) or `gs://<bucket>/<path>`
 * → its Storage download URL.
 */
const pictureSourceSchema = z.string({ error: 'l’adresse de son image n’est pas un texte' }).transform((raw, ctx) => {
  const src = raw.trim();
  const storage = /^gs:\/\/([^/]+)\/(.+)$/i.exec(src);
  if (storage) {
    return `https://firebasestorage.googleapis.com/v0/b/${storage[1]}/o/${encodeURIComponent(storage[2]!)}?alt=media`;
  }
  if ((src.startsWith('/') && !src.startsWith('//')) || /^https?:$/.test(URL.parse(src)?.protocol ?? '')) return src;
  ctx.issues.push({
    code: 'custom',
    input: raw,
    message: `l’adresse de son image (« ${src.slice(0, 60)} ») ne commence ni par /, ni par https://, ni par gs://`,
  });
  return z.NEVER;
});

/** '' , null or `{src: ''}` → no image; a bare string is the src. */
function emptyImageToUndefined(value: unknown): unknown {
  if (isBlank(value) || (typeof value === 'object' && isBlank((value as { src?: unknown }).src))) return undefined;
  return typeof value === 'string' ? { src: value } : value;
}

/** An optional image `{src, alt}` (alt '' marks a decorative image). */
const optionalImage = optional(
  emptyImageToUndefined,
  z.object({ src: pictureSourceSchema, alt: text('la description de son image') }),
);

/** A link's target, as safeLinkAddress reads and allows it: a site path, `#anchor`, http(s), mailto: or tel:. */
const hrefSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? 'son adresse (href) est vide' : 'son adresse (href) n’est pas un texte',
  })
  .trim()
  .min(1, 'son adresse (href) est vide')
  .transform((href, ctx) => {
    const safe = safeLinkAddress(href);
    if (safe !== undefined) return safe;
    ctx.issues.push({ code: 'custom', input: href, message: `son adresse (href) ${LINK_REFUSED}` });
    return z.NEVER;
  });

/** Fields of menu links and their sub-links (spec §3 "liens"). */
const linkFields = {
  titre: text('son titre'),
  href: z.preprocess(blankToUndefined, hrefSchema),
  /** `_blank` opens a new tab. */
  target: optional(blankToUndefined, z.string()),
  /** Anchor (without `#`) appended to href. */
  ancre: optional(blankToUndefined, z.string()),
  /** `false` hides the link (and its children). */
  statut: optional(fromText, z.boolean({ error: 'son statut n’est ni true ni false' })),
  /** Sort key, ascending; links without one come last. */
  ordre: optional(fromText, z.number({ error: 'son ordre n’est pas un nombre' })),
  /** `true` highlights the link (e.g. "Faire un don"). */
  exergue: optional(fromText, z.boolean({ error: 'son exergue n’est ni true ni false' })),
  picto: optionalImage,
  /** Set by nameIconOnlyLink: the stored titre was empty, the picto alone shows the link. */
  iconOnly: z.boolean().optional(),
};

/** An empty titre with a described picto → icon-only link named by the alt; without either the link cannot be shown. */
function nameIconOnlyLink<
  T extends { titre: string; picto?: { alt: string } | undefined; iconOnly?: boolean | undefined },
>(link: T, ctx: z.core.$RefinementCtx<T>): T {
  const alt = link.picto?.alt.trim();
  if (link.titre.trim()) return { ...link, titre: link.titre.trim() };
  if (alt) return { ...link, titre: alt, iconOnly: true };
  ctx.issues.push({
    code: 'custom',
    path: ['titre'],
    input: link.titre,
    message: link.picto ? 'il n’a pas de titre et son pictogramme n’a pas de description (alt)' : 'il n’a pas de titre',
  });
  return z.NEVER;
}

/**
 * A menu link with its optional sub-links (spec §3: children "also have statut"); a parent may be a label without href.
 */
const linkSchema = z
  .object({
    ...linkFields,
    href: optional(blankToUndefined, hrefSchema),
    children: optional(blankToUndefined, z.array(z.object(linkFields).transform(nameIconOnlyLink))),
  })
  .transform(nameIconOnlyLink);

/** Menu document (ids principal, reseaux, pied, divers). */
const menuSchema = z.object({
  liens: z.preprocess(blankToEmptyList, z.array(linkSchema, { error: 'ses liens ne sont pas une liste' })),
  /** Only in `divers`: the source of the ecole/schema frame. */
  schema: optional(
    emptyImageToUndefined,
    z.object({
      src: z
        .string({ error: 'l’adresse du suivi des démarches n’est pas un texte' })
        .trim()
        .refine(
          (src) => /^(\/|https:)/i.test(safeLinkAddress(src) ?? ''),
          'l’adresse du suivi des démarches ne commence ni par / ni par https://',
        ),
    }),
  ),
});

const titre = text('son titre').pipe(z.string().trim().min(1, 'son titre est vide'));

/** Category document (id: accueil, actualites, asso, ecole, partenaires). */
const categorySchema = z.object({
  titre,
  descr: text('sa description'),
  /** Display order: ids of the category's articles. */
  articles: z.preprocess(blankToEmptyList, z.array(z.string(), { error: 'sa liste d’articles est illisible' })),
});

/**
 * Article document (collections articles and partenaires); intro and contenu may hold HTML, sanitised at build time.
 */
export const articleSchema = z.object({
  /** URL slug; the document id when empty. */
  slug: text('son slug').pipe(z.string().trim()),
  cat: text('sa catégorie').pipe(z.string().trim()),
  titre,
  intro: text('son intro'),
  contenu: text('son contenu'),
  /** Publication date in whole seconds since the epoch (see toSeconds). */
  date: optional(toSeconds, z.number({ error: 'sa date est illisible' }).int().nonnegative('sa date est avant 1970')),
  img: optionalImage,
  /** Image shown with the full text. */
  imgContenu: optional(emptyImageToUndefined, z.object({ src: pictureSourceSchema })),
  picto: optionalImage,
});

/** Firestore collection → schema of its documents (spec §7 "read all documents"). */
export const firestoreSchemas = {
  menus: menuSchema,
  categories: categorySchema,
  articles: articleSchema,
  partenaires: articleSchema,
  association: associationSchema,
};

/** A collection read by the pull. */
export type CollectionName = keyof typeof firestoreSchemas;

/**
 * The legal pages (src/pages/[legal].astro, route = article id) and their names in the editors' words. Without its
 * article a page is generated from what the site knows (src/content.ts legalArticle), never another site's text.
 */
export const LEGAL_PAGES = {
  mentions: 'Mentions légales',
  rgpd: 'Données personnelles',
  accessibilite: 'Accessibilité',
};
/** Ids of the articles that hold the legal pages' text. */
export type LegalId = keyof typeof LEGAL_PAGES;

/** Where the pull writes a collection's JSON (document id → data). */
export const dataFile = (name: CollectionName) => `src/data/${name}.json`;

export { partsLeftOutAlone } from './content-parts.ts';

/**
 * Where a problem is and why: collection, document id, field path (`date`, `liens.3.href`, `img.src`, `contenu
 * (<img>)`, `(document)`) and a plain French reason without full stop.
 */
const place = { collection: z.string(), id: z.string(), field: z.string(), reason: z.string() };

/** The content report every pull writes (src/data/report.json), for the terminal and the space's publish page. */
export const contentReportSchema = z.object({
  /** Seconds since the epoch. */
  generatedAt: z.number().int(),
  /** Per collection: documents read from Firestore, documents published, drafts left out (isDraft). */
  collections: z.record(z.string(), z.object({ read: z.int(), shown: z.int(), drafts: z.int().optional() })),
  /** What was left out, with the titre of the document (or link) concerned when it has one. */
  problems: z.array(
    z.object({ ...place, titre: z.string().optional(), leftOut: z.enum(['document', 'link', 'field']) }),
  ),
  /** Content pictures read at build time; `failed`: each use of one that could not be read, src as written. */
  pictures: z.object({ fetched: z.number().int(), failed: z.array(z.object({ ...place, src: z.string() })) }),
  /**
   * The legal pages generated for want of their article (LEGAL_PAGES id), each with what it lacks that the law asks
   * for (French phrases of legalGaps, [] when nothing); absent from reports written before pages were generated.
   */
  legal: z.array(z.object({ page: z.string(), missing: z.array(z.string()) })).optional(),
});

/** A menu link after normalisation. */
export type Link = z.infer<typeof linkSchema>;
/** An article (or partner) after validation. */
export type Article = z.infer<typeof articleSchema>;
/** The content report of a pull. */
export type ContentReport = z.infer<typeof contentReportSchema>;
/** One entry of the report's problems. */
export type ContentProblem = ContentReport['problems'][number];

/** Astro's file() loader of a pulled collection, which waits for `npm start`'s pull first (src/lib/pull-gate.ts). */
function pulled(name: CollectionName): Loader {
  const loader = file(dataFile(name));
  return {
    ...loader,
    load: async (context) => {
      await waitForPull();
      return loader.load(context);
    },
  };
}

export const collections = {
  menus: defineCollection({ loader: pulled('menus'), schema: menuSchema }),
  categories: defineCollection({ loader: pulled('categories'), schema: categorySchema }),
  articles: defineCollection({ loader: pulled('articles'), schema: articleSchema }),
  partenaires: defineCollection({ loader: pulled('partenaires'), schema: articleSchema }),
  association: defineCollection({ loader: pulled('association'), schema: associationSchema }),
};
