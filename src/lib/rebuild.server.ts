/**
 * The rebuild webhook (issue 5, "Netlify and rebuilds"): editors change the
 * content in Firestore, then call POST /api/rebuild with
 * `Authorization: Bearer <REBUILD_SECRET>`.
 *
 * - On Netlify (and any production build) it calls the site's build hook
 *   (NETLIFY_BUILD_HOOK_URL), at most once per REBUILD_WINDOW_MS (60 s): the
 *   time of the last trigger lives in Netlify Blobs (store "rebuild", key
 *   "last-trigger", strong consistency), or in this process when there is no
 *   Blobs environment (tests, a local server of dist/).
 * - Under `npm start` (scripts/dev.ts sets REBUILD_DEV_PULL_URL for the dev
 *   server) it asks the dev process to re-run the pull instead, and answers
 *   once Astro's file() loaders have reloaded the rewritten src/data/*.json:
 *   the dev server then shows the new content without a restart.
 *
 * Answers: JSON `{ok, message}` in French with `Cache-Control: no-store`: 202
 * triggered (or debounced, or re-pulled), 401 missing or wrong secret, 405 not
 * POST, 502 build hook (or dev pull) failed, 503 not configured or debounce
 * state unavailable. Neither the secret nor the hook URL (which is a secret
 * too: anyone holding it can start builds) is ever logged.
 *
 * Concurrency guarantee: at most one build hook call per 60 s window, also for
 * simultaneous calls on several function instances. A call first *claims* the
 * window with a conditional write (compare-and-set on the Blob's ETag), then
 * calls the hook; a call that finds a claim in progress waits for its outcome
 * (at most CLAIM_MS) and answers 202 "already requested" only once that hook
 * call succeeded, 502 if it failed. A failed hook call releases the window.
 * Without Netlify Blobs each process debounces on its own; in the Netlify
 * CLI's local Blobs emulation (no ETag on reads) two simultaneous calls may
 * both trigger.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { getStore, type Store } from '@netlify/blobs';
import { jsonResponse, type EndpointHandler } from './endpoint.server';

/** Several calls within this many milliseconds (60 s) trigger one build. */
export const REBUILD_WINDOW_MS = 60_000;

/**
 * Give up the build hook call after this many milliseconds (8 s). With the wait
 * for a simultaneous call (CLAIM_MS), an answer takes 18 s at worst, well within
 * the 60 s limit of a Netlify Function.
 */
export const REBUILD_HOOK_TIMEOUT_MS = 8000;

/**
 * How long, in milliseconds, a claim of a hook call in progress holds (10 s:
 * the hook timeout plus a margin). A claim older than that is from a call that
 * died mid-way and is ignored.
 */
export const CLAIM_MS = REBUILD_HOOK_TIMEOUT_MS + 2000;

/** Interval, in milliseconds, at which a call waiting for another call's hook call re-reads the state. */
const CLAIM_POLL_MS = 250;

/** Give up waiting for the dev pull after this many milliseconds (the pull gives up after 20 s per collection). */
export const DEV_PULL_TIMEOUT_MS = 25_000;

/** `trigger_title` of the build hook call: the cause shown in Netlify's deploy list. */
export const BUILD_TRIGGER_TITLE = 'Mise à jour du contenu';

/** The Netlify Blobs store and key holding the last trigger (TriggerRecord as JSON). */
export const TRIGGER_BLOB = { store: 'rebuild', key: 'last-trigger' } as const;

/**
 * File, relative to the project root, where `npm start` writes the secret it
 * generates when REBUILD_SECRET is unset (mode 0600, removed when it stops);
 * `npm run rebuild` reads it when it targets the local dev server.
 */
export const DEV_SECRET_FILE = '.astro/rebuild-secret';

