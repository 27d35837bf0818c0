/**
 * The pull's pictures: each read once (downloaded with a timeout and revalidated by ETag from a cache, or from
 * public/), checked with sharp (a downloaded SVG drawn into a PNG) and copied into src/data/pictures/ for astro:assets;
 * a failure is reported, never fatal.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { STATUS_CODES } from 'node:http';
import sharp, { type Metadata } from 'sharp';
import type { Article, ContentReport, Link } from '../../src/content.config.ts';
import { guardedFetch, isAllowedScheme, policyFromEnv, wasRefused, type FetchPolicy } from './picture-fetch.ts';

/** Where a picture is used: its `src` as the editor wrote it, collection, id and field path (`img.src`…). */
type PictureUse = Omit<ContentReport['pictures']['failed'][number], 'reason'>;
/** Project root, download cache, timeout of one download in ms, where downloads may go. */
type Settings = { root: string; cacheDir: string; timeoutMs: number; policy: FetchPolicy };

const MAX_BYTES = 25_000_000;
const CONCURRENCY = 4;
const FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif', 'svg'];
/** Longest side (px) a downloaded SVG is drawn at: twice the widest a page shows a picture (720 CSS px) and more. */
const SVG_RASTER_SIDE = 1600;

/** Why a picture on a loopback, private or otherwise internal address is left out (no detail of what answered). */
const REFUSED_ADDRESS = 'l’adresse ne mène pas à un serveur public d’Internet : le site ne télécharge pas cette image';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 20);

/** Picture sources of an HTML fragment (`<img src>`, entities decoded), in order. */
export function htmlPictureSources(html: string): string[] {
  const images = DomUtils.getElementsByTagName('img', parseDocument(html));
  return images.map((image) => image.attribs.src?.trim() ?? '').filter(Boolean);
}

/**
 * Every picture of the validated collections (collection → id → data): img, imgContenu, picto, `<img>` in
 * intro/contenu, menu pictos.
 */
export function collectPictureUses(collections: Record<string, Record<string, unknown>>): PictureUse[] {
  const uses: PictureUse[] = [];
  for (const [collection, documents] of Object.entries(collections)) {
    for (const [id, data] of Object.entries(documents) as [string, Partial<Article> & { liens?: Link[] }][]) {
      const add = (src: string | undefined, field: string) =>
        src?.trim() && uses.push({ src: src.trim(), collection, id, field });
      for (const field of ['img', 'imgContenu', 'picto'] as const) add(data[field]?.src, `${field}.src`);
      for (const field of ['intro', 'contenu'] as const) {
        for (const src of htmlPictureSources(data[field] ?? '')) add(src, `${field} (<img>)`);
      }
      for (const [index, link] of (data.liens ?? []).entries()) {
        add(link.picto?.src, `liens.${index}.picto.src`);
        for (const [child, { picto }] of (link.children ?? []).entries()) {
          add(picto?.src, `liens.${index}.children.${child}.picto.src`);
        }
      }
    }
  }
  return uses;
}

/** Downloads `url`, or revalidates its cached copy: the bytes, or why not in French. */
async function download(url: string, { cacheDir, timeoutMs, policy }: Settings): Promise<Buffer | string> {
  const path = join(cacheDir, hashOf(url));
  const cached = existsSync(`${path}.bin`) && existsSync(`${path}.json`);
  // The cached copy's validators, as the request headers that revalidate it.
  const headers: Record<string, string> = cached ? JSON.parse(await readFile(`${path}.json`, 'utf8')) : {};
  const seconds = (timeoutMs / 1000).toLocaleString('fr-FR');
  const tooHeavy = `l’image est trop lourde (plus de ${Math.round(MAX_BYTES / 1e6)} Mo)`;
  const response = await guardedFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) }, policy).catch(
    (error: Error) => error,
  );
  // Never from the cache: the address itself is refused, whatever an earlier build kept.
  if (response instanceof Error && wasRefused(response)) return REFUSED_ADDRESS;
  // The server is down or slow: last build's copy is still the editor's picture.
  if (cached && (response instanceof Error || response.status === 304)) return readFile(`${path}.bin`);
  if (response instanceof Error) {
    return response.name === 'TimeoutError'
      ? `le serveur n’a pas répondu en ${seconds} s`
      : 'le serveur est injoignable';
  }
  if (!response.ok || Number(response.headers.get('content-length')) > MAX_BYTES) {
    await response.body?.cancel();
    return response.ok
      ? tooHeavy
      : `le serveur a répondu « ${response.status} ${STATUS_CODES[response.status] ?? ''} » au lieu de l’image`;
  }
  const body = await response.arrayBuffer().catch(() => undefined);
  if (!body) return `le téléchargement a été interrompu ou a dépassé ${seconds} s`;
  if (body.byteLength > MAX_BYTES) return tooHeavy;
  const bytes = Buffer.from(body);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(`${path}.bin`, bytes);
  const [etag, modified] = ['etag', 'last-modified'].map((name) => response.headers.get(name) ?? undefined);
  await writeFile(`${path}.json`, JSON.stringify({ 'if-none-match': etag, 'if-modified-since': modified }));
  return bytes;
}

