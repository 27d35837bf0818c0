/**
 * POST /api/rebuild (issue 5) end to end: the route's handlers called with a
 * `Request`, a local fake of Netlify's build hook (node:http on 127.0.0.1,
 * port 0) that records every call and can fail, hang or answer slowly, the
 * debounce state in memory and in a local Netlify Blobs server
 * (@netlify/blobs/server), and the `npm start` re-pull through the dev
 * process's loopback server, with the real pull against the embedded
 * Firestore emulator.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { pullContent } from '../../scripts/lib/pull';
import { seedDocuments } from '../../scripts/lib/seed';
import { connectFirestore, firestoreTargetFromEnv, type FirestoreTarget } from '../../src/lib/firestore.server';
import {
  blobsTriggerStore,
  createMemoryTriggerStore,
  defaultTriggerStore,
  handleRebuild,
  pullAndAwaitDevReload,
  REBUILD_HOOK_TIMEOUT_MS,
  rebuildOptionsFromEnv,
  startDevPullServer,
  TRIGGER_BLOB,
  type DevPullServer,
  type RebuildOptions,
  type TriggerStore,
} from '../../src/lib/rebuild.server';
import * as route from '../../src/pages/api/rebuild';
import { fixture } from '../fixtures/content';

// Plainly fake values.
const SECRET = 'secret-de-test-pour-la-reconstruction-0123456789';
const ORIGIN = 'https://petitspas.exemple.org';

/** The exact messages of the issue-5 endpoint, written out independently of src/lib/rebuild.server.ts. */
const TEXT = {
  triggered: 'La reconstruction du site est lancée : le nouveau contenu sera en ligne d’ici quelques minutes.',
  debounced:
    'Une reconstruction a déjà été demandée il y a moins d’une minute : aucune autre n’a été lancée. Si vos dernières modifications n’apparaissent pas une fois le site publié, refaites la demande dans une minute.',
  devReloaded: 'Le contenu a été relu depuis Firestore : rechargez la page pour voir les modifications.',
  unauthorized: 'Accès refusé : le secret de reconstruction est absent ou incorrect.',
  methodNotAllowed: 'Utilisez la méthode POST pour demander une reconstruction du site.',
  hookFailed:
    'Netlify n’a pas pu lancer la reconstruction du site pour le moment. Le contenu publié reste inchangé : merci de réessayer dans quelques minutes.',
  devPullFailed:
    'Le nouveau contenu n’a pas pu être chargé : le site affiche toujours l’ancien contenu. Le détail de l’erreur est dans le terminal de npm start.',
  notConfigured: 'La reconstruction du site n’est pas configurée sur ce serveur.',
  unavailable:
    'Le service de reconstruction est momentanément indisponible : rien n’a été lancé. Merci de réessayer dans quelques minutes.',
};

const ENV_KEYS = ['REBUILD_SECRET', 'NETLIFY_BUILD_HOOK_URL', 'REBUILD_DEV_PULL_URL', 'NETLIFY_BLOBS_CONTEXT'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

/** How the fake build hook answers. */
type HookBehaviour =
  { kind: 'ok' } | { kind: 'error'; status: number } | { kind: 'hang' } | { kind: 'slow'; ms: number; status: number };

/** One call the fake build hook received. */
interface HookCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
}

/** A fake Netlify build hook on 127.0.0.1 (Netlify answers 200 with an empty body). */
interface FakeHook {
  url: string;
  calls: HookCall[];
  behave(behaviour: HookBehaviour): void;
  reset(): void;
  stop(): Promise<void>;
}

