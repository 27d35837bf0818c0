/**
 * POST /api/rebuild against a local fake of Netlify's build hook (records calls; can fail or hang), with the debounce
 * in this process and in @netlify/blobs' local server, the space's « Publier » (requestRebuild), and `npm start`'s
 * re-pull for real.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { pullContent } from '../../scripts/lib/pull';
import { seedDocuments } from '../../scripts/lib/seed';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server';
import {
  handleRebuild,
  requestRebuild,
  type RebuildOptions,
} from '../../src/features/content/publishing/rebuild.server';
import * as route from '../../src/pages/api/rebuild';
import { fixture } from '../fixtures/content';
import { closedPort } from '../../scripts/lib/ports';

const SECRET = 'secret-de-test-pour-la-reconstruction-0123456789';
/** The exact French messages, written out independently of the code. */
const TEXT = {
  triggered: 'La reconstruction du site est lancée : le nouveau contenu sera en ligne d’ici quelques minutes.',
  debounced:
    'Une reconstruction a déjà été demandée il y a moins d’une minute : aucune autre n’a été lancée. Si vos ' +
    'dernières modifications n’apparaissent pas une fois le site publié, refaites la demande dans une minute.',
  devReloaded: 'Le contenu a été relu depuis Firestore : rechargez la page pour voir les modifications.',
  unauthorized: 'Accès refusé : le secret de reconstruction est absent ou incorrect.',
  hookFailed:
    'Netlify n’a pas pu lancer la reconstruction du site pour le moment. Le contenu publié reste inchangé : merci de ' +
    'réessayer dans quelques minutes.',
  devPullFailed:
    'Le nouveau contenu n’a pas pu être chargé : le site affiche toujours l’ancien contenu. Le détail de l’erreur ' +
    'est dans le terminal de npm start.',
  notConfigured: 'La reconstruction du site n’est pas configurée sur ce serveur.',
};

let behaviour: 'ok' | 'hang' | number = 'ok';
const calls: string[] = [];
const hanging: ServerResponse[] = [];
const hook = createServer((request, response) => {
  calls.push(`${request.method} ${request.url}`);
  if (behaviour === 'hang') hanging.push(response);
  else response.writeHead(behaviour === 'ok' ? 200 : behaviour).end();
});
let hookUrl: string;
let options: RebuildOptions;
let logged: string[];
let now = Date.parse('2026-11-23T09:00:00Z');

