/**
 * Content pictures at build time: astro:assets turns the pull's copies (src/data/pictures/) into AVIF and WebP; an
 * unread one is left out.
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';
import { parseDocument } from 'htmlparser2';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { memoizedPerBuild } from '../../../lib/build-memo';
import type { PictureView } from './picture-view';
import ResponsivePicture from './ResponsivePicture';

export type { PictureView };

const manifests = import.meta.glob<Record<string, { file: string }>>('../../../data/pictures.json', {
  eager: true,
  import: 'default',
});
const manifest = Object.values(manifests)[0] ?? {};
const files = import.meta.glob<ImageMetadata>('../../../data/pictures/*', { import: 'default' });

type PictureInput = { src: string; alt?: string | undefined } | undefined;
type PictureUsage = { width: number; sizes?: string; priority?: boolean; onDemand?: boolean };

/**
 * The optimised picture of `{src, alt}` (alt '' = decorative) at most `width` CSS pixels wide (1×, 1.5×, 2×),
 * undefined when unread; `onDemand` pages serve the pulled file as is. Once per build for the same arguments (the
 * menus' pictograms are on every page): the view is shared, never change it.
 */
export const pictureView = memoizedPerBuild(
  (picture: PictureInput, usage: PictureUsage) => JSON.stringify([picture?.src, picture?.alt, usage]),
  optimisedPicture,
);

async function optimisedPicture(picture: PictureInput, usage: PictureUsage): Promise<PictureView | undefined> {
  const load = picture && files[`../../../data/pictures/${manifest[picture.src.trim()]?.file}`];
  const meta = load && (await load());
  if (!picture || !meta) return undefined;
  const common = {
    alt: picture.alt ?? '',
    loading: usage.priority ? ('eager' as const) : ('lazy' as const),
    ...(usage.priority && { fetchpriority: 'high' as const }),
  };
  const asIs = { ...common, srcset: '', sizes: '', sources: [] as { type: string; srcset: string }[] };
  if (usage.onDemand) {
    const width = Math.min(usage.width, meta.width);
    return { ...asIs, src: meta.src, width, height: Math.round((width * meta.height) / meta.width) };
  }
  // The site's own SVG (public/) stays vector: served as is under /_astro/, where no script runs (netlify.toml). A
  // downloaded SVG is never here: the pull drew it into a PNG.
  if (meta.format === 'svg') {
    const { src } = await getImage({ src: meta, format: 'svg' });
    return { ...asIs, src, width: meta.width || usage.width, height: meta.height || usage.width };
  }
  const widths = [...new Set([1, 1.5, 2].map((factor) => Math.min(Math.round(usage.width * factor), meta.width)))];
  const sizes = usage.sizes ?? `(max-width: ${usage.width}px) 100vw, ${usage.width}px`;
  const shown = widths.at(-1)!;
  // width: the fallback `src` at the largest width used, not a full-size copy of the original.
  const [avif, webp, fallback] = await Promise.all(
    (['avif', 'webp', meta.format === 'png' || meta.format === 'gif' ? 'png' : 'jpg'] as const).map((format) =>
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

/**
 * The `<picture>` HTML of a view (ResponsivePicture's markup); `attributes` (className, data-astro-cid-…) go on the
 * `<img>`.
 */
export function pictureHtml(view: PictureView, attributes: Record<string, unknown> = {}): string {
  const rendered = renderedPictures.get(view) ?? new Map<string, string>();
  renderedPictures.set(view, rendered);
  const key = JSON.stringify(attributes);
  const html = rendered.get(key) ?? renderToStaticMarkup(createElement(ResponsivePicture, { view, ...attributes }));
  rendered.set(key, html);
  return html;
}

/** pictureHtml's markup by view (a view is shared once per build: pictureView) and attributes. */
const renderedPictures = new WeakMap<PictureView, Map<string, string>>();

/**
 * Replaces each `<img>` of sanitizeContentHtml's output by its `<picture>` at most `width` CSS pixels wide, or removes
 * it when unread.
 */
export async function optimiseHtmlPictures(html: string, width = 720): Promise<string> {
  const tags = html.match(/<img\b[^>]*>/g) ?? [];
  const replacements = await Promise.all(
    tags.map(async (tag) => {
      const { src, alt = '' } = (parseDocument(tag).firstChild as { attribs: Record<string, string> }).attribs;
      const view = src ? await pictureView({ src, alt }, { width }) : undefined;
      return view ? pictureHtml(view) : '';
    }),
  );
  let index = 0;
  return html.replace(/<img\b[^>]*>/g, () => replacements[index++]!);
}
