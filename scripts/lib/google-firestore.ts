/**
 * Google's Cloud Firestore emulator (Debian's google-cloud-cli-firestore-emulator, a Java jar): the
 * real rules engine and transaction semantics, for the rules tests and `npm run bench`. Started on a
 * free loopback port, rules loaded with `PUT /emulator/v1/projects/<id>:securityRules`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

const EMULATOR_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

/** The emulator's jar: FIRESTORE_EMULATOR_JAR, the Google Cloud CLI's, or the Firebase CLI's download; undefined when none. */
export function findGoogleEmulatorJar(): string | undefined {
  const candidates = [
    process.env.FIRESTORE_EMULATOR_JAR,
    '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar',
  ];
  const firebaseCache = join(homedir(), '.cache', 'firebase', 'emulators');
  if (existsSync(firebaseCache)) {
    const jars = readdirSync(firebaseCache).filter((name) => /^cloud-firestore-emulator.*\.jar$/.test(name));
    candidates.push(
      ...jars
        .sort()
        .reverse()
        .map((name) => join(firebaseCache, name)),
    );
  }
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

/** True when `java -version` runs. */
export function hasJava(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/** A loopback port the OS just gave (the emulator's `--port=0` does not say which it took). */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A running Google emulator. */
export interface GoogleFirestore {
  port: number;
  /** `127.0.0.1:<port>`, the value for FIRESTORE_EMULATOR_HOST. */
  address: string;
  /** Ends the Java process (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** Starts the emulator of `jar` on a free loopback port; throws with its output when it exits or does not answer HTTP within 60 s. */
export async function startGoogleFirestore(jar: string): Promise<GoogleFirestore> {
  const port = await freeLoopbackPort();
  const child = spawn(
    'java',
    ['-Duser.language=en', '-cp', jar, EMULATOR_CLASS, '--host=127.0.0.1', `--port=${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    kill();
  };
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`the Firestore emulator stopped: ${output}`);
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { port, address: `127.0.0.1:${port}`, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Firestore emulator did not answer within 60 s: ${output}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}
