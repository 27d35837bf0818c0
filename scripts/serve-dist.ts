/**
 * Serves the built site as Netlify would: static files of dist/ first (clean
 * URLs), then the adapter's function (.netlify/v1/functions/ssr) for the
 * on-demand endpoints, and dist/404.html with status 404 for the rest.
 * Static answers carry the headers of netlify.toml's matching rules (parsed by
 * Netlify's own @netlify/headers-parser); when several rules give one header,
 * every value is sent, the strictest reading for a Content-Security-Policy
 * (each value is enforced), so the browser tests run under the real policy.
 * For the browser tests and screenshots; loopback only.
 *
 * Usage: `tsx scripts/serve-dist.ts [port] [--emulator host:port]` (default
 * port 4322). With --emulator, an embedded Firestore emulator is started on
 * that address and the endpoints write to it (project demo-e2e), so tests
 * can read back what a visitor sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { parseHostPort } from '../src/lib/firestore.server.ts';
import { headerValuesFor, netlifyHeaderRules } from './lib/csp.ts';
import { startEmbeddedFirestore } from './lib/embedded-firestore.ts';

const args = process.argv.slice(2);
const emulatorFlag = args.indexOf('--emulator');
const emulatorAddress = emulatorFlag >= 0 ? args[emulatorFlag + 1] : undefined;
const port = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--emulator') ?? 4322);

if (emulatorAddress) {
  const emulator = await startEmbeddedFirestore(parseHostPort(emulatorAddress).port);
  process.env.FIREBASE_PROJECT_ID = 'demo-e2e';
  process.env.FIRESTORE_EMULATOR_HOST = emulator.address;
  console.log(`Embedded Firestore on ${emulator.address} (project demo-e2e)`);
}

type NetlifyHandler = (request: Request, context: { ip: string }) => Promise<Response>;
const functionPath = '.netlify/v1/functions/ssr/ssr.mjs';
const handler: NetlifyHandler | undefined = existsSync(functionPath)
  ? (await import(pathToFileURL(functionPath).href)).default
  : undefined;
const notFound = readFileSync('dist/404.html');
const headerRules = await netlifyHeaderRules('netlify.toml');

/** Sets the headers netlify.toml gives the request's path (every value of every matching rule). */
function applyNetlifyHeaders(response: ServerResponse): void {
  const path = new URL(response.req.url ?? '/', 'http://localhost').pathname;
  const matching = headerRules.filter((rule) => rule.forRegExp.test(path));
  for (const name of new Set(matching.flatMap((rule) => Object.keys(rule.values)))) {
    response.setHeader(name, [...new Set(headerValuesFor(matching, path, name))]);
  }
}

// Netlify's custom headers go with static files and the not-found page, never with a function's answers.
const assets = sirv('dist', { extensions: ['html'], dev: false, etag: true, setHeaders: applyNetlifyHeaders });

/** Hands a request that no static file answers to the Netlify function, like Netlify's preferStatic. */
async function toFunction(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!handler) {
    applyNetlifyHeaders(response);
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(notFound);
    return;
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? `127.0.0.1:${port}`}`);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const webRequest = new Request(url, {
    method: request.method,
    headers: Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined
        ? []
        : (Array.isArray(value) ? value : [value]).map((item) => [name, item] as [string, string]),
    ),
    body: hasBody ? (Readable.toWeb(request) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
  const answer = await handler(webRequest, { ip: request.socket.remoteAddress ?? '127.0.0.1' });
  // The function's 404 stands for Netlify's static not-found page, which gets the custom headers.
  if (answer.status === 404) applyNetlifyHeaders(response);
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

// A file deleted under our feet (a rebuild while serving) must not take the server down.
process.on('uncaughtException', (error) => console.error(error));

createServer((request, response) => {
  assets(request, response, () => {
    toFunction(request, response).catch((error) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
}).listen(port, '127.0.0.1', () => console.log(`dist/ on http://127.0.0.1:${port}`));
