/**
 * Pictures before and after: the demo build is given real-size photos (tests/fixtures/pictures/,
 * served over HTTP as Firebase Storage would serve them), then each raster picture the pull read
 * is compared with the files astro:assets wrote for it in dist/_astro/ (every format and width).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, parse } from 'node:path';
import sharp from 'sharp';
import { startPictureServer, type PictureServer } from '../../tests/fixtures/picture-server.ts';
import type { Dataset } from './builds.ts';
import { BenchError, onCleanup } from './processes.ts';

/** One picture of the build: the original and what the site serves instead. */
export interface PictureMeasurement {
  /** Where the editor's picture came from (fixture file name). */
  name: string;
  /** Original format, width × height in pixels, and bytes. */
  original: { format: string; width: number; height: number; bytes: number };
  /** Every file astro:assets wrote for it: format, width in pixels, bytes; smallest first. */
  outputs: { format: string; width: number; bytes: number }[];
}

/** The fixture pictures the bench puts into the demo dataset, and where. */
const PLACES = [
  { file: 'photo-sortie.jpg', collection: 'articles', field: 'img', alt: 'Les enfants en sortie au parc' },
  { file: 'logo-partenaire.png', collection: 'partenaires', field: 'img', alt: '' },
] as const;

/**
 * Starts the picture server and returns the demo dataset with the fixture photo as the newest
 * news article's picture and the PNG logo as the first partner's (both by URL, as from Storage).
 */
export async function withFixturePictures(demo: Dataset): Promise<{ dataset: Dataset; server: PictureServer }> {
  const server = await startPictureServer();
  onCleanup(() => server.close());
  const dataset = structuredClone(demo);
  for (const place of PLACES) {
    const documents = dataset[place.collection] ?? {};
    const candidates = Object.entries(documents).filter(
      ([, data]) => place.collection !== 'articles' || (data as { cat?: string }).cat === 'actualites',
    );
    const newest = candidates.toSorted(
      ([, a], [, b]) => Number((b as { date?: number }).date ?? 0) - Number((a as { date?: number }).date ?? 0),
    )[0];
    if (!newest) throw new Error(`The demo dataset has no document in ${place.collection} to give a picture.`);
    (newest[1] as Record<string, unknown>)[place.field] = { src: server.url(`/${place.file}`), alt: place.alt };
  }
  return { dataset, server };
}

/**
 * Measures the raster pictures of a built workspace (src/data/pictures.json + dist/_astro/);
 * raises BenchError when a fixture picture is not among them.
 * @param projectDir - the workspace that was built.
 */
export async function measurePictures(projectDir: string): Promise<PictureMeasurement[]> {
  const manifest: Record<string, { file: string; format: string; width: number; height: number; bytes: number }> =
    JSON.parse(await readFile(join(projectDir, 'src/data/pictures.json'), 'utf8'));
  const built = await readdir(join(projectDir, 'dist/_astro'));
  const results: PictureMeasurement[] = [];
  for (const [src, entry] of Object.entries(manifest)) {
    if (entry.format === 'svg') continue;
    const stem = parse(entry.file).name;
    const outputs = await Promise.all(
      built
        .filter((name) => name.startsWith(`${stem}.`))
        .map(async (name) => {
          const path = join(projectDir, 'dist/_astro', name);
          const metadata = await sharp(path).metadata();
          // sharp names AVIF by its container, HEIF.
          const format = metadata.format === 'heif' ? 'avif' : (metadata.format ?? '?');
          return { format, width: metadata.width ?? 0, bytes: (await stat(path)).size };
        }),
    );
    results.push({
      name: src.split('/').at(-1)?.split('?')[0] ?? src,
      original: { format: entry.format, width: entry.width, height: entry.height, bytes: entry.bytes },
      outputs: outputs.toSorted((a, b) => a.format.localeCompare(b.format) || a.width - b.width),
    });
  }
  const missing = PLACES.filter((place) => !results.some((result) => result.name === place.file));
  if (missing.length) {
    throw new BenchError(
      `The pull did not take ${missing.map((place) => place.file).join(', ')} (src/data/report.json of the build says why).`,
    );
  }
  return results;
}
