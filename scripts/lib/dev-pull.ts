/** The pull of POST /api/rebuild under `npm start`, run inside Astro's dev server (the route imports it in dev only). */
import { readFile, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataFile, firestoreSchemas, type CollectionName } from '../../src/content.config.ts';
import { pullFromEnvironment } from './content-source.ts';

/** Where `npm start` writes the session's secret when REBUILD_SECRET is unset (mode 0600; read by `npm run rebuild`). */
export const DEV_SECRET_FILE = '.astro/rebuild-secret';

/** Astro's dev data store: rewritten 500 ms after its file() loaders reloaded src/data, then pages show the change. */
const DATA_STORE = '.astro/data-store.json';

/** Pulls, then waits (at most `reloadMs` ms) until the dev server has reloaded a changed src/data, so the next page shows it; throws the pull's error, or after `reloadMs`. */
export async function pullAndAwaitReload(reloadMs = 5000): Promise<void> {
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
