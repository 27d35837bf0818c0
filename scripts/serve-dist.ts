/**
 * Serves dist/ on loopback as Netlify would: static files with the build's headers, then the adapter's ssr function,
 * compressed as Netlify's CDN sends them (brotli or gzip by Accept-Encoding, with Vary: Accept-Encoding).
 * Usage: `tsx scripts/serve-dist.ts [port] [--emulator host:port]` (default 4322; --emulator: embedded Firestore,
 * demo-e2e).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BlobsServer } from '@netlify/blobs/server';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import compression from 'compression';
import sirv from 'sirv';
import { parseHostPort } from '../src/lib/firestore.server.ts';
import { startEmbeddedFirestore } from './lib/embedded-firestore.ts';

const { values, positionals } = parseArgs({ options: { emulator: { type: 'string' } }, allowPositionals: true });
const port = Number(positionals[0] ?? 4322);

if (values.emulator) {
  const emulator = await startEmbeddedFirestore(parseHostPort(values.emulator).port);
  process.env.FIREBASE_PROJECT_ID = 'demo-e2e';
  process.env.FIRESTORE_EMULATOR_HOST = emulator.address;
  console.log(`Embedded Firestore on ${emulator.address} (project demo-e2e)`);
}

// Netlify gives its functions a Blobs store (pictures uploaded from the space, the rebuild's debounce): a local one,
// as `astro dev` has, in a directory of this run, emptied when the server stops.
const blobsDir = mkdtempSync(join(tmpdir(), 'serve-dist-blobs-'));
const blobsToken = randomBytes(16).toString('hex');
const blobs = new BlobsServer({ directory: blobsDir, token: blobsToken });
const blobsURL = `http://127.0.0.1:${(await blobs.start()).port}`;
const blobsContext = { siteID: 'serve-dist', token: blobsToken, edgeURL: blobsURL, uncachedEdgeURL: blobsURL };
process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(JSON.stringify(blobsContext)).toString('base64');
process.on('exit', () => rmSync(blobsDir, { recursive: true, force: true }));

type NetlifyHandler = (request: Request, context: { ip: string }) => Promise<Response>;
const functionDir = '.netlify/v1/functions/ssr';
const keptFunctionDir = '.netlify/serve-dist/ssr';
const runsDir = '.netlify/serve-dist/runs';
const handler: NetlifyHandler | undefined =
  existsSync(`${functionDir}/ssr.mjs`) || existsSync(`${keptFunctionDir}/ssr.mjs`)
    ? (await import(pathToFileURL(`${snapshotFunction()}/ssr.mjs`).href)).default
    : undefined;

// The function loads its pages lazily: each server runs its own copy (runs/run-<pid>) of the last build's (kept where
// `astro dev` does not look), so a later build or dev server cannot pull files from under it.
function snapshotFunction(): string {
  if (existsSync(`${functionDir}/ssr.mjs`)) {
    rmSync(keptFunctionDir, { recursive: true, force: true });
    cpSync(functionDir, keptFunctionDir, { recursive: true });
  }
  mkdirSync(runsDir, { recursive: true });
  // Copies left by servers killed without a chance to clean up (named by their process id) go first.
  for (const name of readdirSync(runsDir)) {
    try {
      process.kill(Number(/^run-(\d+)$/.exec(name)?.[1]), 0);
    } catch (error) {
      const gone = (error as NodeJS.ErrnoException).code === 'ESRCH';
      if (gone) rmSync(join(runsDir, name), { recursive: true, force: true });
    }
  }
  // Inside the project, not in /tmp: packages the function's own node_modules lacks (or links to a
  // tree it cannot reach, as in the bench's copies) resolve from the project's node_modules.
  const copy = join(runsDir, `run-${process.pid}`);
  cpSync(keptFunctionDir, copy, { recursive: true });
  process.on('exit', () => rmSync(copy, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
  return copy;
}

// The header rules Netlify would apply: the adapter's, then netlify.toml's.
const frameworkConfig = '.netlify/v1/config.json';
const { headers: headerRules, errors } = await parseAllHeaders({
  headersFiles: [],
  netlifyConfigPath: 'netlify.toml',
  configHeaders: existsSync(frameworkConfig) ? JSON.parse(readFileSync(frameworkConfig, 'utf8')).headers : [],
  minimal: false,
});
if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('\n'));

/** Sets every value of every header the rules matching the request's path give. */
function applyNetlifyHeaders(response: ServerResponse): void {
  const path = new URL(response.req.url ?? '/', 'http://localhost').pathname;
  const rules = (headerRules as Header[]).filter((rule) => rule.forRegExp.test(path));
  const byName = Map.groupBy(
    rules.flatMap((rule) => Object.entries(rule.values)),
    ([name]) => name.toLowerCase(),
  );
  for (const [name, entries] of byName) response.setHeader(name, [...new Set(entries.map(([, value]) => value))]);
}

// Netlify's custom headers go with static files and the not-found page, never with a function's answers.
const assets = sirv('dist', { extensions: ['html'], dev: false, etag: true, setHeaders: applyNetlifyHeaders });

// A file deleted under our feet (a rebuild while serving) must not take the server down.
process.on('uncaughtException', (error) => console.error(error));

// Netlify's CDN compresses text answers (static files and functions' alike) for clients that accept it, preferring
// brotli: so do we, with the `compression` middleware (brotli, then gzip; text types only; Vary: Accept-Encoding).
// (Its types name Express's request and response; it only needs Node's.)
const compress = compression() as unknown as (
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
) => void;

// What no static file answers goes to the Netlify function (like Netlify's preferStatic), without the rules' headers.
createServer((request, response) => {
  compress(request, response, () => serve(request, response));
}).listen(port, '127.0.0.1', () => console.log(`dist/ on http://127.0.0.1:${port}`));

/** A static file of dist/ if one answers the path, else the function's answer. */
function serve(request: IncomingMessage, response: ServerResponse): void {
  assets(request, response, async () => {
    if (!handler) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found (no function built: run `npm run build`).');
      return;
    }
    try {
      const answer = await handler(createRequestFromNodeRequest(request, { port }), {
        ip: request.socket.remoteAddress ?? '127.0.0.1',
      });
      await writeResponse(answer, response);
    } catch (error) {
      console.error(error);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }
  });
}
