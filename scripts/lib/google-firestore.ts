/**
 * Google's Firestore emulator (Debian's google-cloud-cli-firestore-emulator jar): real rules and transactions, for
 * tests and the bench.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.ts';

const EMULATOR_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

/**
 * The emulator's jar: FIRESTORE_EMULATOR_JAR, the Google Cloud CLI's, or the Firebase CLI's newest download; undefined
 * when none.
 */
export function findGoogleEmulatorJar(): string | undefined {
  const firebaseCache = join(homedir(), '.cache', 'firebase', 'emulators');
  const cached = existsSync(firebaseCache) ? readdirSync(firebaseCache).toSorted().toReversed() : [];
  const downloads = cached
    .filter((n) => /^cloud-firestore-emulator.*\.jar$/.test(n))
    .map((n) => join(firebaseCache, n));
  return [
    process.env.FIRESTORE_EMULATOR_JAR,
    '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar',
    ...downloads,
  ].find((candidate) => candidate && existsSync(candidate));
}

/** True when `java -version` runs. */
export function hasJava(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A running Google emulator: its port, `address` (`127.0.0.1:<port>`, for FIRESTORE_EMULATOR_HOST), `stop()` (SIGTERM,
 * SIGKILL after 5 s).
 */
export type GoogleFirestore = Awaited<ReturnType<typeof startGoogleFirestore>>;

/**
 * Starts the emulator of `jar` on a free loopback port; throws with its output when it exits or does not answer HTTP
 * within 60 s.
 */
export async function startGoogleFirestore(jar: string) {
  const port = await freePort();
  const args = ['-Duser.language=en', '-cp', jar, EMULATOR_CLASS, '--host=127.0.0.1', `--port=${port}`];
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit', { signal: AbortSignal.timeout(5000) }).catch(() => kill());
  };
  for (const deadline = Date.now() + 60_000; ; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`the Firestore emulator stopped: ${output}`);
    if ((await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.ok)
      return { port, address: `127.0.0.1:${port}`, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Firestore emulator did not answer within 60 s: ${output}`);
    }
  }
}
