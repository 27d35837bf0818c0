/**
 * Publishing the site: `requestRebuild` for the space's « Publier » (/espace/publication, after the session's role),
 * and POST /api/rebuild for scripts, with REBUILD_SECRET as `Authorization: Bearer` (JSON answers). Both call Netlify's
 * build hook at most once a minute, the time of the last call kept in Netlify Blobs; under `npm start` they re-run the
 * pull instead. See docs/rebuild.md.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getStore } from '@netlify/blobs';
import { jsonResponse, methodNotAllowedFor } from '../../../lib/endpoint.server';

/** Every French message of POST /api/rebuild. */
const REBUILD_MESSAGES = {
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
  methodNotAllowed: 'Utilisez la méthode POST pour demander une reconstruction du site.',
} as const;

type Outcome = Exclude<keyof typeof REBUILD_MESSAGES, 'methodNotAllowed'>;
/** What the space's publish page says of each outcome (PUBLICATION_MESSAGES of report.ts). */
const PUBLICATION = {
  triggered: 'lancee',
  devReloaded: 'lancee',
  debounced: 'attente',
  unauthorized: 'erreur',
  hookFailed: 'erreur',
  devPullFailed: 'erreur',
  notConfigured: 'erreur',
} as const satisfies Record<Outcome, 'lancee' | 'attente' | 'erreur'>;

/** The outcome of a publish asked from the space, as PUBLICATION_MESSAGES names it. */
export type PublicationOutcome = (typeof PUBLICATION)[Outcome];
const statusOf = (outcome: Outcome) =>
  outcome === 'notConfigured'
    ? 503
    : outcome === 'unauthorized'
      ? 401
      : { lancee: 202, attente: 202, erreur: 502 }[PUBLICATION[outcome]];
/** REBUILD_SECRET, NETLIFY_BUILD_HOOK_URL, and under `npm start` the pull (@throws when it failed; old JSON kept). */
export interface RebuildOptions {
  secret?: string;
  hookUrl?: string;
  pull?: () => Promise<unknown>;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
/** True when `given` is `secret`; compares SHA-256 digests in constant time, so neither content nor length leaks. */
export function isSecret(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}

/** POSTs to the build hook (deploy « Mise à jour du contenu »). @throws on an error answer, or none within 8 s. */
async function callBuildHook(hookUrl: URL): Promise<void> {
  hookUrl.searchParams.set('trigger_title', 'Mise à jour du contenu');
  const response = await fetch(hookUrl, { method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(8000) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the build hook answered HTTP ${response.status}`);
}

/**
 * Under `npm start`, the pull as a call to its hook `url` (DEV_PULL_URL, scripts/lib/dev-pull.ts): resolves once the
 * content is pulled and the dev server reloaded it. undefined without a url (`astro dev` alone: no re-pull).
 * @throws (the returned function) on an error answer, or none within 30 s.
 */
export function devPullHook(url: string | undefined): (() => Promise<void>) | undefined {
  if (!url) return undefined;
  return async () => {
    const response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(30_000) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`npm start's pull answered HTTP ${response.status}`);
  };
}

// This instance's last call (ms); outside Netlify (local servers, tests) there is no Blobs store and it debounces
// alone.
let lastCall = 0;

/**
 * Runs `trigger` unless it ran less than 60 s ago (time in store 'rebuild', key 'last-trigger'); two instances racing
 * may both run it (harmless).
 */
async function oncePerWindow(trigger: () => Promise<void>): Promise<'triggered' | 'debounced'> {
  const store = await Promise.try(() => getStore({ name: 'rebuild', consistency: 'strong' })).catch(() => undefined);
  const blobError = (error: unknown) => console.warn(`[api/rebuild] Netlify Blobs: ${describe(error)}`);
  const save = (time: number) => store?.set('last-trigger', String(time)).catch(blobError);
  const stored = Number(await store?.get('last-trigger').catch(blobError)) || 0;
  const [previous, now] = [lastCall, Date.now()];
  if (now - Math.max(previous, stored) < 60_000) return 'debounced';
  lastCall = now; // no await since reading it: simultaneous calls of this process see it
  await save(now);
  return trigger().then(
    () => 'triggered' as const,
    async (error: unknown) => {
      if (lastCall === now) lastCall = previous; // a failed call does not hold the window
      await save(stored);
      throw error;
    },
  );
}

let devPulls: Promise<unknown> = Promise.resolve();
/** The build hook's call (or under `npm start` the pull), once the caller is known to be allowed. */
async function rebuild({ hookUrl, pull }: RebuildOptions): Promise<Outcome> {
  if (pull) {
    // Pulls never overlap: two would race on src/data.
    devPulls = devPulls.catch(() => {}).then(pull);
    return devPulls.then(
      () => 'devReloaded' as const,
      (error: unknown) => logged('devPullFailed', `the dev server keeps the old content: ${describe(error)}`),
    );
  }
  const hook = URL.parse(hookUrl?.trim() ?? '');
  if (!hook || !/^https?:$/.test(hook.protocol)) return logged('notConfigured', 'no http(s) NETLIFY_BUILD_HOOK_URL.');
  return oncePerWindow(() => callBuildHook(hook)).then(
    (outcome) => (outcome === 'triggered' ? logged(outcome, 'build hook called.') : outcome),
    (error: unknown) => logged('hookFailed', `build hook failed: ${describe(error)}`),
  );
}

/**
 * The space's « Publier »: calls the build hook (at most once a minute) or under `npm start` re-pulls; never throws.
 * The caller has checked the session's role. Returns the outcome as the publish page names it.
 */
export async function requestRebuild(options: Omit<RebuildOptions, 'secret'>): Promise<PublicationOutcome> {
  return PUBLICATION[await rebuild(options)];
}

/** Handles POST /api/rebuild for scripts: `Authorization: Bearer <REBUILD_SECRET>`, JSON `{ok, message}`. */
export async function handleRebuild(request: Request, options: RebuildOptions): Promise<Response> {
  const given = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization')?.trim() ?? '')?.[1]?.trim() ?? '';
  const { secret } = options;
  const outcome = !secret?.trim()
    ? logged('notConfigured', 'REBUILD_SECRET is not set: refused.')
    : !isSecret(given, secret.trim())
      ? logged('unauthorized', 'refused: missing or wrong secret.')
      : await rebuild(options);
  const headers: Record<string, string> = outcome === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {};
  return jsonResponse(statusOf(outcome), { ok: statusOf(outcome) < 300, message: REBUILD_MESSAGES[outcome] }, headers);
}

/** 405 `{ok: false, message}` with `Allow: POST`, for every other method (the route's `ALL`). */
export const rebuildMethodNotAllowed = methodNotAllowedFor('POST', REBUILD_MESSAGES.methodNotAllowed);

/**
 * Logs `line` (never a secret or the hook's URL) as an error for a failure, info for a call, else a warning; returns
 * `outcome`.
 */
function logged<T extends Outcome>(outcome: T, line: string): T {
  console[outcome.endsWith('Failed') ? 'error' : outcome === 'triggered' ? 'info' : 'warn'](`[api/rebuild] ${line}`);
  return outcome;
}

/** An error for the log: name, message and its cause's code (fetch's errors never hold the URL). */
const describe = (error: unknown) => `${error} ${(error as { cause?: { code?: string } })?.cause?.code ?? ''}`.trim();
