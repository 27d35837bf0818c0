/**
 * The pictures step of the pull: every content picture (img, imgContenu, picto, partner logos and
 * `<img>` in intro/contenu) is read once — downloaded with a timeout, or taken from public/ — checked
 * with sharp and copied into src/data/pictures/, where astro:assets optimises it. Downloads are kept
 * in a cache between builds (revalidated with ETag); a picture that fails is reported, never fatal.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Parser } from 'htmlparser2';
import sharp, { type Metadata } from 'sharp';
import type { PictureFailure } from '../../src/features/publishing/report.ts';

/** Where a picture is used: `articles` / `asso-2` / `img.src`. */
export interface PictureUse {
  /** The picture's `src` as the editor wrote it (site path or URL). */
  src: string;
  collection: string;
  id: string;
  /** Field path, e.g. `img.src`, `liens.3.picto.src`, `contenu (<img>)`. */
  field: string;
}

/** One picture ready for astro:assets (an entry of src/data/pictures.json). */
export interface PictureFile {
  /** File name in src/data/pictures/. */
  file: string;
  /** Intrinsic size in pixels. */
  width: number;
  height: number;
  /** sharp's format name: jpeg, png, webp, avif, gif, svg. */
  format: string;
  /** Size of the original in bytes. */
  bytes: number;
}

/** Result of {@link pullPictures}. */
export interface PicturesResult {
  /** src → file, for every picture that could be read. */
  manifest: Record<string, PictureFile>;
  /** Number of distinct pictures read (downloaded, revalidated or taken from public/). */
  fetched: number;
  failed: PictureFailure[];
}

/** Options of {@link pullPictures}. */
export interface PicturesOptions {
  /** Project root (src/data/pictures/ and public/ are under it). */
  root: string;
  /** Download cache kept between builds. Default `<root>/node_modules/.cache/contenu-images` (Netlify keeps node_modules/). */
  cacheDir?: string;
  /** Give up one download after this many milliseconds (default 20 000). */
  timeoutMs?: number;
  /** Largest accepted picture in bytes (default 25 MB). */
  maxBytes?: number;
  /** Downloads at once (default 4). */
  concurrency?: number;
  log?: (line: string) => void;
}

const FILE_EXTENSIONS: Record<string, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
  svg: 'svg',
};

/** Picture sources of an HTML fragment (`<img src>`), in order. */
export function htmlPictureSources(html: string): string[] {
  const sources: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'img' && attributes.src?.trim()) sources.push(attributes.src.trim());
    },
  });
  parser.write(html);
  parser.end();
  return sources;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The `src` of a picture field (`{src, alt}`), or undefined when there is none. */
function pictureSource(value: unknown): string | undefined {
  return isRecord(value) && typeof value.src === 'string' && value.src.trim() ? value.src.trim() : undefined;
}

/** Every picture of the validated collections (collection → id → data) with where it is used: img, imgContenu, picto, `<img>` in HTML, menu pictos. */
export function collectPictureUses(collections: Record<string, Record<string, unknown>>): PictureUse[] {
  const uses: PictureUse[] = [];
  for (const [collection, documents] of Object.entries(collections)) {
    for (const [id, data] of Object.entries(documents)) {
      if (!isRecord(data)) continue;
      const add = (src: string | undefined, field: string) => src && uses.push({ src, collection, id, field });
      for (const field of ['img', 'imgContenu', 'picto']) add(pictureSource(data[field]), `${field}.src`);
      for (const field of ['intro', 'contenu']) {
        const html = data[field];
        if (typeof html === 'string') for (const src of htmlPictureSources(html)) add(src, `${field} (<img>)`);
      }
      if (!Array.isArray(data.liens)) continue;
      for (const [index, link] of data.liens.entries()) {
        if (!isRecord(link)) continue;
        add(pictureSource(link.picto), `liens.${index}.picto.src`);
        if (!Array.isArray(link.children)) continue;
        for (const [childIndex, child] of link.children.entries()) {
          add(
            pictureSource(isRecord(child) ? child.picto : undefined),
            `liens.${index}.children.${childIndex}.picto.src`,
          );
        }
      }
    }
  }
  return uses;
}

/** Raised with a French reason when one picture cannot be read. */
class PictureProblem extends Error {}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 20);

interface CacheMeta {
  url: string;
  etag?: string;
  lastModified?: string;
}

