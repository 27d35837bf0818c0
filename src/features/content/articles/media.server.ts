/**
 * Pictures uploaded from the space's forms: checked (size, kind), turned upright, stripped of their metadata (a phone
 * photo's EXIF holds where it was taken) and bounded to 2,560 pixels with sharp, stored in Netlify Blobs (store
 * `medias`, key = hash of the stored bytes) and served by GET /medias/<key> for the pull to download like any picture
 * address. docs/pictures.md says why Blobs rather than Firebase Storage.
 */
import { createHash } from 'node:crypto';
import { getStore } from '@netlify/blobs';
import sharp from 'sharp';
import { HttpError } from '../../../lib/http';
import { CONTENT_FILE_POLICY } from '../../../lib/security-headers';
import { siteOrigin } from '../../../lib/site-origin';
import { withDeadline } from '../../../lib/deadline';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { ARTICLE_MESSAGES, MAX_PICTURE_BYTES } from './articles';

/** The Blobs store of uploaded pictures. */
const STORE = 'medias';

/** The path pictures are served under (src/pages/medias/[key].ts). */
export const MEDIA_PATH = '/medias/';

/** A stored picture's key: 32 hex digits and its extension. */
const KEY_PATTERN = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

/** Longest side of a stored picture (pixels): 2× the widest the site shows (news page, 720 px), with room. */
const MAX_SIDE = 2560;

const TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
type Extension = keyof typeof TYPES;

/** What the first bytes say the file is. */
function sniff(bytes: Uint8Array): Extension | 'heic' | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (ascii(1, 4) === 'PNG') return 'png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  // ISO base media: an `ftyp` box whose brand is HEIF's (HEVC photos of iPhones and recent Android phones).
  if (ascii(4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(ascii(8, 12))) return 'heic';
  return undefined;
}

/** The Blobs store (NETLIFY_BLOBS_CONTEXT on Netlify, `astro dev` and scripts/serve-dist.ts). @throws HttpError 503. */
function store() {
  try {
    return getStore({ name: STORE, consistency: 'strong' });
  } catch (error) {
    throw new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: error });
  }
}

/**
 * Stores an uploaded picture and returns the address to write into the document, as the original admin wrote Storage
 * download URLs: `<site>/medias/<key>` (the site's configured origin; under `npm start` the dev server's, `origin`).
 * @throws HttpError 413 ARTICLE_MESSAGES.tooLarge past MAX_PICTURE_BYTES, 415 notImage / heic, 400 unreadableImage,
 *   503 when Blobs does not answer within 8 s.
 */
export async function storePicture(file: Blob, origin: string): Promise<string> {
  if (file.size > MAX_PICTURE_BYTES) throw new HttpError(413, ARTICLE_MESSAGES.tooLarge(file.size));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniff(bytes);
  if (kind === 'heic') throw new HttpError(415, ARTICLE_MESSAGES.heic);
  if (!kind) throw new HttpError(415, ARTICLE_MESSAGES.notImage);
  let output: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    output = await (
      kind === 'jpg'
        ? image.jpeg({ quality: 85, mozjpeg: true })
        : kind === 'png'
          ? image.png()
          : image.webp({ quality: 85 })
    ).toBuffer();
  } catch (error) {
    throw new HttpError(400, ARTICLE_MESSAGES.unreadableImage, { cause: error });
  }
  const key = `${createHash('sha256').update(output).digest('hex').slice(0, 32)}.${kind}`;
  try {
    await withDeadline(store().set(key, new Uint8Array(output).buffer, { metadata: { type: TYPES[kind] } }), 8000);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: error });
  }
  const base = import.meta.env.DEV ? origin : siteOrigin();
  return `${base}${MEDIA_PATH}${key}`;
}

/**
 * A picture address as the space shows it: a picture of /medias/ as a path of this site (so that previews work on any
 * origin it is served from), any other address as it is.
 */
export function displayAddress(src: string): string {
  const url = URL.parse(src);
  return url?.pathname.startsWith(MEDIA_PATH) && KEY_PATTERN.test(url.pathname.slice(MEDIA_PATH.length))
    ? url.pathname
    : src;
}

/**
 * Sanitised HTML (sanitizeContentHtml's output: attributes in double quotes) with each <img>'s address as
 * displayAddress gives it: the space's preview shows the pictures of a text before the build pulls them.
 */
export function displayHtmlPictures(html: string): string {
  return html.replace(
    /(<img\b[^>]*?\ssrc=")([^"]*)"/g,
    (_, start: string, src: string) => `${start}${displayAddress(src)}"`,
  );
}

/** GET /medias/<key>: the stored picture, cached for a year (a key names its content); 404 for anything else. */
export async function servePicture(key: string | undefined): Promise<Response> {
  // Every answer is a content file's: no script runs in it, and its type is never guessed.
  const contentFile = { 'content-security-policy': CONTENT_FILE_POLICY, 'x-content-type-options': 'nosniff' };
  const notFound = () =>
    new Response('Cette image n’existe pas.', {
      status: 404,
      headers: { ...contentFile, 'content-type': 'text/plain; charset=utf-8' },
    });
  if (!key || !KEY_PATTERN.test(key)) return notFound();
  const found = await withDeadline(store().getWithMetadata(key, { type: 'arrayBuffer' }), 8000).catch(
    (error: unknown) => {
      console.error('[medias]', error);
      return null;
    },
  );
  if (!found) return notFound();
  const extension = key.split('.')[1] as Extension;
  return new Response(found.data, {
    headers: {
      ...contentFile,
      'content-type': TYPES[extension],
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(found.data.byteLength),
    },
  });
}
