/** What a content picture renders from: built by pictures.server.ts, drawn by ResponsivePicture.tsx (and islands). */

/**
 * A renderable, serialisable picture: fallback `src` and `srcset` ('' for SVG or a file served as is), `sizes`,
 * `width` and `height` in CSS pixels, `alt` ('' = decorative), `loading` (eager with fetchpriority high for the page's
 * largest picture), AVIF and WebP `sources` (none for SVG).
 */
export interface PictureView {
  src: string;
  srcset: string;
  sizes: string;
  width: number;
  height: number;
  alt: string;
  loading: 'eager' | 'lazy';
  fetchpriority?: 'high';
  sources: { type: string; srcset: string }[];
}
