/**
 * What `npm start` checks before it touches anything: its port is free, and no other dev server of this project
 * holds the data (src/data/ and the session secret are the project's, whatever the port). The lock is a file naming
 * the holder's process id; a lock whose process is gone is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/** The lock of the project's data, held by the running `npm start` (beside src/data/, ignored by git). */
export const DEV_LOCK_FILE = 'src/data/.dev-server.lock';

/** Resolves when `port` can be bound on `host` (then released at once), rejects with the bind error otherwise. */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(port, host, () => server.close(() => resolve()));
  });
}

/** True when process `pid` runs (EPERM: it runs under another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Checks `port` on `host`, then takes the data lock for this process (released on exit).
 * @throws Error in English for the terminal, naming the port or the process that holds the data, and what to do.
 */
export async function claimDevServer(port: number, host = '127.0.0.1'): Promise<void> {
  await portIsFree(port, host).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `port ${port} on ${host} is taken (${error.code ?? error.message}): another \`npm start\` ` +
        'or server runs there. Nothing was changed. Stop it, or start on another port: `npm start -- --port <port>`.',
    );
  });
  const readHolder = () => {
    try {
      return JSON.parse(readFileSync(DEV_LOCK_FILE, 'utf8')) as { pid: number; port: number };
    } catch {
      return undefined;
    }
  };
  const refuse = (holder: { pid: number; port: number } | undefined) =>
    new Error(
      `another \`npm start\` of this project (process ${holder?.pid ?? '?'}, port ${holder?.port ?? '?'}) uses ` +
        `src/data/ and its session secret (lock: ${DEV_LOCK_FILE}). Nothing was changed. Use that server, or stop it.`,
    );
  const holder = readHolder();
  if (holder && holder.pid !== process.pid && processIsAlive(holder.pid)) throw refuse(holder);
  mkdirSync(dirname(DEV_LOCK_FILE), { recursive: true });
  try {
    // 'wx' when there was no lock: of two servers starting at once, one gets it.
    writeFileSync(DEV_LOCK_FILE, JSON.stringify({ pid: process.pid, port }), { flag: holder ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw refuse(readHolder());
    throw error;
  }
  process.on('exit', () => {
    if (readHolder()?.pid === process.pid) rmSync(DEV_LOCK_FILE, { force: true });
  });
}
