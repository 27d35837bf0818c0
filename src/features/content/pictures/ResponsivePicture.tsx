/**
 * The one `<picture>` markup of a content picture, for islands, ContentPicture.astro and content HTML (pictureHtml).
 */
import type { PictureView } from './picture-view';

/**
 * Renders `view` as `<picture>`: AVIF and WebP sources, fallback `<img>` with width/height; other props (the
 * caller's data-astro-cid-…) go on the `<img>`.
 */
export default function ResponsivePicture({
  view,
  className,
  ...attributes
}: { view: PictureView; className?: string | undefined } & Record<`data-${string}`, unknown>) {
  return (
    <picture>
      {view.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={view.sizes} />
      ))}
      <img
        {...attributes}
        className={className}
        src={view.src}
        srcSet={view.srcset || undefined}
        sizes={view.srcset ? view.sizes : undefined}
        alt={view.alt}
        width={view.width}
        height={view.height}
        loading={view.loading}
        decoding="async"
        fetchPriority={view.fetchpriority}
      />
    </picture>
  );
}