/** Every message of POST /api/rebuild (issue 5). */
export const REBUILD_MESSAGES = {
  /** HTTP 202: the build hook accepted the call. */
  triggered: 'La reconstruction du site est lancée : le nouveau contenu sera en ligne d’ici quelques minutes.',
  /** HTTP 202: a build was triggered less than 60 s ago; the hook was not called again. */
  debounced:
    'Une reconstruction a déjà été demandée il y a moins d’une minute : aucune autre n’a été lancée. Si vos dernières modifications n’apparaissent pas une fois le site publié, refaites la demande dans une minute.',
  /** HTTP 202 under `npm start`: the pull ran again. */
  devReloaded: 'Le contenu a été relu depuis Firestore : rechargez la page pour voir les modifications.',
  /** HTTP 401: no `Authorization: Bearer …` header, or the wrong secret. */
  unauthorized: 'Accès refusé : le secret de reconstruction est absent ou incorrect.',
  /** HTTP 405: any method but POST. */
  methodNotAllowed: 'Utilisez la méthode POST pour demander une reconstruction du site.',
  /** HTTP 502: the build hook answered an error, could not be reached or did not answer within 8 s. */
  hookFailed:
    'Netlify n’a pas pu lancer la reconstruction du site pour le moment. Le contenu publié reste inchangé : merci de réessayer dans quelques minutes.',
  /** HTTP 502 under `npm start`: the pull failed (the previous JSON is kept) or the dev server did not reload it. */
  devPullFailed:
    'Le nouveau contenu n’a pas pu être chargé : le site affiche toujours l’ancien contenu. Le détail de l’erreur est dans le terminal de npm start.',
  /** HTTP 503: REBUILD_SECRET or NETLIFY_BUILD_HOOK_URL is not set. */
  notConfigured: 'La reconstruction du site n’est pas configurée sur ce serveur.',
  /** HTTP 503: the debounce state (Netlify Blobs) could not be read or written; nothing was triggered. */
  unavailable:
    'Le service de reconstruction est momentanément indisponible : rien n’a été lancé. Merci de réessayer dans quelques minutes.',
} as const;

const ROUTE = '[api/rebuild]';

/** Raised when the build hook call failed (HTTP error, network error, timeout); the endpoint answers 502. */
export class BuildHookError extends Error {
  override name = 'BuildHookError';
}

/** Raised when the dev pull failed or did not answer; the endpoint answers 502 (npm start only). */
export class DevPullError extends Error {
  override name = 'DevPullError';
}

/** SHA-256 digest of a string: equal-length inputs for timingSafeEqual, whatever the lengths. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Checks an `Authorization` header against the secret in constant time
 * (SHA-256 of both, compared with timingSafeEqual, so neither the content nor
 * the length of the secret leaks through timing).
 * @param header - the header's value, e.g. `Bearer s3cr3t` (scheme case-insensitive), or null.
 * @param secret - REBUILD_SECRET.
 * @returns true only for `Bearer <secret>`.
 */
export function isAuthorized(header: string | null, secret: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  const same = timingSafeEqual(digest(match?.[1]?.trim() ?? ''), digest(secret));
  return match !== null && same;
}

/** The debounce state: when the last trigger was claimed and how it went. */
export interface TriggerRecord {
  /** Time of the claim, in milliseconds since 1970 (Date.now()). */
  at: number;
  /** 'pending': the hook call is in progress; 'triggered': it succeeded; 'failed': it failed. */
  status: 'pending' | 'triggered' | 'failed';
}

/** What a TriggerStore holds: the record (undefined if none or unreadable) and its version. */
export interface VersionedRecord {
  record: TriggerRecord | undefined;
  /** Opaque version (the Blob's ETag); null when nothing was ever written. */
  version: string | null;
}

/**
 * Where the time of the last trigger is kept, with compare-and-set writes so
 * that two simultaneous calls cannot both claim the same window.
 */
export interface TriggerStore {
  /** Reads the current record. @throws when the store is unreachable. */
  read(): Promise<VersionedRecord>;
  /**
   * Writes `record` only if the stored version is still `expected` (null: only
   * if nothing was ever written).
   * @returns the new version, or null when another writer got there first.
   * @throws when the store is unreachable.
   */
  write(record: TriggerRecord, expected: string | null): Promise<string | null>;
}

/** The record if `value` is a well-formed TriggerRecord, else undefined (treated as no record). */
function parseRecord(value: unknown): TriggerRecord | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { at, status } = value as Record<string, unknown>;
  if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  if (status !== 'pending' && status !== 'triggered' && status !== 'failed') return undefined;
  return { at, status };
}