beforeAll(async () => {
  await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build_hooks/id-secret-du-hook`;
});
beforeEach(() => {
  // Each test an hour later: the debounce of earlier tests is over.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime((now += 3_600_000));
  [behaviour, calls.length, logged] = ['ok', 0, []];
  options = { secret: SECRET, hookUrl };
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
  }
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
afterAll(() => {
  hanging.forEach((response) => response.destroy());
  hook.close();
});

/** Calls the endpoint with a Bearer header (null: none) and returns status, body and headers. */
async function bearer(authorization: string | null = `Bearer ${SECRET}`, with_ = options) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(authorization && { authorization }),
  };
  const response = await handleRebuild(
    new Request('https://site.test/api/rebuild', { method: 'POST', headers }),
    with_,
  );
  expect(response.headers.get('cache-control')).toBe('no-store');
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The space's « Publier » (the session's role is checked by its caller): the outcome its page names. */
const publishFromSpace = ({ secret: _secret, ...with_ } = options) => requestRebuild(with_);

describe('POST /api/rebuild with Authorization: Bearer (scripts)', () => {
  it(
    '202 after one POST to the hook; ' + 'within 60 s 202 “déjà demandée” and no call; at 60 s a second build',
    async () => {
      expect(await bearer()).toMatchObject({ status: 202, body: { ok: true, message: TEXT.triggered } });
      expect(calls).toEqual(['POST /build_hooks/id-secret-du-hook?trigger_title=Mise+%C3%A0+jour+du+contenu']);
      vi.setSystemTime(now + 59_999);
      expect(await bearer()).toMatchObject({ status: 202, body: { ok: true, message: TEXT.debounced } });
      expect(calls).toHaveLength(1);
      vi.setSystemTime(now + 60_000);
      expect((await bearer()).body.message).toBe(TEXT.triggered);
      expect(calls).toHaveLength(2);
    },
  );

  it.each([null, '', 'Bearer ', 'Bearer faux', `Bearer ${SECRET.slice(0, -1)}X`, `Bearer ${SECRET}0`, SECRET])(
    '401 to %j, nothing called, and the window stays open',
    async (authorization) => {
      const { status, body, headers } = await bearer(authorization);
      expect([status, body, headers.get('www-authenticate')]).toEqual([
        401,
        { ok: false, message: TEXT.unauthorized },
        'Bearer',
      ]);
      expect(calls).toHaveLength(0);
      expect((await bearer(`bearer  ${SECRET} `)).body.message).toBe(TEXT.triggered);
    },
  );

  it('simultaneous calls → one hook call', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => bearer()));
    expect(answers.map(({ body }) => body.message).sort()).toEqual(
      [...Array(4).fill(TEXT.debounced), TEXT.triggered].sort(),
    );
    expect(calls).toHaveLength(1);
  });

  it.each([500, 404, 302])('hook answering %i → 502; the failure does not hold the window', async (status) => {
    behaviour = status;
    expect(await bearer()).toMatchObject({ status: 502, body: { ok: false, message: TEXT.hookFailed } });
    behaviour = 'ok';
    expect((await bearer()).body.message).toBe(TEXT.triggered);
    expect(calls).toHaveLength(2);
  });

  it('unreachable hook → 502', async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}/build_hooks/x`;
    expect((await bearer(undefined, { ...options, hookUrl: unreachable })).status).toBe(502);
  });

  it('a hook that never answers → 502 after AbortSignal.timeout(8000)', async () => {
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const spy = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout(300)); // 8 s made 0.3 s
    behaviour = 'hang';
    expect(await bearer()).toMatchObject({ status: 502, body: { message: TEXT.hookFailed } });
    expect(spy).toHaveBeenCalledWith(8000);
  });

  it.each([
    ['no REBUILD_SECRET', { secret: ' ' }, `Bearer ${SECRET}`, 503],
    ['no hook URL, authorised', { hookUrl: undefined }, `Bearer ${SECRET}`, 503],
    ['a hook URL that is not http(s), authorised', { hookUrl: 'ftp://x/y' }, `Bearer ${SECRET}`, 503],
    ['no hook URL, wrong secret', { hookUrl: undefined }, 'Bearer faux', 401],
  ])('%s → %i', async (_label, change, authorization, status) => {
    expect((await bearer(authorization, { ...options, ...change })).status).toBe(status);
    if (status === 503)
      expect((await bearer(authorization, { ...options, ...change })).body.message).toBe(TEXT.notConfigured);
  });

  it(
    'the route reads REBUILD_SECRET from astro:env (401, not 503); ' + 'other methods get 405 with Allow: POST',
    async () => {
      const request = (method: string) =>
        new Request('https://site.test/api/rebuild', { method, headers: { authorization: 'Bearer faux' } });
      expect((await route.POST({ request: request('POST') })).status).toBe(401);
      const refused = await route.ALL({ request: request('GET') });
      expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'POST']);
      expect(await refused.json()).toEqual({
        ok: false,
        message: 'Utilisez la méthode POST pour demander une reconstruction du site.',
      });
    },
  );

  it('never logs the secret nor the hook URL', async () => {
    await bearer(`Bearer ${SECRET}x`);
    behaviour = 500;
    await bearer();
    expect(logged.join('\n')).toMatch(/refused[^]*HTTP 500/);
    expect(logged.join('\n')).not.toMatch(/secret-de-test|id-secret-du-hook/);
  });
});

describe('the space’s « Publier » (no shared password: the session’s role)', () => {
  it('lancee, then attente within the minute, erreur when the hook fails or is not configured', async () => {
    expect(await publishFromSpace()).toBe('lancee');
    expect(await publishFromSpace()).toBe('attente');
    expect(calls).toHaveLength(1);
    vi.setSystemTime(now + 60_000);
    behaviour = 500;
    expect(await publishFromSpace()).toBe('erreur');
    expect(await publishFromSpace({ ...options, hookUrl: undefined })).toBe('erreur');
  });

  it('a form post to /api/rebuild (the old /publier password) is refused without the Bearer secret', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = `motdepasse=${SECRET}`;
    const response = await handleRebuild(
      new Request('https://site.test/api/rebuild', { method: 'POST', headers, body }),
      options,
    );
    expect(response.status).toBe(401);
    expect(calls).toHaveLength(0);
  });
});

