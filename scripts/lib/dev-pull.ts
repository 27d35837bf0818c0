/**
 * The re-pull of POST /api/rebuild under `npm start`. The site never imports scripts: scripts/dev.ts serves the pull
 * as a hook on the loopback interface (serveDevPull) and hands its address to Astro's dev server in DEV_PULL_URL;
 * the route calls it as it calls Netlify's build hook in production (src/features/content/publishing/rebuild.server.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CollectionName } from '../../src/content.config.ts';

/**
 * Where `npm start` writes the session's secret when REBUILD_SECRET is unset (mode 0600; read by `npm run rebuild`).
 */
export const DEV_SECRET_FILE = '.astro/rebuild-secret';

/** Astro's dev data store: rewritten 500 ms after its file() loaders reloaded src/data, then pages show the change. */
const DATA_STORE = '.astro/data-store.json';

/**
 * Pulls, then waits (at most `reloadMs` ms) until the dev server has reloaded a changed src/data, so the next page
 * shows it.
 * @throws the pull's error, or an Error after `reloadMs` without a reload.
 */
export async function pullAndAwaitReload(reloadMs = 5000): Promise<void> {
  // Loaded at the first re-pull: `npm start` serves this hook before it starts Astro, the pull's modules after.
  const [{ dataFile, firestoreSchemas }, { pullFromEnvironment }] = await Promise.all([
    import('../../src/content.config.ts'),
    import('./content-source.ts'),
  ]);
  const names = Object.keys(firestoreSchemas) as CollectionName[];
  const contents = async () =>
    (await Promise.all(names.map((name) => readFile(dataFile(name), 'utf8').catch(() => '')))).join('\0');
  const storeTime = () =>
    stat(DATA_STORE)
      .then(({ mtimeMs }) => mtimeMs)
      .catch(() => 0);
  const [before, storedAt] = await Promise.all([contents(), storeTime()]);
  await pullFromEnvironment();
  if ((await contents()) === before) return;
  for (const deadline = performance.now() + reloadMs; (await storeTime()) === storedAt; await sleep(50)) {
    if (performance.now() > deadline)
      throw new Error(`Astro did not reload ${DATA_STORE} in ${reloadMs} ms: restart npm start.`);
  }
}

/**
 * Serves `pull` (pullAndAwaitReload) on 127.0.0.1, a free port, at a path only this session knows: a POST answers
 * 204 once it is done, 500 when it failed (the error is printed here, in npm start's terminal); pulls never overlap.
 * @returns the hook's `url` (for DEV_PULL_URL) and `close()`.
 */
export async function serveDevPull(pull: () => Promise<void> = pullAndAwaitReload) {
  const path = `/pull/${randomBytes(16).toString('hex')}`;
  let pulls: Promise<unknown> = Promise.resolve();
  const server = createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST' || request.url !== path) return void response.writeHead(404).end();
    const run = pulls.catch(() => {}).then(pull);
    pulls = run;
    run.then(
      () => response.writeHead(204).end(),
      (error: unknown) => {
        console.error(`\n✖ The content could not be pulled again: ${error instanceof Error ? error.message : error}`);
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${path}`, close: () => server.close() };
}
