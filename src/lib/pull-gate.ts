/**
 * `npm start` starts Astro while it pulls: Astro's start-up (its modules, the adapter's, the config, the Vite server,
 * 8–10 s of CPU) runs beside the seed and the pull, and the content collections' loaders wait here before they read
 * src/data/ (src/content.config.ts). scripts/dev.ts names a file in PULL_GATE_ENV and creates it once src/data/ is
 * written; without that variable (build, check, preview, tests) nothing waits.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The variable naming the file whose existence means « src/data/ is pulled ». */
export const PULL_GATE_ENV = 'DEV_PULL_GATE';

/**
 * Waits until the file named by PULL_GATE_ENV exists (at once when the variable is unset), polling every 50 ms.
 * @throws Error after `timeoutMs` milliseconds (the pulling process died without ending this one).
 */
export async function waitForPull(env: NodeJS.ProcessEnv = process.env, timeoutMs = 15 * 60_000): Promise<void> {
  const file = env[PULL_GATE_ENV];
  if (!file) return;
  for (const deadline = performance.now() + timeoutMs; !existsSync(file); await sleep(50)) {
    if (performance.now() > deadline) throw new Error(`npm start: no pull within ${timeoutMs / 1000} s (${file})`);
  }
}

/**
 * A new gate, closed, in its own temporary folder: `file` for PULL_GATE_ENV, `open()` once src/data/ is written,
 * `remove()` (idempotent) when the session ends.
 */
export function createPullGate() {
  const file = join(mkdtempSync(join(tmpdir(), 'npm-start-pull-')), 'pulled');
  return {
    file,
    open: () => writeFileSync(file, ''),
    remove: () => rmSync(dirname(file), { recursive: true, force: true }),
  };
}
