/** Runs the Astro CLI in a child process with the current Node (24) and environment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

const astroBin = createRequire(import.meta.url)
  .resolve('astro/package.json')
  .replace(/package\.json$/, 'bin/astro.mjs');

/** Starts `astro <args>` with inherited stdio, in `env` (this process's by default). */
export function spawnAstro(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, [astroBin, ...args], { stdio: 'inherit', env });
}
