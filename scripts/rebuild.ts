/**
 * `npm run rebuild [-- --url <site>]`: POST <site>/api/rebuild with `Authorization: Bearer <REBUILD_SECRET>` and print
 * the French answer; exit 0 on 202. Site: --url, else SITE_URL, else `npm start`'s server. Secret: REBUILD_SECRET
 * (environment or .env), else for a local site the one `npm start` generated (DEV_SECRET_FILE).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exitWithError as fail } from './lib/content-source.ts';
import { DEV_SECRET_FILE } from './lib/dev-pull.ts';
import { loadScriptEnvironment } from './lib/dev-session.ts';

const LOCAL_SITE = 'http://127.0.0.1:4321';

const { values: args } = parseArgs({ options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (args.help) {
  console.log(`Usage: npm run rebuild [-- --url https://<site>]   (default: SITE_URL, else ${LOCAL_SITE})`);
  process.exit(0);
}
loadScriptEnvironment();

const site = args.url?.trim() || process.env.SITE_URL?.trim() || LOCAL_SITE;
const endpoint = URL.parse('api/rebuild', site.endsWith('/') ? site : `${site}/`);
if (!endpoint) fail(`"${site}" is not a URL (expected e.g. https://<site>.netlify.app).`);
const local = ['127.0.0.1', 'localhost', '[::1]'].includes(endpoint.hostname);
let secret = process.env.REBUILD_SECRET?.trim();
if (!secret && local && existsSync(DEV_SECRET_FILE)) secret = readFileSync(DEV_SECRET_FILE, 'utf8').trim();
if (!secret) {
  fail(
    local
      ? `REBUILD_SECRET is not set and ${DEV_SECRET_FILE} does not exist. Is \`npm start\` running?`
      : 'REBUILD_SECRET is not set. Put the site’s secret (Netlify › Environment variables) in .env.',
  );
}

console.log(`POST ${endpoint.href}`);
// JSON: Astro's origin check refuses a cross-site POST without Content-Type or with a form's.
const response = await fetch(endpoint, {
  method: 'POST',
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  body: '{}',
  // A pull under `npm start` gives up after 20 s a collection, a build hook call after 8 s.
  signal: AbortSignal.timeout(35_000),
}).catch((error: Error) => {
  const reason =
    error.name === 'TimeoutError' ? 'no answer in time' : ((error.cause as Error)?.message ?? error.message);
  return fail(`Cannot reach ${endpoint.href} (${reason}).${local ? ' Is `npm start` running?' : ''}`);
});
const text = await response.text();
const message = await Promise.try(() => String(JSON.parse(text).message)).catch(
  () => `unexpected answer: ${text.slice(0, 200)}`,
);
if (response.status !== 202) fail(`${response.status} ${message}`);
console.log(`✔ ${response.status} ${message}`);