/**
 * A TriggerStore in this process's memory (tests, local servers; on Netlify
 * only when Blobs is missing, where each function instance then debounces on
 * its own). Reads and writes are synchronous underneath, so compare-and-set is atomic.
 */
export function createMemoryTriggerStore(): TriggerStore {
  let record: TriggerRecord | undefined;
  let version = 0;
  return {
    async read() {
      return { record: record && { ...record }, version: version === 0 ? null : String(version) };
    },
    async write(next, expected) {
      const current = version === 0 ? null : String(version);
      if (current !== expected) return null;
      record = { ...next };
      version += 1;
      return String(version);
    },
  };
}

/** Version of a record read without an ETag: the next write is unconditional. */
const UNCONDITIONAL = '*';
let warnedNoETag = false;

/**
 * A TriggerStore in Netlify Blobs: key TRIGGER_BLOB.key of `store`, read with
 * strong consistency, written with `onlyIfNew` / `onlyIfMatch: <ETag>`.
 * Netlify's Blobs answers every read with an ETag; the local emulation of the
 * Netlify CLI does not, and the writes that follow such a read are then
 * unconditional (last writer wins, with a warning): only there may two
 * simultaneous calls both trigger.
 * @param store - e.g. `getStore({ name: 'rebuild', consistency: 'strong' })`.
 */
export function blobsTriggerStore(store: Store): TriggerStore {
  return {
    async read() {
      const found = await store.getWithMetadata(TRIGGER_BLOB.key, { consistency: 'strong' });
      if (!found) return { record: undefined, version: null };
      let data: unknown;
      try {
        data = JSON.parse(found.data);
      } catch {
        data = undefined;
      }
      if (!found.etag && !warnedNoETag) {
        warnedNoETag = true;
        console.warn(`${ROUTE} Netlify Blobs gave no ETag: simultaneous rebuild requests may trigger twice.`);
      }
      return { record: parseRecord(data), version: found.etag ?? UNCONDITIONAL };
    },
    async write(record, expected) {
      const conditions =
        expected === null ? { onlyIfNew: true } : expected === UNCONDITIONAL ? {} : { onlyIfMatch: expected };
      const result = await store.setJSON(TRIGGER_BLOB.key, record, conditions);
      if (!result.modified) return null;
      return result.etag ?? UNCONDITIONAL;
    },
  };
}

/** The in-process store used when there is no Netlify Blobs environment (one per process). */
const processTriggerStore = createMemoryTriggerStore();
let warnedNoBlobs = false;

/**
 * The debounce store of the current environment: Netlify Blobs when the
 * function runs on Netlify, else this process's memory (with one warning).
 * @throws when Netlify Blobs is present but cannot be used (the endpoint answers 503).
 */
export function defaultTriggerStore(): TriggerStore {
  try {
    return blobsTriggerStore(getStore({ name: TRIGGER_BLOB.store, consistency: 'strong' }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'MissingBlobsEnvironmentError')) throw error;
    if (!warnedNoBlobs) {
      warnedNoBlobs = true;
      console.warn(`${ROUTE} no Netlify Blobs environment: rebuild requests are debounced in this process only.`);
    }
    return processTriggerStore;
  }
}

/** Options of {@link triggerOncePerWindow}. */
export interface OncePerWindowOptions {
  store: TriggerStore;
  /** The side effect to debounce (the build hook call). @throws to report a failure. */
  trigger: () => Promise<void>;
  /** Clock, in milliseconds since 1970 (default Date.now). */
  now?: () => number;
  /** Window in milliseconds (default REBUILD_WINDOW_MS, 60 000). */
  windowMs?: number;
  /** Lifetime of a claim in progress, in milliseconds (default CLAIM_MS, 10 000). */
  claimMs?: number;
}

/**
 * Runs `trigger` unless it succeeded less than `windowMs` ago (see the module
 * doc for the guarantee). The window starts when the call claims it, before
 * the trigger runs; a failed trigger is recorded as 'failed' and does not hold the window.
 * @returns 'triggered' when this call ran `trigger` successfully, 'debounced'
 *   when a trigger succeeded (or was just made by a simultaneous call) within the window.
 * @throws the trigger's own error (e.g. BuildHookError) when it failed, and
 *   BuildHookError when this call waited for a simultaneous call whose trigger
 *   failed; the store's errors when it cannot be read or written.
 */
