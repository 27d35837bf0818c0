/**
 * Content pictures at build time: astro:assets turns the pull's copies (src/data/pictures/) into AVIF and
 * WebP at a few widths; a picture the pull could not read has no entry and is left out.
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';

/** Renderable, serialisable picture (also passed to React islands). */
export interface PictureView {
  /** Fallback URL (original format, mid width) for browsers without AVIF/WebP. */
  src: string;
  /** Fallback srcset ('' for SVG). */
  srcset: string;
  /** `sizes` attribute of the sources. */
  sizes: string;
  /** Intrinsic ratio in pixels, so that nothing moves while it loads. */
  width: number;
  height: number;
  alt: string;
  /** `eager` + fetchpriority `high` for the page's largest picture, `lazy` otherwise. */
  loading: 'eager' | 'lazy';
  fetchpriority?: 'high';
  /** `<source>`s, best format first (empty for SVG, served as is). */
  sources: { type: string; srcset: string }[];
}

/** How a picture is shown: its CSS width in pixels and `sizes`. */
export interface PictureUsage {
  /** Largest CSS width the picture is shown at, in pixels (srcset holds 1×, 1.5× and 2× of it). */
  width: number;
  /** `sizes` attribute; default `(max-width: <width>px) 100vw, <width>px`. */
  sizes?: string;
  /** The page's largest picture (loaded first, fetchpriority high). */
  priority?: boolean;
  /**
   * The page is rendered on demand (a function, e.g. /publier): the pulled file is served as it is
   * (emitted under /_astro/ at build), never transformed per request by the runtime /_image endpoint.
   */
  onDemand?: boolean;
}

interface ManifestEntry {
  file: string;
  width: number;
  height: number;
  format: string;
}

const manifests = import.meta.glob<Record<string, ManifestEntry>>('../../data/pictures.json', {
  eager: true,
  import: 'default',
});
const manifest: Record<string, ManifestEntry> = Object.values(manifests)[0] ?? {};
const files = import.meta.glob<ImageMetadata>('../../data/pictures/*', { import: 'default' });

/** The pulled file of a picture `src`, or undefined when the pull left it out. */
async function pulledFile(src: string): Promise<ImageMetadata | undefined> {
  const entry = manifest[src.trim()];
  const load = entry && files[`../../data/pictures/${entry.file}`];
  return load ? await load() : undefined;
}

/** The optimised picture of content `{src, alt}` (alt '' = decorative), or undefined when there is none or the pull could not read it. */
export async function pictureView(
  picture: { src: string; alt?: string } | undefined,
  usage: PictureUsage,
): Promise<PictureView | undefined> {
  const meta = picture && (await pulledFile(picture.src));
  if (!picture || !meta) return undefined;
  const common = {
    alt: picture.alt ?? '',
    loading: usage.priority ? ('eager' as const) : ('lazy' as const),
    ...(usage.priority && { fetchpriority: 'high' as const }),
  };
  if (usage.onDemand) {
    const width = Math.min(usage.width, meta.width);
    const height = Math.round((width * meta.height) / meta.width);
    return { ...common, src: meta.src, srcset: '', sizes: '', width, height, sources: [] };
  }
  // SVG stays vector: served as is (astro:assets copies it under /_astro/ with a hashed name).
  if (meta.format === 'svg') {
    const image = await getImage({ src: meta, format: 'svg' });
    const width = meta.width || usage.width;
    const height = meta.height || usage.width;
    return { ...common, src: image.src, srcset: '', sizes: '', width, height, sources: [] };
  }
  const widths = [...new Set([1, 1.5, 2].map((factor) => Math.min(Math.round(usage.width * factor), meta.width)))];
  const sizes = usage.sizes ?? `(max-width: ${usage.width}px) 100vw, ${usage.width}px`;
  const fallbackFormat = meta.format === 'png' || meta.format === 'gif' ? 'png' : 'jpg';
  const shown = widths.at(-1) as number;
  // width: the fallback `src` at the largest width used, not a full-size copy of the original.
  const [avif, webp, fallback] = await Promise.all(
    (['avif', 'webp', fallbackFormat] as const).map((format) =>
      getImage({ src: meta, width: shown, widths, sizes, format }),
    ),
  );
  return {
    ...common,
    src: fallback!.src,
    srcset: fallback!.srcSet.attribute,
    sizes,
    width: shown,
    height: Math.round((shown * meta.height) / meta.width),
    sources: [
      { type: 'image/avif', srcset: avif!.srcSet.attribute },
      { type: 'image/webp', srcset: webp!.srcSet.attribute },
    ],
  };
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const decodeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** `<picture>` markup of a PictureView (for HTML strings; components use ContentPicture.astro). */
function pictureHtml(view: PictureView): string {
  const sources = view.sources
    .map(
      (source) =>
        `<source type="${source.type}" srcset="${escapeAttribute(source.srcset)}" sizes="${escapeAttribute(view.sizes)}">`,
    )
    .join('');
  const attributes = [
    `src="${escapeAttribute(view.src)}"`,
    view.srcset && `srcset="${escapeAttribute(view.srcset)}" sizes="${escapeAttribute(view.sizes)}"`,
    `alt="${escapeAttribute(view.alt)}"`,
    `width="${view.width}" height="${view.height}"`,
    `loading="${view.loading}" decoding="async"`,
  ]
    .filter(Boolean)
    .join(' ');
  return `<picture>${sources}<img ${attributes}></picture>`;
}

/** Replaces each `<img>` of sanitizeContentHtml's output by its `<picture>` at most `width` CSS pixels wide, or removes it when unread. */
export async function optimiseHtmlPictures(html: string, width = 720): Promise<string> {
  const tags = [...html.matchAll(/<img\b[^>]*>/g)].map((match) => match[0]);
  if (tags.length === 0) return html;
  const attribute = (tag: string, name: string) => {
    const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    return value === undefined ? undefined : decodeAttribute(value);
  };
  const replacements = await Promise.all(
    tags.map(async (tag) => {
      const src = attribute(tag, 'src');
      const view = src ? await pictureView({ src, alt: attribute(tag, 'alt') ?? '' }, { width }) : undefined;
      return view ? pictureHtml(view) : '';
    }),
  );
  let index = 0;
  return html.replace(/<img\b[^>]*>/g, () => replacements[index++] as string);
}