/**
 * Reads one picture (a site path from public/, or an http(s) URL) and decodes it with sharp: bytes and metadata, or why
 * not in French. A downloaded SVG comes back as a PNG of it, SVG_RASTER_SIDE px on its longest side; the site's own
 * SVG files (public/, in the repository) stay vector.
 */
async function readPicture(src: string, settings: Settings): Promise<[Buffer, Metadata] | string> {
  let bytes: Buffer | string;
  if (src.startsWith('/') && !src.startsWith('//')) {
    const path = decodeURIComponent(src.split(/[?#]/)[0]!);
    const publicDir = resolve(settings.root, 'public');
    const file = resolve(publicDir, `.${path}`);
    const found = file.startsWith(`${publicDir}/`) && existsSync(file);
    bytes = found ? await readFile(file) : `le fichier public${path} n’existe pas sur le site`;
  } else if (/^https?:\/\//i.test(src) && isAllowedScheme(URL.parse(src) ?? new URL('x:'), settings.policy)) {
    bytes = await download(src, settings);
  } else bytes = 'l’adresse doit commencer par https:// (ou / pour un fichier du site)';
  if (typeof bytes === 'string') return bytes;
  const metadata = await readable(bytes);
  if (!metadata) return 'le fichier reçu n’est pas une image lisible (JPEG, PNG, WebP, AVIF, GIF ou SVG)';
  if (metadata.format !== 'svg' || src.startsWith('/')) return [bytes, metadata];
  // A downloaded SVG is a document that may hold scripts and links: only its pixels are kept (docs/pictures.md).
  const density = (72 * SVG_RASTER_SIDE) / Math.max(metadata.width!, metadata.height!);
  const png = await sharp(bytes, { density: Math.min(Math.max(density, 1), 100_000) })
    .png()
    .toBuffer()
    .catch(() => undefined);
  const rasterised = png && (await readable(png));
  return rasterised ? [png, rasterised] : 'le fichier SVG reçu ne peut pas être dessiné en image';
}

/** Sharp's metadata of `bytes` when it decodes them as one of FORMATS with a size; else undefined. */
async function readable(bytes: Buffer): Promise<Metadata | undefined> {
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  return metadata?.format && FORMATS.includes(metadata.format) && metadata.width && metadata.height
    ? metadata
    : undefined;
}

/**
 * Reads every picture once into src/data/pictures/ (stale files removed; downloads cached in `cacheDir`, `timeoutMs`
 * each, only where `policy` allows: by default https from public addresses, picture-fetch.ts): manifest (src → file,
 * width and height in pixels, format, bytes), count read, failures per use.
 */
export async function pullPictures(
  uses: PictureUse[],
  {
    root,
    cacheDir = resolve(root, 'node_modules/.cache/contenu-images'),
    timeoutMs = 20_000,
    policy = policyFromEnv(),
    log = console.log,
  }: Partial<Settings> & { root: string; log?: (line: string) => void },
) {
  const outputDir = resolve(root, 'src/data/pictures');
  await mkdir(outputDir, { recursive: true });
  const manifest: Record<string, { file: string; width: number; height: number; format: string; bytes: number }> = {};
  const problems = new Map<string, string>();
  const queue = [...new Set(uses.map((use) => use.src))];
  const started = performance.now();
  const worker = async () => {
    for (let src = queue.shift(); src !== undefined; src = queue.shift()) {
      // The detail goes to the build's log only: the report is shown in the space.
      const read = await readPicture(src, { root, cacheDir, timeoutMs, policy }).catch((error: unknown) => {
        log(`  ⚠ ${src}: ${error instanceof Error ? error.message : String(error)}`);
        return 'erreur inattendue en lisant l’image';
      });
      if (typeof read === 'string') {
        problems.set(src, read);
        continue;
      }
      const [bytes, { format, width, height, orientation = 1 }] = read;
      const file = `${hashOf(src)}.${format === 'jpeg' ? 'jpg' : format}`;
      await writeFile(join(outputDir, file), bytes);
      // EXIF-rotated photos: astro:assets auto-orients, so the size is the one shown.
      const [shownWidth, shownHeight] = orientation >= 5 ? [height!, width!] : [width!, height!];
      manifest[src] = { file, width: shownWidth, height: shownHeight, format: format!, bytes: bytes.length };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const kept = new Set(Object.values(manifest).map((entry) => entry.file));
  for (const name of await readdir(outputDir)) if (!kept.has(name)) await rm(join(outputDir, name), { force: true });
  const failed = uses.flatMap((use) => (problems.has(use.src) ? [{ ...use, reason: problems.get(use.src)! }] : []));
  const ms = Math.round(performance.now() - started);
  log(`${'pictures'.padEnd(12)} ${String(kept.size).padStart(6)} read     ${String(ms).padStart(7)} ms`);
  for (const { collection, id, field, reason, src } of failed) {
    log(`  ⚠ ${collection}/${id} ${field}: picture left out, ${reason} (${src})`);
  }
  // Sorted keys: the same content gives byte-identical JSON.
  const sorted = Object.fromEntries(Object.entries(manifest).toSorted(([a], [b]) => a.localeCompare(b)));
  return { manifest: sorted, fetched: kept.size, failed };
}
