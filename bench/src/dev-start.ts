/**
 * `npm start` to its first page: cold starts of `scripts/dev.ts` in a copy of the project (no `.astro/`, Vite or
 * Netlify cache), each timed from the spawn to the first `200` of `GET /`, with the arrival of its phases' lines, the
 * page's own files (what a browser fetches next), the CPU time its processes used (less noisy than the clock on a
 * shared machine) and the machine's load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { BenchError, freePort, spawnTracked, stopChild, type OutputLine } from './processes.ts';
import type { Workspace } from './workspace.ts';

/** One cold start. Times in milliseconds after the spawn; `undefined` when the line never came. */
export interface DevStart {
  /** The first `200` of `GET /`. */
  firstPageMs: number;
  /** Every stylesheet and script that first page links (same origin) answered 2xx: a browser can draw the page. */
  assetsMs?: number;
  /** CPU time (user + system, milliseconds) of the start's processes until the first page, emulators included. */
  cpuMs?: number;
  /** The machine's 1-minute load average when the start began. */
  loadAverage?: number;
  /** The embedded database seeded (its « seeded in » line). */
  seededMs?: number;
  /** The pull done (the dev script's « Rebuild: » line); Astro starts beside it since the spawn. */
  pulledMs?: number;
  /** The Auth emulator's « Espace (/espace) » line (demo accounts created), waited for after the first page. */
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
  const loadAverage = loadavg()[0];
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
  const phase = (pattern: RegExp) => lines.find((line) => pattern.test(line.text.trim()))?.ms;
  try {
    const url = `http://127.0.0.1:${port}/`;
    const { ms: firstPageMs, html } = await firstPage(url, started, timeoutMs, () => child.exitCode);
    const cpuMs = child.pid === undefined ? undefined : processGroupCpuMs(child.pid);
    const assetsMs = await pageAssets(url, html).then(() => performance.now() - started);
    // The sign-in comes after the first page: waited for (within the time left) so that its phase is measured too.
    while (phase(PHASES.authMs) === undefined && performance.now() - started < timeoutMs && child.exitCode === null) {
      await new Promise((wait) => setTimeout(wait, 100));
    }
    return {
      firstPageMs,
      assetsMs,
      cpuMs,
      loadAverage,
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

/** Polls `url` every 100 ms until it answers 200; resolves with the milliseconds since `started` and the page. */
async function firstPage(
  url: string,
  started: number,
  timeoutMs: number,
  exitCode: () => number | null,
): Promise<{ ms: number; html: string }> {
  while (performance.now() - started < timeoutMs) {
    if (exitCode() !== null) throw new Error(`exited (status ${exitCode()}) before serving a page`);
    const answer = await fetch(url, { signal: AbortSignal.timeout(60_000) }).then(
      async (response) => ({ status: response.status, html: await response.text() }),
      () => ({ status: 0, html: '' }),
    );
    if (answer.status === 200) return { ms: performance.now() - started, html: answer.html };
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`no page within ${timeoutMs / 1000} s`);
}

/**
 * Fetches, all at once as a browser would, the stylesheets, scripts and preloads `html` links on its own origin (in
 * dev, each component's style is its own request, transformed on demand).
 * @throws Error naming a file that does not answer 2xx.
 */
async function pageAssets(url: string, html: string): Promise<void> {
  const tags = html.match(/<(?:link|script)\b[^>]*>/g) ?? [];
  const addresses = tags.flatMap((tag) => {
    const isScript = tag.startsWith('<script');
    const rel = /\brel="([^"]*)"/.exec(tag)?.[1] ?? '';
    if (!isScript && !/\b(stylesheet|modulepreload|preload)\b/.test(rel)) return [];
    const address = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1]?.replaceAll('&amp;', '&');
    return address?.startsWith('/') && !address.startsWith('//') ? [new URL(address, url)] : [];
  });
  await Promise.all(
    addresses.map(async (address) => {
      const response = await fetch(address, { signal: AbortSignal.timeout(60_000) });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${address.pathname}${address.search} answered ${response.status}`);
    }),
  );
}

/**
 * CPU time (user + system, milliseconds) of every live process in process group `group` (the start spawned detached,
 * its own group), with their waited-for children; `undefined` where /proc cannot be read (not Linux).
 */
function processGroupCpuMs(group: number): number | undefined {
  try {
    const ticksPerSecond = 100; // USER_HZ: 100 on every Linux architecture Node runs on.
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // It ended meanwhile.
      }
      // After the command's name (in parentheses, possibly with spaces): state, ppid, pgrp, …, utime (14th field).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
    return (ticks / ticksPerSecond) * 1000;
  } catch {
    return undefined;
  }
}
