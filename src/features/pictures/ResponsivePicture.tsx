/**
 * A content picture inside an island: the `<picture>` of a PictureView computed at build time by
 * the page (src/features/pictures/pictures.server.ts), the same markup as ContentPicture.astro.
 */
import type { PictureView } from './pictures.server';

/** Renders `view` as `<picture>` (AVIF, WebP, fallback `<img>` with width/height). */
export default function ResponsivePicture({ view, className }: { view: PictureView; className?: string }) {
  return (
    <picture>
      {view.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={view.sizes} />
      ))}
      <img
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
