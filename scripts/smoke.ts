/**
 * `npm run smoke`: the production smoke test (docs/deploying.md). Netlify's own emulation of production
 * (netlify-cli `serve --offline`, fetched on demand by `npm exec`, not a dependency) builds the site as Netlify does
 * and serves it, on an embedded Firestore seeded with the demo dataset; then each kind of route is asked once: a static
 * page with its security headers and Content-Security-Policy, an on-demand page, a form post (the document read back)
 * and a scheduled function (`functions:invoke`). Exits 1 if a check fails, naming the file of netlify-cli's output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { startEmbeddedFirestore } from './lib/embedded-firestore.ts';
import { freePort } from './lib/ports.ts';
import { seedDataset } from './lib/seed.ts';

/** The netlify-cli the smoke test runs (a major: its emulation follows Netlify's production). */
export const NETLIFY_CLI = 'netlify-cli@27';
/** Deno from npm, for netlify-cli's edge functions bundler (which would download it otherwise, offline here). */
const DENO = 'deno@2';
const PROJECT_ID = 'demo-smoke';
// Room for `npm exec` to fetch netlify-cli, then a full build, on a busy 2-core machine.
const STARTUP_MS = 20 * 60_000;

const [port, firestorePort] = [await freePort(), await freePort()];
const firestore = await startEmbeddedFirestore(firestorePort);
const [documents] = await seedDataset({
  projectId: PROJECT_ID,
  apiKey: '',
  host: firestore.address,
  emulator: { host: firestore.host, port: firestore.port },
});
console.log(`Embedded Firestore on ${firestore.address}: ${documents} demo documents (project ${PROJECT_ID}).`);

// The build's and the functions' variables (netlify-cli hands its own environment to both); plainly fake Stripe keys.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  FIREBASE_PROJECT_ID: PROJECT_ID,
  FIRESTORE_EMULATOR_HOST: firestore.address,
  PUBLIC_STRIPE_PUBLISHABLE_KEY: ['pk', 'test', 'smoke-fake'].join('_'),
  STRIPE_SECRET_KEY: ['sk', 'test', 'smoke-fake'].join('_'),
  STRIPE_WEBHOOK_SECRET: ['whsec', 'smoke-fake'].join('_'),
  SITE_URL: `http://localhost:${port}`,
  BROWSER: 'none',
  NETLIFY_TELEMETRY_DISABLED: '1',
};
for (const name of ['SMTP_URL', 'NETLIFY_BUILD_HOOK_URL', 'STRIPE_API_BASE', 'FIREBASE_AUTH_EMULATOR_HOST']) {
  delete env[name];
}

// netlify-cli's whole output, kept for a failure.
const logFile = join(tmpdir(), `smoke-${process.pid}.log`);
const log = createWriteStream(logFile);
/** `netlify …` through `npm exec` in its own process group (so that stopping it stops its servers too). */
function netlify(args: string[]): ChildProcess {
  const child = spawn(
    'npm',
    ['exec', '--yes', `--package=${NETLIFY_CLI}`, `--package=${DENO}`, '--', 'netlify', ...args],
    {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return child;
}

const base = `http://localhost:${port}`;
const server = netlify(['serve', '--offline', '--port', String(port)]);
let [passed, failures] = [0, 0];

/** Runs one check and prints its outcome; a failure is counted, the next checks still run. */
async function check(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    passed++;
    console.log(`ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}: ${(error as Error).message}`);
  }
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`${what}: ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`);
}

try {
  console.log(`${NETLIFY_CLI} serve --offline on ${base}: builds the site, bundles the functions (minutes)…`);
  await waitForServer();
  const csp = pagePolicy('/');

  await check('a static page: /, with the security headers and its Content-Security-Policy', async () => {
    const response = await fetch(`${base}/`);
    expectEqual(response.status, 200, 'status');
    const html = await response.text();
    expectEqual(html.includes('<html lang="fr"'), true, 'French page');
    expectEqual(response.headers.get('x-content-type-options'), 'nosniff', 'X-Content-Type-Options');
    expectEqual(response.headers.get('cross-origin-opener-policy'), 'same-origin', 'Cross-Origin-Opener-Policy');
    expectEqual(response.headers.get('strict-transport-security')?.startsWith('max-age='), true, 'HSTS');
    expectEqual(response.headers.get('content-security-policy'), csp, 'Content-Security-Policy');
  });

  await check('an on-demand page: /espace/connexion, from the function', async () => {
    const response = await fetch(`${base}/espace/connexion`);
    expectEqual(response.status, 200, 'status');
    expectEqual((await response.text()).includes('Connexion à l’espace de l’association'), true, 'its heading');
    expectEqual(response.headers.get('x-content-type-options'), 'nosniff', 'X-Content-Type-Options');
  });

  await check('a form post: the newsletter without JavaScript, written to Firestore', async () => {
    const home = await (await fetch(`${base}/`)).text();
    const version = /name="consentementVersion" value="([^"]+)"/.exec(home)?.[1] ?? '';
    const email = `smoke-${randomUUID()}@example.test`;
    const response = await fetch(`${base}/api/newsletter`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ email, consentement: 'true', consentementVersion: version }),
    });
    expectEqual(response.status, 303, 'status');
    expectEqual(new URL(response.headers.get('location') ?? '', base).hash, '#newsletter-ok', 'redirect');
    const db = adminFirestoreOf({ FIREBASE_PROJECT_ID: PROJECT_ID, FIRESTORE_EMULATOR_HOST: firestore.address });
    const written = await db.collection('newsletter').where('email', '==', email).get();
    expectEqual(written.size, 1, 'documents in newsletter');
  });

  await check('a scheduled function: retention, invoked against the database', async () => {
    const invoke = netlify(['functions:invoke', 'retention', '--offline', '--port', String(port)]);
    let output = '';
    invoke.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => invoke.on('close', resolve));
    expectEqual(code, 0, 'exit code');
    const line = /\d+ pre-registration\(s\), \d+ unconfirmed sign-up\(s\), \d+ outbox mail\(s\) deleted/;
    if (!line.test(output)) throw new Error(`no retention counts in: ${output.trim()}`);
  });
} catch (error) {
  failures++;
  console.log(`FAIL ${(error as Error).message}`);
} finally {
  stop(server);
  firestore.stop();
}

log.end();
if (failures > 0) console.log(`netlify-cli's output: ${logFile}`);
else rmSync(logFile, { force: true });
console.log(`smoke: ${passed} passed, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);

/** Waits until netlify serve answers (it builds first); throws if it exits or takes over STARTUP_MS. */
async function waitForServer(): Promise<void> {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`netlify serve exited (${server.exitCode})`);
    const up = await fetch(`${base}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error(`netlify serve did not answer within ${STARTUP_MS / 60_000} minutes`);
}

/** The policy the adapter wrote for `path` into .netlify/v1/config.json (the build netlify serve just ran). */
function pagePolicy(path: string): string | undefined {
  const config = JSON.parse(readFileSync('.netlify/v1/config.json', 'utf8')) as {
    headers: { for: string; values: Record<string, string> }[];
  };
  return config.headers.find((rule) => rule.for === path)?.values['Content-Security-Policy'];
}

/** Ends a process group started by netlify(). */
function stop(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
