/**
 * The Firebase Auth emulator of firebase-tools (auth only: it runs offline and needs no Java), for `npm start` and the
 * browser tests, with the demo staff accounts. Each run gets its own free ports (the emulator's, the hub's, the
 * logging's) and its own configuration in a temporary folder, so that runs side by side never collide.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Role } from '../../src/features/espace/roles.ts';
import { freePort } from './ports.ts';

/** The demo accounts' password (development only: no real project has these accounts). */
export const DEMO_PASSWORD = 'demo-espace-2026';

/** The demo staff accounts: one per role, `<role>@demo.test`. */
export const DEMO_ACCOUNTS: readonly { email: string; role: Role }[] = [
  { email: 'admin@demo.test', role: 'admin' },
  { email: 'admissions@demo.test', role: 'admissions' },
  { email: 'tresorerie@demo.test', role: 'tresorerie' },
  { email: 'edition@demo.test', role: 'edition' },
];

const firebaseBin = createRequire(import.meta.url)
  .resolve('firebase-tools/package.json')
  .replace(/package\.json$/, 'lib/bin/firebase.js');
/** Makes the emulator compile its request validators when first used rather than all at start-up (12–15 s of CPU). */
const lazyValidation = new URL('./auth-emulator-preload.mjs', import.meta.url).href;

/**
 * A running emulator: `address` (`127.0.0.1:<port>`, for FIREBASE_AUTH_EMULATOR_HOST), `stop()` (idempotent),
 * `stopNow()`.
 */
export type AuthEmulator = Awaited<ReturnType<typeof startAuthEmulator>>;

/**
 * Starts the Auth emulator for `projectId` on `port` (0: a free one) and waits until it answers (at most 120 s).
 * `niceness` (0–19, as nice(1)) lowers its CPU priority: `npm start` gives way to its first page.
 * @throws Error with the emulator's output when it exits or does not answer in time.
 */
export async function startAuthEmulator(projectId: string, port = 0, { niceness = 0 } = {}) {
  const host = '127.0.0.1';
  const authPort = port || (await freePort());
  const [hubPort, loggingPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'auth-emulator-'));
  const config = {
    emulators: {
      auth: { host, port: authPort },
      hub: { host, port: hubPort },
      logging: { host, port: loggingPort },
      ui: { enabled: false },
      singleProjectMode: true,
    },
  };
  writeFileSync(join(dir, 'firebase.json'), JSON.stringify(config));
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', join(dir, 'firebase.json')];
  // In our process group: a runner that kills the group (Playwright's web servers) ends it too; the auth emulator runs
  // inside the CLI's process. No update check, no analytics prompt.
  const child = spawn(process.execPath, ['--import', lazyValidation, firebaseBin, ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_ANALYTICS: '1', CI: process.env.CI ?? '' },
  });
  try {
    if (niceness && child.pid) setPriority(child.pid, niceness);
  } catch {
    // A system that refuses keeps it at normal priority: only slower.
  }
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const kill = (signal: NodeJS.Signals) => void child.kill(signal);
  const onExit = () => kill('SIGKILL');
  process.once('exit', onExit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (child.exitCode === null) {
      kill('SIGINT');
      await once(child, 'exit', { signal: AbortSignal.timeout(5000) }).catch(() => kill('SIGKILL'));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  /** Stops at once, synchronously (a process about to exit): SIGTERM, the folder removed. */
  const stopNow = () => {
    stopped = true;
    process.off('exit', onExit);
    kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const address = `${host}:${authPort}`;
  for (const deadline = Date.now() + 120_000; ; await sleep(250)) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the Firebase Auth emulator stopped:\n${output}`);
    }
    if ((await fetch(`http://${address}/`).catch(() => undefined))?.ok)
      return { host, port: authPort, address, stop, stopNow };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Firebase Auth emulator did not answer within 120 s:\n${output}`);
    }
  }
}

/**
 * Creates the demo accounts (DEMO_ACCOUNTS, DEMO_PASSWORD, each with its role) in the emulator at `address`, for
 * `projectId`. @throws Error when `address` is not an emulator's (it never writes to a real project).
 */
export async function createDemoAccounts(projectId: string, address: string): Promise<void> {
  if (!address) throw new Error('Demo accounts are created only in an Auth emulator.');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = address;
  // Loaded here: `npm start` starts Astro before the emulator answers, and firebase-admin is not needed until then.
  const [{ getAuth }, { adminApp }] = await Promise.all([
    import('firebase-admin/auth'),
    import('../../src/lib/firebase-app.server.ts'),
  ]);
  const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: projectId }, { emulated: true }));
  for (const { email, role } of DEMO_ACCOUNTS) {
    // Another process may create the same account at the same moment (parallel test workers): read it back then.
    const user = await auth
      .getUserByEmail(email)
      .catch(() => auth.createUser({ email, password: DEMO_PASSWORD, emailVerified: true }))
      .catch(() => auth.getUserByEmail(email));
    await auth.setCustomUserClaims(user.uid, { roles: [role] });
  }
}