/** Downloads `url` (or revalidates the cached copy) and returns its bytes. */
async function download(url: string, cacheDir: string, timeoutMs: number, maxBytes: number): Promise<Buffer> {
  const key = hashOf(url);
  const bodyPath = join(cacheDir, `${key}.bin`);
  const metaPath = join(cacheDir, `${key}.json`);
  const cached = existsSync(bodyPath) && existsSync(metaPath);
  const meta: CacheMeta | undefined = cached ? JSON.parse(await readFile(metaPath, 'utf8')) : undefined;
  const headers: Record<string, string> = {};
  if (meta?.etag) headers['if-none-match'] = meta.etag;
  if (meta?.lastModified) headers['if-modified-since'] = meta.lastModified;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    // The server is down or slow: last build's copy is still the editor's picture.
    if (cached) return readFile(bodyPath);
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new PictureProblem(
      timedOut
        ? `le serveur n’a pas répondu en ${(timeoutMs / 1000).toLocaleString('fr-FR')} s`
        : `le serveur est injoignable (${error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)})`,
    );
  }
  if (response.status === 304 && cached) return readFile(bodyPath);
  if (!response.ok) {
    await response.body?.cancel();
    throw new PictureProblem(`le serveur a répondu « ${response.status} ${response.statusText} » au lieu de l’image`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new PictureProblem(`l’image est trop lourde (plus de ${Math.round(maxBytes / 1e6)} Mo)`);
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch {
    throw new PictureProblem(
      `le téléchargement a été interrompu ou a dépassé ${(timeoutMs / 1000).toLocaleString('fr-FR')} s`,
    );
  }
  if (bytes.length > maxBytes)
    throw new PictureProblem(`l’image est trop lourde (plus de ${Math.round(maxBytes / 1e6)} Mo)`);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(bodyPath, bytes);
  const fresh: CacheMeta = { url };
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  if (etag) fresh.etag = etag;
  if (lastModified) fresh.lastModified = lastModified;
  await writeFile(metaPath, JSON.stringify(fresh));
  return bytes;
}

/** Reads a site path (`/contenu/x.jpg`) from public/. */
async function readSitePath(src: string, root: string): Promise<Buffer> {
  const path = decodeURIComponent(src.split(/[?#]/)[0] as string);
  const publicDir = resolve(root, 'public');
  const file = resolve(publicDir, `.${path}`);
  if (!file.startsWith(`${publicDir}/`) || !existsSync(file)) {
    throw new PictureProblem(`le fichier public${path} n’existe pas sur le site`);
  }
  return readFile(file);
}

/** Reads one picture (see module doc) and checks that sharp can decode it. */
async function readPicture(src: string, options: Required<Omit<PicturesOptions, 'log'>>): Promise<[Buffer, Metadata]> {
  let bytes: Buffer;
  if (src.startsWith('/') && !src.startsWith('//')) bytes = await readSitePath(src, options.root);
  else if (/^https?:\/\//i.test(src))
    bytes = await download(src, options.cacheDir, options.timeoutMs, options.maxBytes);
  else throw new PictureProblem('l’adresse doit commencer par https:// (ou / pour un fichier du site)');
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (!metadata?.format || !(metadata.format in FILE_EXTENSIONS) || !metadata.width || !metadata.height) {
    throw new PictureProblem('le fichier reçu n’est pas une image lisible (JPEG, PNG, WebP, AVIF, GIF ou SVG)');
  }
  return [bytes, metadata];
}

/** Runs `task` on every item, at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

/**
 * Reads every picture once into src/data/pictures/ (old files removed): the manifest for pictures.json, the
 * count read and the failures, once per place that uses them (never throws for a picture).
 */
export async function pullPictures(uses: PictureUse[], options: PicturesOptions): Promise<PicturesResult> {
  const settings = {
    root: options.root,
    cacheDir: options.cacheDir ?? resolve(options.root, 'node_modules/.cache/contenu-images'),
    timeoutMs: options.timeoutMs ?? 20_000,
    maxBytes: options.maxBytes ?? 25_000_000,
    concurrency: options.concurrency ?? 4,
  };
  const log = options.log ?? console.log;
  const outputDir = resolve(options.root, 'src/data/pictures');
  await mkdir(outputDir, { recursive: true });
  const manifest: Record<string, PictureFile> = {};
  const problems = new Map<string, string>();
  const sources = [...new Set(uses.map((use) => use.src))];
  const started = performance.now();
  await eachLimited(sources, settings.concurrency, async (src) => {
    try {
      const [bytes, metadata] = await readPicture(src, settings);
      const file = `${hashOf(src)}.${FILE_EXTENSIONS[metadata.format as string]}`;
      await writeFile(join(outputDir, file), bytes);
      // EXIF-rotated photos: astro:assets auto-orients, so the size is the one shown.
      const rotated = (metadata.orientation ?? 1) >= 5;
      manifest[src] = {
        file,
        width: (rotated ? metadata.height : metadata.width) as number,
        height: (rotated ? metadata.width : metadata.height) as number,
        format: metadata.format as string,
        bytes: bytes.length,
      };
    } catch (error) {
      problems.set(src, error instanceof PictureProblem ? error.message : `erreur inattendue (${String(error)})`);
    }
  });
  const kept = new Set(Object.values(manifest).map((entry) => entry.file));
  for (const name of await readdir(outputDir)) if (!kept.has(name)) await rm(join(outputDir, name), { force: true });
  const failed = uses
    .filter((use) => problems.has(use.src))
    .map(({ src, collection, id, field }) => ({
      src,
      collection,
      id,
      field,
      reason: problems.get(src) as string,
    }));
  const ms = Math.round(performance.now() - started);
  log(`${'pictures'.padEnd(12)} ${String(kept.size).padStart(6)} read     ${String(ms).padStart(7)} ms`);
  for (const failure of failed) {
    log(
      `  ⚠ ${failure.collection}/${failure.id} ${failure.field}: picture left out, ${failure.reason} (${failure.src})`,
    );
  }
  // Sorted keys: the same content gives byte-identical JSON.
  const sorted = Object.fromEntries(Object.entries(manifest).toSorted(([a], [b]) => a.localeCompare(b)));
  return { manifest: sorted, fetched: Object.keys(manifest).length, failed };
}