describe('the debounce in Netlify Blobs (several function instances)', () => {
  const context = { siteID: 'site', token: 'jeton' };
  let directory: string;
  let blobs: BlobsServer;
  let store: ReturnType<typeof getStore>;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'rebuild-blobs-'));
    blobs = new BlobsServer({ directory, token: context.token });
    const edgeURL = `http://127.0.0.1:${(await blobs.start()).port}`;
    Object.assign(context, { edgeURL, uncachedEdgeURL: edgeURL });
    store = getStore({ name: 'rebuild', ...context, edgeURL });
  });
  beforeEach(() => vi.stubEnv('NETLIFY_BLOBS_CONTEXT', Buffer.from(JSON.stringify(context)).toString('base64')));
  afterAll(async () => {
    await blobs?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps the time of the last build hook call; another instance’s recent call debounces this one', async () => {
    expect((await bearer()).body.message).toBe(TEXT.triggered);
    expect(await store.get('last-trigger')).toBe(String(Date.now()));
    vi.setSystemTime(now + 3_600_000);
    await store.set('last-trigger', String(Date.now() - 1000)); // a call on another instance a second ago
    expect((await bearer()).body.message).toBe(TEXT.debounced);
    expect(calls).toHaveLength(1);
  });

  it('a failed call puts the previous time back', async () => {
    await store.set('last-trigger', '42');
    behaviour = 500;
    expect((await bearer()).status).toBe(502);
    expect(await store.get('last-trigger')).toBe('42');
  });
});

describe('under npm start: the pull runs again instead of the hook', () => {
  it('202 “relu” (space: lancee), pull called, hook never; a failed pull → 502 (space: erreur)', async () => {
    const pull = vi.fn(async () => {});
    expect(await bearer(undefined, { ...options, pull })).toMatchObject({
      status: 202,
      body: { message: TEXT.devReloaded },
    });
    expect(await publishFromSpace({ ...options, pull })).toBe('lancee');
    expect((await bearer('Bearer faux', { ...options, pull })).status).toBe(401);
    expect([pull.mock.calls.length, calls.length]).toEqual([2, 0]);
    const failing = { ...options, pull: () => Promise.reject(new Error('Firestore unreachable')) };
    expect(await bearer(undefined, failing)).toMatchObject({
      status: 502,
      body: { ok: false, message: TEXT.devPullFailed },
    });
    expect(await publishFromSpace(failing)).toBe('erreur');
    expect(logged.join('\n')).toContain('Firestore unreachable');
  });

  describe('with the real pull and the embedded emulator', () => {
    let emulator: EmbeddedFirestore;
    let root: string;
    beforeAll(async () => {
      emulator = await startEmbeddedFirestore();
      root = await mkdtemp(join(tmpdir(), 'rebuild-pull-'));
      await mkdir(join(root, 'src/data'), { recursive: true });
      await writeFile(join(root, 'src/data/articles.json'), '{}');
    });
    afterAll(async () => {
      emulator?.stop();
      await rm(root, { recursive: true, force: true });
    });

    it('rewrites src/data/*.json with a document changed in Firestore', async () => {
      const target = firestoreTargetFromEnv({
        FIREBASE_PROJECT_ID: 'demo-rebuild',
        FIRESTORE_EMULATOR_HOST: emulator.address,
      });
      const write = async (data: Parameters<typeof seedDocuments>[1]) => {
        const connection = connectFirestore(target);
        await seedDocuments(connection.db, data).finally(() => connection.close());
      };
      const pull = () =>
        pullContent({ connect: () => connectFirestore(target), host: target.host, root, log: () => {} });
      await write(fixture);
      await write({ articles: { 'news-1': { ...fixture.articles['news-1'], titre: 'Nouvelle corrigée' } } });
      expect((await bearer(undefined, { ...options, pull })).body.message).toBe(TEXT.devReloaded);
      const articles = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
      expect(articles['news-1'].titre).toBe('Nouvelle corrigée');
    }, 60_000);
  });
});
