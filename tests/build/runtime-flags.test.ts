/**
 * The built functions run as Netlify's runtime runs them (after `npm run build`): plain Node 24 with
 * `--no-experimental-require-module --no-experimental-detect-module` (AWS Lambda's flags, which `netlify serve` applies
 * too), from a copy away from the project so that nothing resolves from its node_modules. Under these flags a CommonJS
 * package that `require()`s an ES module fails at load, and every on-demand route then answers 500. The scheduled
 * functions are bundled as Netlify bundles them (zip-it-and-ship-it) and run once against an embedded Firestore.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';

const root = join(import.meta.dirname, '../..');
/** The `node` dependency's binary: the Node the project pins (netlify.toml's NODE_VERSION must name its major). */
const NODE = join(root, 'node_modules/node/bin/node');
const RUNTIME_FLAGS = ['--no-experimental-require-module', '--no-experimental-detect-module'];
const PROBE = join(root, 'tests/fixtures/lambda-probe.mjs');
const SCHEDULED = ['outbox-drain', 'retention', 'yearly-receipts'];

type Call = { method?: string; path: string; headers?: Record<string, string>; body?: string };
type Answer = { status: number; headers: Record<string, string>; body: string };

const temporary: string[] = [];
let firestore: EmbeddedFirestore;

beforeAll(async () => {
  firestore = await startEmbeddedFirestore();
});
afterAll(async () => {
  firestore?.stop();
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratch(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Sends `calls` to the function module `entry` in a child Node under the runtime's flags; rejects with its output. */
function callUnderRuntimeFlags(entry: string, calls: Call[]): Promise<Answer[]> {
  const env = {
    PATH: process.env.PATH,
    FIREBASE_PROJECT_ID: 'demo-runtime',
    FIRESTORE_EMULATOR_HOST: firestore.address,
    STRIPE_SECRET_KEY: 'sk_test_runtime-fake',
    STRIPE_WEBHOOK_SECRET: 'whsec_runtime-fake',
  };
  return new Promise((resolve, reject) => {
    const child = execFile(
      NODE,
      [...RUNTIME_FLAGS, PROBE, entry],
      { env, cwd: tmpdir(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((text) => text.startsWith('@@answers '));
        if (error || !line) reject(new Error(`${error?.message ?? 'no answer'}\n${stdout}\n${stderr}`));
        else resolve(JSON.parse(line.slice('@@answers '.length)) as Answer[]);
      },
    );
    child.stdin?.end(JSON.stringify(calls));
  });
}

describe('the runtime the repository pins', () => {
  it('is the Node major of the `node` dependency, which netlify.toml gives Netlify’s build and functions', async () => {
    const toml = await readFile(join(root, 'netlify.toml'), 'utf8');
    const pinned = /^\s*NODE_VERSION\s*=\s*"(\d+)"/m.exec(toml)?.[1];
    const { version } = JSON.parse(await readFile(join(root, 'node_modules/node/package.json'), 'utf8')) as {
      version: string;
    };
    expect(pinned).toBe('24');
    expect(version.split('.')[0]).toBe(pinned);
  });
});

describe('the site’s function under the runtime’s flags', () => {
  it('answers an on-demand page, a form’s refusal, the webhook’s refusal and the not-found page', async () => {
    const copy = await scratch('ssr-runtime-');
    await cp(join(root, '.netlify/v1/functions/ssr'), copy, { recursive: true });
    const origin = { origin: 'https://site.test' };
    const [page, form, webhook, missing] = await callUnderRuntimeFlags(join(copy, 'ssr.mjs'), [
      { path: '/espace/connexion' },
      {
        method: 'POST',
        path: '/api/newsletter',
        headers: { ...origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'pas-un-email', consentement: true }),
      },
      { method: 'POST', path: '/api/stripe-webhook', headers: { 'content-type': 'application/json' }, body: '{}' },
      { path: '/cette-page-n-existe-pas' },
    ]);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Connexion à l’espace de l’association</h1>');
    expect(form.status).toBe(400);
    expect(JSON.parse(form.body)).toMatchObject({
      ok: false,
      fields: { email: "L'email ne semble pas correct, pouvez-vous le vérifier ?" },
    });
    expect(webhook.status).toBe(400);
    expect(JSON.parse(webhook.body)).toEqual({ ok: false, message: 'Signature Stripe absente ou invalide.' });
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('Oups, mais il n');
  });
});

describe('the scheduled functions, bundled as Netlify bundles them, under the runtime’s flags', () => {
  let bundles: string;

  // zip-it-and-ship-it traces every dependency of the three functions: slow on a loaded 2-core machine.
  beforeAll(async () => {
    bundles = await scratch('scheduled-runtime-');
    await zipFunctions([join(root, 'netlify/functions')], bundles, {
      archiveFormat: 'none',
      basePath: root,
      repositoryRoot: root,
    });
  }, 600_000);

  it.each(SCHEDULED)('%s loads and runs once against the database', async (name) => {
    const [answer] = await callUnderRuntimeFlags(join(bundles, name, 'netlify/functions', `${name}.mjs`), [
      { method: 'POST', path: `/.netlify/functions/${name}`, body: '{"next_run":""}' },
    ]);
    expect(answer.status, answer.body).toBe(200);
  });
});
