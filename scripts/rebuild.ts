/**
 * `npm run rebuild [-- --url <site>]`: asks a site to rebuild (issue 5), i.e.
 * POSTs to `<site>/api/rebuild` with `Authorization: Bearer <REBUILD_SECRET>`
 * and prints the site's French answer.
 *
 * - Site: `--url`, else SITE_URL, else the local dev server
 *   http://127.0.0.1:4321 (`npm start`, where the endpoint re-runs the pull).
 * - Secret: REBUILD_SECRET (environment, or `.env` as for the other scripts);
 *   for a local site without it, the secret `npm start` generated for its
 *   session (DEV_SECRET_FILE, `.astro/rebuild-secret`).
 *
 * Exit status 0 when the site answered 202 (rebuild triggered, already
 * requested less than a minute ago, or content re-pulled), 1 otherwise; never
 * waits more than REQUEST_TIMEOUT_MS (35 s).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEV_SECRET_FILE } from '../src/lib/rebuild.server.ts';

/** Where `npm start` serves the site. */
const LOCAL_SITE = 'http://127.0.0.1:4321';

/** Give up after this many milliseconds: the dev pull may take up to 25 s, a build hook call ~18 s at worst. */
const REQUEST_TIMEOUT_MS = 35_000;

const USAGE = `Usage: npm run rebuild [-- --url https://<site>]
Asks the site to rebuild (POST <site>/api/rebuild with REBUILD_SECRET).
The site is --url, else SITE_URL, else ${LOCAL_SITE} (npm start).`;

/** Prints a line and exits with status 1. */
function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** True when the URL names this machine (the dev server of `npm start`). */
function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The secret to send: REBUILD_SECRET, else (local site only) the one `npm start` generated. */
function secretFor(endpoint: URL): string {
  const secret = process.env.REBUILD_SECRET?.trim();
  if (secret) return secret;
  if (isLoopback(endpoint) && existsSync(DEV_SECRET_FILE)) return readFileSync(DEV_SECRET_FILE, 'utf8').trim();
  return fail(
    isLoopback(endpoint)
      ? `REBUILD_SECRET is not set and ${DEV_SECRET_FILE} does not exist. Is \`npm start\` running? (It writes that file when REBUILD_SECRET is unset.)`
      : 'REBUILD_SECRET is not set. Put the site’s secret (Netlify › Site configuration › Environment variables) in .env or in the environment.',
  );
}

let args: { url?: string; help?: boolean };
try {
  args = parseArgs({ options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (existsSync('.env')) process.loadEnvFile('.env');

const site = args.url?.trim() || process.env.SITE_URL?.trim() || LOCAL_SITE;
let endpoint: URL;
try {
  endpoint = new URL('api/rebuild', site.endsWith('/') ? site : `${site}/`);
} catch {
  fail(`"${site}" is not a URL (expected e.g. https://petitspas-ensemble.netlify.app).`);
}
const secret = secretFor(endpoint);

console.log(`POST ${endpoint.href}`);
let response: Response;
try {
  response = await fetch(endpoint, {
    method: 'POST',
    // A JSON body: Astro's origin check (security.checkOrigin) answers 403 to a cross-site POST
    // without Content-Type or with a form's; the endpoint ignores the body.
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
} catch (error) {
  // fetch's own message is "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, bad port…).
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const reason =
    error instanceof Error && error.name === 'TimeoutError'
      ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
      : (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
  fail(
    `Cannot reach ${endpoint.href} (${reason}).${isLoopback(endpoint) ? ' Is `npm start` running?' : ''} Another site: --url https://<site>.`,
  );
}

const text = await response.text();
let message: string;
try {
  message = String((JSON.parse(text) as { message?: unknown }).message ?? text);
} catch {
  message = `unexpected answer (not JSON): ${text.slice(0, 200)}`;
}
if (response.status === 202) {
  console.log(`✔ ${response.status} ${message}`);
  process.exit(0);
}
fail(`${response.status} ${message}`);
