/**
 * Serves dist/ as Netlify would serve the static pages (clean URLs, 404.html
 * with status 404 for unknown paths), for the browser tests and screenshots.
 * Usage: `tsx scripts/serve-dist.ts [port]` (default 4322), loopback only.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import sirv from 'sirv';

const port = Number(process.argv[2] ?? process.env.PORT ?? 4322);
const notFound = readFileSync('dist/404.html');
const assets = sirv('dist', { extensions: ['html'], dev: false, etag: true });

createServer((request, response) =>
  assets(request, response, () => {
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(notFound);
  }),
).listen(port, '127.0.0.1', () => console.log(`dist/ on http://127.0.0.1:${port}`));