async function startFakeHook(): Promise<FakeHook> {
  let behaviour: HookBehaviour = { kind: 'ok' };
  const calls: HookCall[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://hook');
    calls.push({
      method: request.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const current = behaviour;
    if (current.kind === 'hang') {
      hanging.push(response);
      return;
    }
    if (current.kind === 'slow') await new Promise((done) => setTimeout(done, current.ms));
    response.writeHead(current.kind === 'ok' ? 200 : current.status).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/build_hooks/fake-hook-id`,
    calls,
    behave: (next) => {
      behaviour = next;
    },
    reset: () => {
      behaviour = { kind: 'ok' };
      calls.length = 0;
    },
    stop: () =>
      new Promise<void>((done) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A loopback URL with nothing listening on it. */
async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}/build_hooks/nothing-here`;
}

let hook: FakeHook;

/** Hook-mode options with a fresh in-memory store (or the given one). */
function hookOptions(overrides: Partial<Extract<RebuildOptions['target'], { kind: 'build-hook' }>> = {}) {
  const memory = createMemoryTriggerStore();
  const store = overrides.store ?? (() => memory);
  return {
    secret: SECRET,
    target: { kind: 'build-hook' as const, hookUrl: hook.url, ...overrides, store },
  } satisfies RebuildOptions;
}

/** A request to /api/rebuild; `authorization` null = no header. */
function rebuildRequest(authorization: string | null, method = 'POST'): Request {
  return new Request(`${ORIGIN}/api/rebuild`, {
    method,
    headers: authorization === null ? {} : { authorization },
  });
}

/** Calls handleRebuild and parses the answer. */
async function rebuild(options: RebuildOptions, authorization: string | null = `Bearer ${SECRET}`) {
  const response = await handleRebuild(rebuildRequest(authorization), options);
  return { response, body: (await response.json()) as { ok: boolean; message: string } };
}

function expectJsonNoStore(response: Response): void {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
}

/** Checks a JSON answer: status, `{ok, message}` (ok = 2xx) and `Cache-Control: no-store`. */
async function expectAnswer(response: Response, status: number, message: string): Promise<void> {
  expect(response.status).toBe(status);
  expectJsonNoStore(response);
  expect(await response.json()).toEqual({ ok: status < 300, message });
}

beforeAll(async () => {
  hook = await startFakeHook();
});

beforeEach(() => {
  hook.reset();
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

afterAll(async () => {
  await hook?.stop();
});

describe('POST /api/rebuild: triggering the build hook', () => {
  it('answers 202 after exactly one empty POST to the hook, titled “Mise à jour du contenu”', async () => {
    const { response, body } = await rebuild(hookOptions());
    expect(response.status).toBe(202);
    expectJsonNoStore(response);
    expect(body).toEqual({ ok: true, message: TEXT.triggered });
    expect(hook.calls).toEqual([
      {
        method: 'POST',
        path: '/build_hooks/fake-hook-id',
        query: { trigger_title: 'Mise à jour du contenu' },
        body: '',
      },
    ]);
  });

  it('reads REBUILD_SECRET and NETLIFY_BUILD_HOOK_URL from the environment at each request (the route)', async () => {
    process.env.REBUILD_SECRET = SECRET;
    process.env.NETLIFY_BUILD_HOOK_URL = hook.url;
    delete process.env.REBUILD_DEV_PULL_URL;
    delete process.env.NETLIFY_BLOBS_CONTEXT;
    await expectAnswer(await route.POST({ request: rebuildRequest(`Bearer ${SECRET}`) }), 202, TEXT.triggered);
    expect(hook.calls).toHaveLength(1);
  });

  it.each([
    ['no Authorization header', null],
    ['an empty header', ''],
    ['the wrong secret', 'Bearer pas-le-bon-secret'],
    ['an almost-right secret of the same length', `Bearer ${SECRET.slice(0, -1)}X`],
    ['the secret with one more character', `Bearer ${SECRET}0`],
    ['the secret without its last character', `Bearer ${SECRET.slice(0, -1)}`],
    ['the secret without the Bearer scheme', SECRET],
    ['the secret as Basic credentials', `Basic ${SECRET}`],
    ['Bearer alone', 'Bearer '],
  ])('answers 401 to %s and calls nothing', async (_label, authorization) => {
    const options = hookOptions();
    const { response, body } = await rebuild(options, authorization);
    expect(response.status).toBe(401);
    expectJsonNoStore(response);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(body).toEqual({ ok: false, message: TEXT.unauthorized });
    expect(hook.calls).toHaveLength(0);
    // Nothing was recorded either: the right secret then triggers at once.
    expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
    expect(hook.calls).toHaveLength(1);
  });

  it('accepts the scheme in any case and surrounding spaces (“bearer  <secret> ”)', async () => {
    const { response } = await rebuild(hookOptions(), `bearer  ${SECRET} `);
    expect(response.status).toBe(202);
    expect(hook.calls).toHaveLength(1);
  });

  it('never logs the secret nor the hook URL', async () => {
    const logged: unknown[] = [];
    for (const level of ['info', 'warn', 'error', 'log'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(...args));
    }
    await rebuild(hookOptions(), `Bearer ${SECRET.slice(0, -1)}X`);
    await rebuild(hookOptions());
    hook.behave({ kind: 'error', status: 500 });
    await rebuild(hookOptions());
    expect(logged.length).toBeGreaterThan(0);
    const text = logged.map(String).join('\n');
    expect(text).not.toContain(SECRET.slice(0, 20));
    expect(text).not.toContain('fake-hook-id');
  });
});

describe('POST /api/rebuild: configuration and methods', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])('%s → 405 with Allow: POST', async (method) => {
    const response = await route.ALL({ request: rebuildRequest(`Bearer ${SECRET}`, method) });
    expect(response.headers.get('allow')).toBe('POST');
    await expectAnswer(response, 405, TEXT.methodNotAllowed);
    expect(hook.calls).toHaveLength(0);
  });

  it.each([
    ['unset', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('REBUILD_SECRET %s → 503 “not configured” for any request, nothing triggered', async (_label, value) => {
    const env = { NETLIFY_BUILD_HOOK_URL: hook.url, REBUILD_SECRET: value };
    for (const authorization of [null, 'Bearer ', `Bearer ${SECRET}`, 'Bearer undefined']) {
      const response = await handleRebuild(rebuildRequest(authorization), rebuildOptionsFromEnv(env, false));
      await expectAnswer(response, 503, TEXT.notConfigured);
    }
    expect(hook.calls).toHaveLength(0);
  });

  it.each([
    ['unset', undefined],
    ['not a URL', 'api.netlify.com/build_hooks/x'],
    ['not http(s)', 'ftp://api.netlify.com/build_hooks/x'],
  ])('NETLIFY_BUILD_HOOK_URL %s → 503 “not configured” once authorised (401 before)', async (_label, hookUrl) => {
    const env = { REBUILD_SECRET: SECRET, NETLIFY_BUILD_HOOK_URL: hookUrl };
    const refused = await handleRebuild(rebuildRequest('Bearer faux'), rebuildOptionsFromEnv(env, false));
    await expectAnswer(refused, 401, TEXT.unauthorized);
    const response = await handleRebuild(rebuildRequest(`Bearer ${SECRET}`), rebuildOptionsFromEnv(env, false));
    await expectAnswer(response, 503, TEXT.notConfigured);
  });

  it('outside the dev server REBUILD_DEV_PULL_URL is ignored: the build hook is called', async () => {
    const pull = vi.fn(async () => {});
    const server = await startDevPullServer(pull);
    try {
      const env = { REBUILD_SECRET: SECRET, NETLIFY_BUILD_HOOK_URL: hook.url, REBUILD_DEV_PULL_URL: server.url };
      const options = rebuildOptionsFromEnv(env, false);
      expect(options.target?.kind).toBe('build-hook');
      expect(rebuildOptionsFromEnv(env, true).target?.kind).toBe('dev-pull');
    } finally {
      await server.close();
    }
    expect(pull).not.toHaveBeenCalled();
  });
});

describe('POST /api/rebuild: a failing build hook → 502', () => {
  it.each([500, 404, 302])(
    'hook answering %i → 502, and the failure does not debounce the next call',
    async (status) => {
      const options = hookOptions();
      hook.behave({ kind: 'error', status });
      const { response, body } = await rebuild(options);
      expect(response.status).toBe(502);
      expectJsonNoStore(response);
      expect(body).toEqual({ ok: false, message: TEXT.hookFailed });
      expect(hook.calls).toHaveLength(1);

      hook.behave({ kind: 'ok' });
      const again = await rebuild(options);
      expect(again.response.status).toBe(202);
      expect(again.body.message).toBe(TEXT.triggered);
      expect(hook.calls).toHaveLength(2);
    },
  );

  it('unreachable hook → 502, not debounced', async () => {
    const memory = createMemoryTriggerStore();
    const { response, body } = await rebuild(hookOptions({ hookUrl: await unreachableUrl(), store: () => memory }));
    expect(response.status).toBe(502);
    expect(body).toEqual({ ok: false, message: TEXT.hookFailed });
    expect((await rebuild(hookOptions({ store: () => memory }))).body.message).toBe(TEXT.triggered);
  });

  it('hanging hook → 502 as soon as the timeout is over, not debounced', async () => {
    const memory = createMemoryTriggerStore();
    hook.behave({ kind: 'hang' });
    const started = performance.now();
    const { response, body } = await rebuild(hookOptions({ hookTimeoutMs: 300, store: () => memory }));
    const elapsed = performance.now() - started;
    expect(response.status).toBe(502);
    expect(body).toEqual({ ok: false, message: TEXT.hookFailed });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2000);
    hook.behave({ kind: 'ok' });
    expect((await rebuild(hookOptions({ store: () => memory }))).body.message).toBe(TEXT.triggered);
  });

  it('gives the hook 8 s by default (AbortSignal.timeout(8000))', async () => {
    expect(REBUILD_HOOK_TIMEOUT_MS).toBe(8000);
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    await rebuild(hookOptions());
    expect(timeout).toHaveBeenCalledWith(8000);
  });

  it('a debounce store that cannot be read → 503 “unavailable” with Retry-After, nothing triggered', async () => {
    const broken: TriggerStore = {
      read: async () => {
        throw new Error('blobs down');
      },
      write: async () => {
        throw new Error('blobs down');
      },
    };
    const { response, body } = await rebuild(hookOptions({ store: () => broken }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(body).toEqual({ ok: false, message: TEXT.unavailable });
    expect(hook.calls).toHaveLength(0);
  });
});

describe('POST /api/rebuild: several calls within a minute trigger one build', () => {
  it('a second call within 60 s → 202 “already requested”, no hook call; at 60 s → a second build', async () => {
    let clock = Date.parse('2026-10-03T09:00:00Z');
    const memory = createMemoryTriggerStore();
    const options = hookOptions({ store: () => memory, now: () => clock });

    expect((await rebuild(options)).body).toEqual({ ok: true, message: TEXT.triggered });
    clock += 30_000;
    const second = await rebuild(options);
    expect(second.response.status).toBe(202);
    expect(second.body).toEqual({ ok: true, message: TEXT.debounced });
    clock += 29_999;
    expect((await rebuild(options)).body.message).toBe(TEXT.debounced);
    expect(hook.calls).toHaveLength(1);

    clock += 1; // 60 s after the first trigger
    expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
    expect(hook.calls).toHaveLength(2);
    clock += 59_999;
    expect((await rebuild(options)).body.message).toBe(TEXT.debounced);
    expect(hook.calls).toHaveLength(2);
  });

  it('a wrong secret within the window does not extend it', async () => {
    let clock = 1_000_000;
    const memory = createMemoryTriggerStore();
    const options = hookOptions({ store: () => memory, now: () => clock });
    await rebuild(options);
    clock += 59_000;
    expect((await rebuild(options, 'Bearer faux')).response.status).toBe(401);
    clock += 1000;
    expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
    expect(hook.calls).toHaveLength(2);
  });

  it('simultaneous calls → one hook call; the others answer “already requested” once it succeeded', async () => {
    hook.behave({ kind: 'slow', ms: 400, status: 200 });
    const options = hookOptions();
    const answers = await Promise.all(Array.from({ length: 5 }, () => rebuild(options)));
    expect(hook.calls).toHaveLength(1);
    expect(answers.map(({ response }) => response.status)).toEqual([202, 202, 202, 202, 202]);
    expect(answers.map(({ body }) => body.message).sort()).toEqual(
      [TEXT.debounced, TEXT.debounced, TEXT.debounced, TEXT.debounced, TEXT.triggered].sort(),
    );
  });

  it('simultaneous calls while the one hook call fails → all 502, and the next call triggers', async () => {
    hook.behave({ kind: 'slow', ms: 400, status: 500 });
    const options = hookOptions();
    const answers = await Promise.all(Array.from({ length: 3 }, () => rebuild(options)));
    expect(hook.calls).toHaveLength(1);
    expect(answers.map(({ response }) => response.status)).toEqual([502, 502, 502]);
    expect(answers.every(({ body }) => body.message === TEXT.hookFailed)).toBe(true);
    hook.behave({ kind: 'ok' });
    expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
    expect(hook.calls).toHaveLength(2);
  });

  it('a claim left by a call that died mid-way is taken over after 10 s', async () => {
    const clock = 5_000_000;
    const memory = createMemoryTriggerStore();
    await memory.write({ at: clock - 10_000, status: 'pending' }, null);
    expect((await rebuild(hookOptions({ store: () => memory, now: () => clock }))).body.message).toBe(TEXT.triggered);
    expect(hook.calls).toHaveLength(1);
  });
});

/**
 * Netlify's Blobs edge API as the @netlify/blobs client sees it (a `fetch`
 * for getStore): GET answers the blob with its ETag, PUT honours `If-Match`
 * and `If-None-Match: *` with 412, each request handled atomically.
 */
function netlifyLikeBlobsFetch(): typeof fetch {
  const blobs = new Map<string, { body: string; etag: string }>();
  let versions = 0;
  return async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === 'GET') {
      const blob = blobs.get(path);
      return blob ? new Response(blob.body, { headers: { etag: blob.etag } }) : new Response(null, { status: 404 });
    }
    if (request.method !== 'PUT') return new Response(null, { status: 405 });
    const body = await request.text();
    const current = blobs.get(path);
    const ifMatch = request.headers.get('if-match');
    if ((request.headers.get('if-none-match') === '*' && current) || (ifMatch && ifMatch !== current?.etag)) {
      return new Response(null, { status: 412 });
    }
    const etag = `"v${++versions}"`;
    blobs.set(path, { body, etag });
    return new Response(null, { headers: { etag } });
  };
}

describe('the debounce state in Netlify Blobs', () => {
  const token = 'jeton-de-test';
  const siteID = 'site-de-test';

  describe('as Netlify serves it (ETags on reads and writes)', () => {
    function netlifyStore(): TriggerStore {
      const url = 'https://blobs.exemple.test';
      const fetch = netlifyLikeBlobsFetch();
      return blobsTriggerStore(
        getStore({ name: 'rebuild', siteID, token, edgeURL: url, uncachedEdgeURL: url, consistency: 'strong', fetch }),
      );
    }

    it('compare-and-set: onlyIfNew for the first write, onlyIfMatch with the read ETag afterwards', async () => {
      const store = netlifyStore();
      expect(await store.read()).toEqual({ record: undefined, version: null });
      const first = await store.write({ at: 1, status: 'pending' }, null);
      expect(first).toBe('"v1"');
      expect(await store.write({ at: 2, status: 'pending' }, null)).toBeNull();
      expect(await store.read()).toEqual({ record: { at: 1, status: 'pending' }, version: '"v1"' });
      expect(await store.write({ at: 1, status: 'triggered' }, '"v1"')).toBe('"v2"');
      expect(await store.write({ at: 3, status: 'failed' }, '"v1"')).toBeNull();
      expect(await store.read()).toEqual({ record: { at: 1, status: 'triggered' }, version: '"v2"' });
    });

    it('two calls within a minute → one hook call; 60 s later → a second', async () => {
      let clock = 7_000_000;
      const store = netlifyStore();
      const options = hookOptions({ store: () => store, now: () => clock });
      expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
      clock += 59_999;
      expect((await rebuild(options)).body.message).toBe(TEXT.debounced);
      expect(hook.calls).toHaveLength(1);
      clock += 1;
      expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
      expect(hook.calls).toHaveLength(2);
    });

    it('simultaneous calls (as on several function instances) → exactly one hook call', async () => {
      hook.behave({ kind: 'slow', ms: 300, status: 200 });
      const store = netlifyStore();
      const options = hookOptions({ store: () => store });
      const answers = await Promise.all(Array.from({ length: 6 }, () => rebuild(options)));
      expect(hook.calls).toHaveLength(1);
      expect(answers.filter(({ body }) => body.message === TEXT.triggered)).toHaveLength(1);
      expect(answers.filter(({ body }) => body.message === TEXT.debounced)).toHaveLength(5);
    });

    it('a failed trigger is recorded as failed, not as a trigger: the next call triggers', async () => {
      const store = netlifyStore();
      hook.behave({ kind: 'error', status: 500 });
      expect((await rebuild(hookOptions({ store: () => store }))).response.status).toBe(502);
      expect((await store.read()).record).toMatchObject({ status: 'failed' });
      hook.behave({ kind: 'ok' });
      expect((await rebuild(hookOptions({ store: () => store }))).body.message).toBe(TEXT.triggered);
      expect((await store.read()).record).toMatchObject({ status: 'triggered' });
    });
  });

  describe('in the local emulation (@netlify/blobs/server: no ETag on reads)', () => {
    let directory: string;
    let blobs: BlobsServer;
    let blobsUrl: string;
    let requests: string[];

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'rebuild-blobs-'));
      requests = [];
      blobs = new BlobsServer({ directory, token, onRequest: ({ type }) => void requests.push(type) });
      const { port } = await blobs.start();
      blobsUrl = `http://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      await blobs?.stop();
      await rm(directory, { recursive: true, force: true });
    });

    function localStore(name: string): TriggerStore {
      return blobsTriggerStore(
        getStore({ name, siteID, token, edgeURL: blobsUrl, uncachedEdgeURL: blobsUrl, consistency: 'strong' }),
      );
    }

    it('still debounces (writes after a read without ETag are unconditional)', async () => {
      let clock = 8_000_000;
      const store = localStore('debounce');
      const options = hookOptions({ store: () => store, now: () => clock });
      expect((await rebuild(options)).body.message).toBe(TEXT.triggered);
      clock += 1000;
      expect((await rebuild(options)).body.message).toBe(TEXT.debounced);
      expect(hook.calls).toHaveLength(1);
      expect((await store.read()).record).toEqual({ at: 8_000_000, status: 'triggered' });
    });

    it('an unreadable blob counts as no trigger (and is overwritten)', async () => {
      const raw = getStore({ name: 'garbage', siteID, token, edgeURL: blobsUrl });
      await raw.set(TRIGGER_BLOB.key, 'pas du JSON');
      const store = localStore('garbage');
      expect((await rebuild(hookOptions({ store: () => store }))).body.message).toBe(TEXT.triggered);
      expect((await store.read()).record).toMatchObject({ status: 'triggered' });
    });

    it('defaultTriggerStore(): Blobs store "rebuild" with a Blobs context, one in-memory store without', async () => {
      delete process.env.NETLIFY_BLOBS_CONTEXT;
      const memory = defaultTriggerStore();
      expect(defaultTriggerStore()).toBe(memory);

      const context = { edgeURL: blobsUrl, uncachedEdgeURL: blobsUrl, siteID, token };
      process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(JSON.stringify(context)).toString('base64');
      requests.length = 0;
      const store = defaultTriggerStore();
      expect(store).not.toBe(memory);
      await store.write({ at: 42, status: 'triggered' }, (await store.read()).version);
      expect(requests).toEqual(['get', 'set']);
      const check = getStore({ name: TRIGGER_BLOB.store, siteID, token, edgeURL: blobsUrl });
      expect(await check.get(TRIGGER_BLOB.key, { type: 'json' })).toEqual({ at: 42, status: 'triggered' });
    });
  });
});

describe('POST /api/rebuild under npm start: the pull runs again', () => {
  let servers: DevPullServer[] = [];

  async function devServer(pull: () => Promise<unknown>): Promise<DevPullServer> {
    const server = await startDevPullServer(pull, () => {});
    servers.push(server);
    return server;
  }

  /** The route as the dev server runs it: env from scripts/dev.ts, import.meta.env.DEV = true. */
  async function devRebuild(server: DevPullServer, authorization = `Bearer ${SECRET}`) {
    process.env.REBUILD_SECRET = SECRET;
    process.env.REBUILD_DEV_PULL_URL = server.url;
    process.env.NETLIFY_BUILD_HOOK_URL = hook.url; // must be ignored
    const response = await route.POST({ request: rebuildRequest(authorization) });
    return { response, body: (await response.json()) as { ok: boolean; message: string } };
  }

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  it('re-runs the pull once, answers 202 “relu”, never calls the build hook', async () => {
    expect(import.meta.env.DEV).toBe(true);
    const pull = vi.fn(async () => {});
    const { response, body } = await devRebuild(await devServer(pull));
    expect(response.status).toBe(202);
    expectJsonNoStore(response);
    expect(body).toEqual({ ok: true, message: TEXT.devReloaded });
    expect(pull).toHaveBeenCalledTimes(1);
    expect(hook.calls).toHaveLength(0);
  });

  it('still requires the secret (401, no pull)', async () => {
    const pull = vi.fn(async () => {});
    const server = await devServer(pull);
    for (const authorization of ['', 'Bearer faux', `Bearer ${SECRET.slice(0, -1)}X`]) {
      const { response, body } = await devRebuild(server, authorization);
      expect(response.status).toBe(401);
      expect(body.message).toBe(TEXT.unauthorized);
    }
    expect(pull).not.toHaveBeenCalled();
  });

  it('a failed pull → 502 with the French message; the next successful one → 202', async () => {
    let fail = true;
    const server = await devServer(async () => {
      if (fail) throw new Error('articles/x: field titre must be a string');
    });
    const { response, body } = await devRebuild(server);
    expect(response.status).toBe(502);
    expect(body).toEqual({ ok: false, message: TEXT.devPullFailed });
    fail = false;
    expect((await devRebuild(server)).response.status).toBe(202);
  });

  it('npm start gone (the loopback server closed) → 502', async () => {
    const server = await devServer(async () => {});
    await server.close();
    const { response, body } = await devRebuild(server);
    expect(response.status).toBe(502);
    expect(body.message).toBe(TEXT.devPullFailed);
  });

  it('pulls never overlap; calls made during a pull share the next one', async () => {
    let running = 0;
    let overlapped = false;
    let runs = 0;
    const server = await devServer(async () => {
      runs += 1;
      running += 1;
      if (running > 1) overlapped = true;
      await new Promise((done) => setTimeout(done, 200));
      running -= 1;
    });
    const first = devRebuild(server);
    await new Promise((done) => setTimeout(done, 50));
    const during = await Promise.all([devRebuild(server), devRebuild(server), devRebuild(server)]);
    expect((await first).response.status).toBe(202);
    expect(during.map(({ response }) => response.status)).toEqual([202, 202, 202]);
    expect(runs).toBe(2);
    expect(overlapped).toBe(false);
  });

  it('only POST to its random path runs the pull', async () => {
    const pull = vi.fn(async () => {});
    const server = await devServer(pull);
    const url = new URL(server.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toMatch(/^\/pull\/[0-9a-f-]{36}$/);
    expect((await fetch(server.url)).status).toBe(404);
    expect((await fetch(new URL('/pull/autre', url), { method: 'POST' })).status).toBe(404);
    expect(pull).not.toHaveBeenCalled();
  });

  describe('waiting for the dev server to reload the new JSON (pullAndAwaitDevReload)', () => {
    let dir: string;
    let dataFile: string;
    let dataStore: string;

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'rebuild-reload-'));
      dataFile = join(dir, 'articles.json');
      dataStore = join(dir, 'data-store.json');
      await writeFile(dataFile, '{"a": 1}\n');
      await writeFile(dataStore, '{}');
    });

    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** A pull that writes `text`, and an "Astro" that rewrites its data store `reloadAfterMs` later (never if undefined). */
    function pullWriting(text: string, reloadAfterMs?: number) {
      return async () => {
        await writeFile(dataFile, text);
        if (reloadAfterMs !== undefined)
          setTimeout(() => void writeFile(dataStore, '{"reloaded": true}'), reloadAfterMs);
      };
    }

    it('answers only once the data store was rewritten after a change', async () => {
      const run = pullAndAwaitDevReload({ pull: pullWriting('{"a": 2}\n', 300), dataFiles: [dataFile], dataStore });
      const started = performance.now();
      await run();
      expect(performance.now() - started).toBeGreaterThanOrEqual(280);
      expect(await readFile(dataStore, 'utf8')).toBe('{"reloaded": true}');
    });

    it('does not wait when the pull changed nothing', async () => {
      const run = pullAndAwaitDevReload({ pull: pullWriting('{"a": 1}\n'), dataFiles: [dataFile], dataStore });
      const started = performance.now();
      await run();
      expect(performance.now() - started).toBeLessThan(200);
    });

    it('a dev server that does not reload → an error saying to restart npm start, and 502 from the endpoint', async () => {
      const run = pullAndAwaitDevReload({
        pull: pullWriting('{"a": 3}\n'),
        dataFiles: [dataFile],
        dataStore,
        reloadTimeoutMs: 300,
      });
      await expect(run()).rejects.toThrow(/did not reload it within 0.3 s .*Restart npm start/);
      await writeFile(dataFile, '{"a": 1}\n');
      const { response, body } = await devRebuild(await devServer(run));
      expect(response.status).toBe(502);
      expect(body).toEqual({ ok: false, message: TEXT.devPullFailed });
    });

    it('a failed pull is reported at once', async () => {
      const run = pullAndAwaitDevReload({
        pull: async () => {
          throw new Error('unreachable');
        },
        dataFiles: [dataFile],
        dataStore,
      });
      await expect(run()).rejects.toThrow('unreachable');
    });
  });

  describe('with the real pull against the embedded emulator', () => {
    let emulator: EmbeddedFirestore;
    let target: FirestoreTarget;
    let root: string;

    async function write(data: Parameters<typeof seedDocuments>[1]): Promise<void> {
      const connection = connectFirestore(target);
      try {
        await seedDocuments(connection.db, data);
      } finally {
        await connection.close();
      }
    }

    const articlesJson = () => readFile(join(root, 'src/data/articles.json'), 'utf8');

    beforeAll(async () => {
      emulator = await startEmbeddedFirestore();
      target = firestoreTargetFromEnv({
        FIREBASE_PROJECT_ID: 'demo-rebuild',
        FIRESTORE_EMULATOR_HOST: emulator.address,
      });
      await write(fixture);
      root = await mkdtemp(join(tmpdir(), 'rebuild-pull-'));
      await mkdir(join(root, 'src/data'), { recursive: true });
      await writeFile(join(root, 'src/data/articles.json'), '{"previous": true}\n');
    });

    afterAll(async () => {
      emulator?.stop();
      if (root) await rm(root, { recursive: true, force: true });
    });

    it('rewrites src/data/*.json with the changed document; a pull that cannot publish → 502 and the JSON kept', async () => {
      const server = await devServer(() =>
        pullContent({ connect: () => connectFirestore(target), host: target.host, root, log: () => {} }),
      );
      expect((await devRebuild(server)).response.status).toBe(202);
      expect(JSON.parse(await articlesJson())['news-1'].titre).toBe('Première nouvelle');

      await write({ articles: { 'news-1': { ...fixture.articles['news-1'], titre: 'Nouvelle corrigée' } } });
      const { response, body } = await devRebuild(server);
      expect(response.status).toBe(202);
      expect(body.message).toBe(TEXT.devReloaded);
      expect(JSON.parse(await articlesJson())['news-1'].titre).toBe('Nouvelle corrigée');

      const before = await articlesJson();
      // A broken article is only left out; an unreadable menus/pied leaves no meaningful site.
      await write({ menus: { pied: { liens: 'Mentions légales' } } });
      const failed = await devRebuild(server);
      expect(failed.response.status).toBe(502);
      expect(failed.body.message).toBe(TEXT.devPullFailed);
      expect(await articlesJson()).toBe(before);
    });
  });
});