export async function triggerOncePerWindow(options: OncePerWindowOptions): Promise<'triggered' | 'debounced'> {
  const { store, trigger, now = Date.now, windowMs = REBUILD_WINDOW_MS, claimMs = CLAIM_MS } = options;
  let awaitedClaim: number | undefined;
  // Never wait longer than a claim lives, whatever the clocks of other instances say.
  const waitDeadline = performance.now() + claimMs;
  // Each turn either returns, waits CLAIM_POLL_MS for a live claim, or lost a compare-and-set to another call.
  for (let turn = 0; turn < 1000; turn++) {
    const { record, version } = await store.read();
    const time = now();
    if (record?.status === 'triggered' && time - record.at < windowMs) return 'debounced';
    if (record?.status === 'pending' && time - record.at < claimMs && performance.now() < waitDeadline) {
      awaitedClaim = record.at;
      await sleep(CLAIM_POLL_MS);
      continue;
    }
    if (record?.status === 'failed' && record.at === awaitedClaim) {
      throw new BuildHookError('the build hook call of a simultaneous request failed');
    }
    const claim = await store.write({ at: time, status: 'pending' }, version);
    if (claim === null) continue;
    try {
      await trigger();
    } catch (error) {
      await store.write({ at: time, status: 'failed' }, claim).catch((storeError: unknown) => {
        console.error(`${ROUTE} could not release the rebuild window:`, storeError);
      });
      throw error;
    }
    await store.write({ at: time, status: 'triggered' }, claim).catch((storeError: unknown) => {
      // The build was requested: the claim still debounces for CLAIM_MS.
      console.error(`${ROUTE} could not record the rebuild trigger:`, storeError);
    });
    return 'triggered';
  }
  throw new Error('the rebuild state kept changing; giving up');
}

/** One log line about a failed fetch, without its URL: error name, code of its cause, message. */
function describeFetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return `${error.name}${code}: ${error.message}`;
}

/** True for an absolute http(s) URL. */
function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Calls a Netlify build hook: an empty POST to `hookUrl` with
 * `?trigger_title=Mise à jour du contenu` (Netlify names the deploy after it).
 * @param timeoutMs - give up after this many milliseconds (default 8 000, REBUILD_HOOK_TIMEOUT_MS).
 * @throws BuildHookError for a non-2xx answer, a network error or the timeout
 *   (its message never contains the URL).
 */
export async function callBuildHook(hookUrl: string, timeoutMs: number = REBUILD_HOOK_TIMEOUT_MS): Promise<void> {
  const url = new URL(hookUrl);
  url.searchParams.set('trigger_title', BUILD_TRIGGER_TITLE);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : describeFetchFailure(error);
    throw new BuildHookError(`build hook not reached: ${reason}`, { cause: error });
  }
  await response.body?.cancel().catch(() => {});
  if (!response.ok) throw new BuildHookError(`build hook answered HTTP ${response.status}`);
}

/** What POST /api/rebuild does once the caller is authorised. */
export type RebuildTarget =
  | {
      kind: 'build-hook';
      /** NETLIFY_BUILD_HOOK_URL, e.g. `https://api.netlify.com/build_hooks/<id>`. */
      hookUrl: string;
      /** The debounce store, opened at each request (errors → 503). */
      store: () => TriggerStore;
      /** Hook timeout in milliseconds (default REBUILD_HOOK_TIMEOUT_MS, 8 000). */
      hookTimeoutMs?: number;
      /** Clock in milliseconds since 1970 (default Date.now). */
      now?: () => number;
    }
  | {
      kind: 'dev-pull';
      /** Re-runs the pull (npm start). @throws when it failed; the old JSON is kept. */
      pull: () => Promise<void>;
    };

/** Configuration of POST /api/rebuild, from rebuildOptionsFromEnv() or a test. */
export interface RebuildOptions {
  /** REBUILD_SECRET; undefined → 503 whatever the request. */
  secret: string | undefined;
  /** undefined → 503 (after the secret check) when NETLIFY_BUILD_HOOK_URL is unset or not an http(s) URL. */
  target: RebuildTarget | undefined;
}

