/**
 * Content types of the site: the ONLY place they are declared (spec §3), with
 * the normalisation of what editors really store (docs/content.md): '' or null
 * for "none", numbers and booleans as strings, dates in any common form. The
 * pull validates each Firestore document with them; Astro's file() loaders again.
 */
import { defineCollection } from 'astro/content/config';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';

/** Above this, a numeric date is in milliseconds, not seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const MILLISECONDS_FROM = 1e11;
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const isBlank = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && !value.trim());
/** '' and null mean "none". */
const blankToUndefined = (value: unknown) =>
  isBlank(value) ? undefined : typeof value === 'string' ? value.trim() : value;
/** null means "empty text". */
const nullToEmpty = (value: unknown) => (value === null || value === undefined ? '' : value);

/** `"true"`/`"false"` (any case) → boolean; '' and null → none. */
function toBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : text === '' ? undefined : value;
}

/** Numeric strings → number; '' and null → none. */
function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return blankToUndefined(value);
}

/**
 * Any stored date → whole seconds since the epoch (rounded down): a Firestore
 * Timestamp (or its JSON), seconds (whole or not), milliseconds, as numbers or
 * numeric strings, or an ISO 8601 string. '' and null → none. Anything else is
 * returned as is, for the schema to reject.
 */
export function toSeconds(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  if (typeof value === 'object') {
    const stamp = value as { toMillis?: unknown; seconds?: unknown; _seconds?: unknown };
    if (typeof stamp.toMillis === 'function') return Math.floor((stamp.toMillis as () => number)() / 1000);
    const seconds = stamp.seconds ?? stamp._seconds;
    return typeof seconds === 'number' ? Math.floor(seconds) : value;
  }
  if (typeof value === 'string' && ISO_DATE.test(value.trim())) {
    const millis = Date.parse(value.trim());
    return Number.isNaN(millis) ? value : Math.floor(millis / 1000);
  }
  const number = toNumber(value);
  if (typeof number !== 'number' || !Number.isFinite(number)) return value;
  return Math.floor(Math.abs(number) >= MILLISECONDS_FROM ? number / 1000 : number);
}

/** Firebase Storage's download URL of a `gs://<bucket>/<path>` object (Storage REST API, public objects). */
export function storageDownloadUrl(bucket: string, path: string): string {
  return `https://firebasestorage.googleapis.com/v0/b/${bucket}/o/${encodeURIComponent(path)}?alt=media`;
}

/** A picture's `src`: a site path (`/contenu/…`), an https URL (http on 127.0.0.1 or localhost), or `gs://<bucket>/<path>` (→ its download URL). */
export const pictureSourceSchema = z
  .string({ error: 'l’adresse de son image n’est pas un texte' })
  .transform((raw, ctx) => {
    const src = raw.trim();
    const storage = /^gs:\/\/([^/]+)\/(.+)$/i.exec(src);
    if (storage) return storageDownloadUrl(storage[1] as string, storage[2] as string);
    if (src.startsWith('/') && !src.startsWith('//')) return src;
    if (URL.canParse(src) && new URL(src).protocol === 'https:') return src;
    // Loopback http: the tests' and the bench's local stand-in for Storage (no editor writes one).
    if (URL.canParse(src) && /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(src)) return src;
    ctx.issues.push({
      code: 'custom',
      input: raw,
      message: `l’adresse de son image (« ${src.slice(0, 60)} ») ne commence ni par /, ni par https://, ni par gs://`,
    });
    return z.NEVER;
  });

/** An image reference: `src` (see pictureSourceSchema) and its text alternative. */
export const imageSchema = z.object({
  src: pictureSourceSchema,
  /** Text alternative; an empty string marks a decorative image. */
  alt: z.preprocess(nullToEmpty, z.string({ error: 'la description de son image n’est pas un texte' })),
});

/** '' , null, `{src: ''}` or `{src: null}` mean "no image"; a bare string is taken as the src. */
function emptyImageToUndefined(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') return { src: value };
  if (typeof value === 'object' && isBlank((value as { src?: unknown }).src)) return undefined;
  return value;
}

/** An optional image field, normalised by emptyImageToUndefined. */
const optionalImage = z.preprocess(emptyImageToUndefined, imageSchema.optional()).optional();

/** A link's target URL: a site path, `#anchor`, http(s), mailto: or tel: (never `javascript:`). */
const hrefSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? 'son adresse (href) est vide' : 'son adresse (href) n’est pas un texte',
  })
  .trim()
  .min(1, 'son adresse (href) est vide')
  .refine((href) => /^(\/|#|https?:|mailto:|tel:)/i.test(href) || !/^[a-z][a-z\d+.-]*:/i.test(href), {
    message: 'son adresse (href) n’est pas un lien web',
  });

