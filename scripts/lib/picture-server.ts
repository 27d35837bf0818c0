/**
 * A local HTTP server standing in for Firebase Storage (no network here), for the tests and the bench: it serves two
 * pictures generated with sharp on first use (nothing binary in the repository), plus a missing file, a web page and
 * a picture that never answers, and counts requests per path.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';
import { freePort } from './ports.ts';

/** The generated pictures, by the file name the server gives them. */
export const FIXTURE_PICTURES = {
  /** A photo-like JPEG of 2,800 × 1,868 px, about 2 MB (gradients with grain, as a camera gives). */
  'photo-sortie.jpg': photo,
  /** A 1,200 × 600 px PNG logo on a transparent background. */
  'logo-partenaire.png': logo,
} as const;

/** Name of a generated picture. */
export type FixturePictureName = keyof typeof FIXTURE_PICTURES;

const generated = new Map<FixturePictureName, Promise<Buffer>>();

/** The bytes of a generated picture, made once per process (the photo takes about half a second). */
export function fixturePicture(name: FixturePictureName): Promise<Buffer> {
  let bytes = generated.get(name);
  if (!bytes) generated.set(name, (bytes = FIXTURE_PICTURES[name]()));
  return bytes;
}

/** Smooth colour fields with a fixed pseudo-random grain: large as a camera's JPEG, small once resized. */
function photo(): Promise<Buffer> {
  const [width, height] = [2800, 1868];
  const raw = Buffer.alloc(width * height * 3);
  let seed = 42;
  const grain = () => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff - 0.5) * 36;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const noise = grain();
      // Buffer clamps nothing: Uint8 stores modulo 256, so clamp by hand.
      raw[at] = Math.max(0, Math.min(255, 90 + (100 * x) / width + 30 * Math.sin(y / 90) + noise));
      raw[at + 1] = Math.max(0, Math.min(255, 150 + 60 * Math.sin(x / 200) * Math.cos(y / 160) + noise));
      raw[at + 2] = Math.max(0, Math.min(255, 60 + (120 * y) / height + noise));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A coloured disc and bar on a transparent background. */
function logo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600">
    <circle cx="300" cy="300" r="220" fill="#d9480f"/>
    <rect x="580" y="220" width="520" height="160" rx="40" fill="#1864ab"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An editor's « logo » that is an SVG document with a script: what the pull must never publish as such. */
export const SCRIPTED_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120">
  <script>fetch('/espace/preinscriptions/export.csv').then((r) => r.text()).then((t) => alert(t))</script>
  <rect width="240" height="120" rx="20" fill="#1864ab"/>
</svg>`;

/** A running picture server: `url(path)` is its address for a path like `/photo-sortie.jpg`. */
export interface PictureServer {
  url(path: string): string;
  /** Requests received per path (304 answers included). */
  requests: Map<string, number>;
  /** Full answers (200 with the file) per path. */
  downloads: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts the server on a free loopback port. Paths: `/<fixture picture>` (200, ETag, 304 on If-None-Match),
 * `/page.html` (an HTML page), `/lent.jpg` (never answers), `/logo-script.svg` (SCRIPTED_SVG),
 * `/vers-reseau-interne.jpg` (a redirect to a private address), others 404.
 */
export async function startPictureServer(): Promise<PictureServer> {
  const requests = new Map<string, number>();
  const downloads = new Map<string, number>();
  const pictures = new Map<string, Buffer>();
  for (const name of Object.keys(FIXTURE_PICTURES) as FixturePictureName[]) {
    pictures.set(`/${name}`, await fixturePicture(name));
  }
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === '/lent.jpg') return; // never answers: the pull's timeout must end it
    if (path === '/logo-script.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SCRIPTED_SVG);
      return;
    }
    if (path === '/vers-reseau-interne.jpg') {
      response.writeHead(302, { location: 'http://10.20.30.40/photo.jpg' }).end();
      return;
    }
    if (path === '/page.html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Connexion requise</p>');
      return;
    }
    const body = pictures.get(path);
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    downloads.set(path, (downloads.get(path) ?? 0) + 1);
    const type = path.endsWith('.png') ? 'image/png' : 'image/jpeg';
    response.writeHead(200, { 'content-type': type, 'content-length': body.length, etag }).end(body);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    downloads,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