/**
 * The endpoint's configuration from the environment, read at each request:
 * REBUILD_SECRET; under `npm start` (`dev` and REBUILD_DEV_PULL_URL, set by
 * scripts/dev.ts) a re-pull, otherwise NETLIFY_BUILD_HOOK_URL with the
 * default debounce store. A production build has `dev` = false inlined, so
 * REBUILD_DEV_PULL_URL never applies there.
 * @param dev - true in Astro's dev server (import.meta.env.DEV).
 */
export function rebuildOptionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  dev: boolean = import.meta.env.DEV,
): RebuildOptions {
  const secret = env.REBUILD_SECRET?.trim() || undefined;
  const devPullUrl = dev ? env.REBUILD_DEV_PULL_URL?.trim() : undefined;
  if (devPullUrl) return { secret, target: { kind: 'dev-pull', pull: () => requestDevPull(devPullUrl) } };
  const hookUrl = env.NETLIFY_BUILD_HOOK_URL?.trim();
  if (!hookUrl || !isHttpUrl(hookUrl)) return { secret, target: undefined };
  return { secret, target: { kind: 'build-hook', hookUrl, store: defaultTriggerStore } };
}

/**
 * Handles POST /api/rebuild (issue 5; statuses and messages in the module doc
 * and REBUILD_MESSAGES). Does nothing before the secret is checked.
 */
export async function handleRebuild(request: Request, options: RebuildOptions): Promise<Response> {
  const { secret, target } = options;
  const answer = (status: number, ok: boolean, message: string, headers: Record<string, string> = {}) =>
    jsonResponse(status, { ok, message }, headers);
  if (!secret) {
    console.warn(`${ROUTE} REBUILD_SECRET is not set: rebuild requests are refused.`);
    return answer(503, false, REBUILD_MESSAGES.notConfigured);
  }
  if (!isAuthorized(request.headers.get('authorization'), secret)) {
    console.warn(`${ROUTE} refused: missing or wrong secret.`);
    return answer(401, false, REBUILD_MESSAGES.unauthorized, { 'www-authenticate': 'Bearer' });
  }
  if (!target) {
    console.warn(`${ROUTE} NETLIFY_BUILD_HOOK_URL is not set (or not an http(s) URL): nothing to trigger.`);
    return answer(503, false, REBUILD_MESSAGES.notConfigured);
  }
  if (target.kind === 'dev-pull') {
    try {
      await target.pull();
    } catch (error) {
      console.error(`${ROUTE} the dev server keeps the old content: ${error instanceof Error ? error.message : error}`);
      return answer(502, false, REBUILD_MESSAGES.devPullFailed);
    }
    return answer(202, true, REBUILD_MESSAGES.devReloaded);
  }
  try {
    const outcome = await triggerOncePerWindow({
      store: target.store(),
      trigger: () => callBuildHook(target.hookUrl, target.hookTimeoutMs),
      now: target.now,
    });
    if (outcome === 'triggered') console.info(`${ROUTE} build hook called.`);
    return answer(202, true, REBUILD_MESSAGES[outcome]);
  } catch (error) {
    if (error instanceof BuildHookError) {
      console.error(`${ROUTE} ${error.message}`);
      return answer(502, false, REBUILD_MESSAGES.hookFailed);
    }
    console.error(`${ROUTE} debounce state unavailable, nothing triggered:`, error);
    return answer(503, false, REBUILD_MESSAGES.unavailable, { 'retry-after': '60' });
  }
}

/** 405 `{ok: false, message}` with `Allow: POST`, for every method but POST (the route's `ALL`). */
export const rebuildMethodNotAllowed: EndpointHandler = async () =>
  jsonResponse(405, { ok: false, message: REBUILD_MESSAGES.methodNotAllowed }, { allow: 'POST' });

/**
 * Asks the dev process (startDevPullServer) to re-run the pull and waits for it.
 * @param url - REBUILD_DEV_PULL_URL.
 * @param timeoutMs - default DEV_PULL_TIMEOUT_MS (25 000).
 * @throws DevPullError when the pull failed, the process is gone or it took longer.
 */