/** Fields shared by menu links and their sub-links (spec §3 "liens"). */
const linkFields = {
  /** Visible text; empty with a picto → an icon-only link named by the picto's alt. */
  titre: z.preprocess(nullToEmpty, z.string({ error: 'son titre n’est pas un texte' })),
  /** Target URL: site path (`/ecole`) or absolute URL. */
  href: z.preprocess(blankToUndefined, hrefSchema),
  /** `_blank` opens a new tab (announced to screen readers). */
  target: z.preprocess(blankToUndefined, z.string().optional()).optional(),
  /** Anchor (without `#`) appended to href. */
  ancre: z.preprocess(blankToUndefined, z.string().optional()).optional(),
  /** `false` hides the link; missing means shown. */
  statut: z.preprocess(toBoolean, z.boolean({ error: 'son statut n’est ni true ni false' }).optional()).optional(),
  /** Sort key, ascending; links without one come last. */
  ordre: z.preprocess(toNumber, z.number({ error: 'son ordre n’est pas un nombre' }).optional()).optional(),
  /** `true` highlights the link (e.g. "Faire un don"). */
  exergue: z.preprocess(toBoolean, z.boolean({ error: 'son exergue n’est ni true ni false' }).optional()).optional(),
  /** Optional icon shown before (or, with an empty titre, instead of) the text. */
  picto: optionalImage,
  /** Set by the normalisation: the stored titre was empty, the picto alone shows the link. */
  iconOnly: z.boolean().optional(),
};

/** An empty titre with a described picto → icon-only link named by the picto's alt; else the link cannot be shown. */
function nameIconOnlyLink<
  T extends { titre: string; picto?: { alt: string } | undefined; iconOnly?: boolean | undefined },
>(link: T, ctx: z.core.$RefinementCtx<T>): T {
  if (link.titre.trim()) return { ...link, titre: link.titre.trim() };
  const alt = link.picto?.alt.trim();
  if (alt) return { ...link, titre: alt, iconOnly: true };
  ctx.issues.push({
    code: 'custom',
    path: ['titre'],
    input: link.titre,
    message: link.picto ? 'il n’a pas de titre et son pictogramme n’a pas de description (alt)' : 'il n’a pas de titre',
  });
  return z.NEVER;
}

/** A sub-link of a menu link (spec §3: children "also have statut"). */
export const childLinkSchema = z.object(linkFields).transform(nameIconOnlyLink);

/** A menu link (spec §3 "liens"), with optional children; a parent may be a pure group label without href. */
export const linkSchema = z
  .object({
    ...linkFields,
    href: z.preprocess(blankToUndefined, hrefSchema.optional()).optional(),
    /** Sub-links; a hidden parent hides its children too. */
    children: z.preprocess(blankToUndefined, z.array(childLinkSchema).optional()).optional(),
  })
  .transform(nameIconOnlyLink);

/** Menu document (ids principal, reseaux, pied, divers). */
export const menuSchema = z.object({
  /** Links of the menu, in any order (sorted by `ordre` when shown). */
  liens: z.preprocess(nullToEmptyList, z.array(linkSchema, { error: 'ses liens ne sont pas une liste' })),
  /** Only in `divers`: the source of the ecole/schema frame ('' → none). */
  schema: z
    .preprocess(
      (value) => (isBlank(value) || isBlank((value as { src?: unknown }).src) ? undefined : value),
      z
        .object({
          src: z
            .string({ error: 'l’adresse du suivi des démarches n’est pas un texte' })
            .trim()
            .refine((src) => src.startsWith('/') || src.startsWith('https://'), {
              message: 'l’adresse du suivi des démarches ne commence ni par / ni par https://',
            }),
        })
        .optional(),
    )
    .optional(),
});

function nullToEmptyList(value: unknown): unknown {
  return isBlank(value) ? [] : value;
}

/** Text fields: null → ''. */
const text = (what: string) => z.preprocess(nullToEmpty, z.string({ error: `${what} n’est pas un texte` }));

/** Category document (id is a slug: accueil, actualites, asso, ecole, partenaires). */
export const categorySchema = z.object({
  /** Page title. */
  titre: text('son titre').pipe(z.string().trim().min(1, 'son titre est vide')),
  /** Introductory sentence(s) under the title. */
  descr: text('sa description'),
  /** Optional display order: ids of the category's articles. */
  articles: z.preprocess(nullToEmptyList, z.array(z.string(), { error: 'sa liste d’articles est illisible' })),
});

