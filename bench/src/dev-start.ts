/**
 * `npm start` to its first page: cold starts of `scripts/dev.ts` in a copy of the project (no `.astro/`, Vite or
 * Netlify cache), each timed from the spawn to the first `200` of `GET /`, with the arrival of its phases' lines.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { BenchError, freePort, spawnTracked, stopChild, type OutputLine } from './processes.ts';
import type { Workspace } from './workspace.ts';

/** One cold start. Times in milliseconds after the spawn; `undefined` when the line never came. */
export interface DevStart {
  /** The first `200` of `GET /`. */
  firstPageMs: number;
  /** The embedded database seeded (its « seeded in » line). */
  seededMs?: number;
  /** The pull done, Astro about to start (the dev script's « Rebuild: » line). */
  pulledMs?: number;
  /** The Auth emulator's « Espace (/espace) » line (demo accounts created). */
  authMs?: number;
  /** Astro's « ready in » line. */
  astroReadyMs?: number;
}

/** The lines whose arrival marks a phase. */
const PHASES = {
  seededMs: /seeded in \d+ ms/,
  pulledMs: /^Rebuild: /,
  authMs: /^Espace \(\/espace\)/,
  astroReadyMs: /ready in \d+/,
} as const;

/** Caches a start writes, removed before each run so that every start is cold. */
const CACHES = ['.astro', '.netlify', 'node_modules/.vite', 'node_modules/.astro', 'src/data'];

/**
 * `runs` cold starts of `npm start` in `copy` on the embedded demo database, one after the other.
 * @throws BenchError when a start exits or serves no page within `timeoutMs` (milliseconds).
 */
export async function measureDevStarts(copy: Workspace, runs: number, timeoutMs = 180_000): Promise<DevStart[]> {
  const starts: DevStart[] = [];
  for (let run = 0; run < runs; run += 1) {
    await Promise.all(CACHES.map((path) => rm(join(copy.dir, path), { recursive: true, force: true })));
    starts.push(await measureDevStart(copy.dir, timeoutMs));
  }
  return starts;
}

async function measureDevStart(dir: string, timeoutMs: number): Promise<DevStart> {
  const [port, firestorePort, authPort] = [
    await freePort(4500, 4599),
    await freePort(8200, 8289),
    await freePort(8300, 8399),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, FIREBASE_PROJECT_ID: '', FIRESTORE_EMULATOR_HOST: '' };
  for (const name of ['REBUILD_SECRET', 'FIREBASE_AUTH_EMULATOR_HOST', 'SMTP_URL']) delete env[name];
  const started = performance.now();
  const child = spawnTracked(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/dev.ts',
      '--port',
      String(port),
      '--firestore-port',
      String(firestorePort),
      '--auth-port',
      String(authPort),
    ],
    { cwd: dir, env },
  );
  const lines: OutputLine[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
      lines.push({ ms: performance.now() - started, text: stripVTControlCharacters(line) }),
    );
  }
  try {
    const firstPageMs = await firstPage(`http://127.0.0.1:${port}/`, started, timeoutMs, () => child.exitCode);
    const phase = (pattern: RegExp) => lines.find((line) => pattern.test(line.text.trim()))?.ms;
    return {
      firstPageMs,
      seededMs: phase(PHASES.seededMs),
      pulledMs: phase(PHASES.pulledMs),
      authMs: phase(PHASES.authMs),
      astroReadyMs: phase(PHASES.astroReadyMs),
    };
  } catch (error) {
    const tail = lines
      .slice(-25)
      .map((line) => line.text)
      .join('\n    ');
    throw new BenchError(
      `npm start: ${error instanceof Error ? error.message : String(error)}. Last lines:\n    ${tail}`,
    );
  } finally {
    await stopChild(child, 10_000);
  }
}

/** Polls `url` every 100 ms until it answers 200; resolves with the milliseconds since `started`. */
async function firstPage(
  url: string,
  started: number,
  timeoutMs: number,
  exitCode: () => number | null,
): Promise<number> {
  while (performance.now() - started < timeoutMs) {
    if (exitCode() !== null) throw new Error(`exited (status ${exitCode()}) before serving a page`);
    const status = await fetch(url, { signal: AbortSignal.timeout(60_000) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return performance.now() - started;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`no page within ${timeoutMs / 1000} s`);
}