export async function requestDevPull(url: string, timeoutMs: number = DEV_PULL_TIMEOUT_MS): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new DevPullError(`the npm start process did not answer: ${describeFetchFailure(error)}`, { cause: error });
  }
  await response.body?.cancel().catch(() => {});
  if (!response.ok) throw new DevPullError(`npm start reported a failure (HTTP ${response.status}; printed above)`);
}

/**
 * Wraps a task so that it never runs twice at once: a call while it runs gets
 * the next run, shared by every call made meanwhile (so each caller's changes
 * are read by a run that started after its call).
 */
function serialised(task: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const run: Promise<void> = task().finally(() => {
      if (current === run) current = undefined;
    });
    current = run;
    return run;
  };
  return () => {
    if (next) return next;
    if (!current) return start();
    next = current
      .catch(() => {})
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

/** The loopback server of `npm start` that runs the pull for POST /api/rebuild. */
export interface DevPullServer {
  /** Secret-path URL to give the dev server as REBUILD_DEV_PULL_URL, e.g. `http://127.0.0.1:40123/pull/<uuid>`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the loopback server through which the dev server's endpoint asks the
 * `npm start` process (which owns the database connection and the emulator)
 * to re-run the pull. Only POST to its random path is served: 204 after a
 * successful pull, 500 after a failed one (reported with `onError`; the pull
 * leaves the old JSON in place). Pulls never overlap (see serialised()).
 * @param pull - e.g. pullFromEnvironment from scripts/lib/content-source.ts.
 * @param onError - reports a failed pull in the terminal (default console.error).
 */
export async function startDevPullServer(
  pull: () => Promise<unknown>,
  onError: (error: unknown) => void = (error) => console.error(error),
): Promise<DevPullServer> {
  const path = `/pull/${randomUUID()}`;
  const run = serialised(async () => {
    await pull();
  });
  const server = createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST' || request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    run().then(
      () => response.writeHead(204).end(),
      (error: unknown) => {
        onError(error);
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Astro's dev data store: rewritten (500 ms after the last change) once its file() loaders have reloaded. */
export const ASTRO_DEV_DATA_STORE = '.astro/data-store.json';

/** Options of {@link pullAndAwaitDevReload}. */
export interface DevReloadOptions {
  /** The pull (it writes `dataFiles` only when it succeeds). */
  pull: () => Promise<unknown>;
  /** The JSON files the pull writes, e.g. `src/data/articles.json` (relative to the current directory). */
  dataFiles: readonly string[];
  /** The file whose rewrite says Astro has reloaded them (default ASTRO_DEV_DATA_STORE). */
  dataStore?: string;
  /** Give up waiting for the reload after this many milliseconds (default 5 000). */
  reloadTimeoutMs?: number;
}

/**
 * The pull of `npm start`'s rebuild (issue 5): runs `pull`, then, when it
 * changed any of `dataFiles`, waits until Astro's dev server has reloaded them
 * (its data store file is rewritten), so that a page loaded after the answer
 * shows the new content. Nothing to wait for when the content did not change.
 * @returns a function for startDevPullServer.
 * @throws (the returned function) the pull's own error; an Error saying to
 *   restart `npm start` when the dev server did not reload within `reloadTimeoutMs`.
 */
export function pullAndAwaitDevReload(options: DevReloadOptions): () => Promise<void> {
  const { pull, dataFiles, dataStore = ASTRO_DEV_DATA_STORE, reloadTimeoutMs = 5000 } = options;
  const contents = () => Promise.all(dataFiles.map((path) => readFile(path, 'utf8').catch(() => undefined)));
  const modified = () =>
    stat(dataStore).then(
      (stats) => stats.mtimeMs,
      () => 0,
    );
  return async () => {
    const [before, storeBefore] = await Promise.all([contents(), modified()]);
    await pull();
    const after = await contents();
    if (after.every((text, index) => text === before[index])) return;
    const deadline = performance.now() + reloadTimeoutMs;
    while ((await modified()) === storeBefore) {
      if (performance.now() > deadline) {
        throw new Error(
          `the pull wrote new content, but Astro’s dev server did not reload it within ${reloadTimeoutMs / 1000} s (${dataStore} unchanged). Restart npm start to see it.`,
        );
      }
      await sleep(50);
    }
  };
}