/** Article document (collections articles and partenaires). */
export const articleSchema = z.object({
  /** URL slug; defaults to the document id when empty. */
  slug: text('son slug').pipe(z.string().trim()),
  /** Category id (accueil, actualites, asso, ecole, partenaires, divers). */
  cat: text('sa catégorie').pipe(z.string().trim()),
  /** Title. */
  titre: text('son titre').pipe(z.string().trim().min(1, 'son titre est vide')),
  /** Short text; may hold light HTML (sanitised at build time). */
  intro: text('son intro'),
  /** Full text; may hold HTML (sanitised at build time). */
  contenu: text('son contenu'),
  /** Publication date in whole seconds since the Unix epoch (see toSeconds). */
  date: z
    .preprocess(
      toSeconds,
      z.number({ error: 'sa date est illisible' }).int().nonnegative('sa date est avant 1970').optional(),
    )
    .optional(),
  /** Main image. */
  img: optionalImage,
  /** Image shown with the full text. */
  imgContenu: z.preprocess(emptyImageToUndefined, z.object({ src: pictureSourceSchema }).optional()).optional(),
  /** Small icon. */
  picto: optionalImage,
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

/** What the pull leaves out when a value still fails: a document, one link, or one field. */
export type LeftOut = 'document' | 'link' | 'field';

/**
 * The parts of a document that can be left out alone, by path (`*` = any list
 * index), most specific first; a failure anywhere else leaves the whole document out.
 */
export const partsLeftOutAlone: Record<CollectionName, [path: string, leftOut: Exclude<LeftOut, 'document'>][]> = {
  menus: [
    ...(['liens.*.children.*', 'liens.*'] as const).flatMap((link): [string, 'field' | 'link'][] => [
      ...['picto', 'ordre', 'target', 'ancre', 'exergue'].map((field): [string, 'field'] => [
        `${link}.${field}`,
        'field',
      ]),
      [link, 'link'],
    ]),
    ['schema', 'field'],
  ],
  categories: [['articles', 'field']],
  articles: [
    ['img', 'field'],
    ['imgContenu', 'field'],
    ['picto', 'field'],
  ],
  partenaires: [
    ['img', 'field'],
    ['imgContenu', 'field'],
    ['picto', 'field'],
  ],
};

/** The content report every pull writes (src/data/report.json): read for the terminal and the /publier page. */
export const contentReportSchema = z.object({
  /** When the pull ran, in seconds since the epoch. */
  generatedAt: z.number().int(),
  /** Per collection: documents read from Firestore, documents published. */
  collections: z.record(z.string(), z.object({ read: z.number().int(), shown: z.number().int() })),
  /** What was left out or is missing, and why. */
  problems: z.array(
    z.object({
      collection: z.string(),
      /** Document id. */
      id: z.string(),
      /** Titre of the document (or of the link) concerned, when it has one. */
      titre: z.string().optional(),
      /** Field path inside the document, e.g. `date`, `liens.3.href`, or `(document)`. */
      field: z.string(),
      /** A plain French sentence for editors, e.g. « sa date est illisible ». */
      reason: z.string(),
      leftOut: z.enum(['document', 'link', 'field']),
    }),
  ),
  /** Content pictures downloaded at build time. */
  pictures: z.object({
    fetched: z.number().int(),
    failed: z.array(
      z.object({
        /** The picture's address as the editor wrote it. */
        src: z.string(),
        /** French reason, without final full stop. */
        reason: z.string(),
        collection: z.string(),
        id: z.string(),
        /** Field path: `img.src`, `contenu (<img>)`, `liens.2.picto.src`… */
        field: z.string(),
      }),
    ),
  }),
});

/** Where the pull writes the content report. */
export const reportFile = 'src/data/report.json';

/** A link as stored after normalisation. */
export type Link = z.infer<typeof linkSchema>;
/** A sub-link after normalisation. */
export type ChildLink = z.infer<typeof childLinkSchema>;
/** An article (or partner) after validation. */
export type Article = z.infer<typeof articleSchema>;
/** A menu document after validation. */
export type Menu = z.infer<typeof menuSchema>;
/** A category document after validation. */
export type Category = z.infer<typeof categorySchema>;
/** The content report of a pull. */
export type ContentReport = z.infer<typeof contentReportSchema>;
/** One entry of the report's problems. */
export type ContentProblem = ContentReport['problems'][number];

export const collections = {
  menus: defineCollection({ loader: file(dataFiles.menus), schema: menuSchema }),
  categories: defineCollection({ loader: file(dataFiles.categories), schema: categorySchema }),
  articles: defineCollection({ loader: file(dataFiles.articles), schema: articleSchema }),
  partenaires: defineCollection({ loader: file(dataFiles.partenaires), schema: articleSchema }),
};
