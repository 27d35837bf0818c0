/**
 * The scripts beside `npm start` (outbox, retention, yearly-receipts, role, rebuild) find its embedded database, Auth
 * emulator, mail catcher and address as `npm run rebuild` finds its secret: once they are up, scripts/dev.ts records
 * those variables in its data lock (DEV_LOCK_FILE, beside its process id and port; no secret among them), and
 * {@link loadScriptEnvironment} reads them back when neither the environment nor .env names a project. A lock whose
 * process is gone is ignored.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEV_LOCK_FILE, processIsAlive } from './dev-guard.ts';

/** What a script needs of the running `npm start`: its database, sign-in emulator, mail and site address. */
const SESSION_VARIABLES = [
  'FIREBASE_PROJECT_ID',
  'FIRESTORE_EMULATOR_HOST',
  'FIREBASE_AUTH_EMULATOR_HOST',
  'SMTP_URL',
  'MAIL_FROM',
  'ASSOCIATION_EMAIL',
  'SITE_URL',
] as const;

/** The lock's contents: the holder, and the variables it recorded once started. */
interface DevLock {
  pid: number;
  port: number;
  env?: Partial<Record<(typeof SESSION_VARIABLES)[number], string>>;
}

const readLock = (): DevLock | undefined => {
  try {
    return JSON.parse(readFileSync(DEV_LOCK_FILE, 'utf8')) as DevLock;
  } catch {
    return undefined;
  }
};

/** Records `env`'s session variables in this process's lock (claimDevServer took it); nothing if another holds it. */
export function recordDevSession(env: NodeJS.ProcessEnv = process.env): void {
  const lock = readLock();
  if (lock?.pid !== process.pid) return;
  const recorded = Object.fromEntries(
    SESSION_VARIABLES.flatMap((name) => (env[name]?.trim() ? [[name, env[name]]] : [])),
  );
  writeFileSync(DEV_LOCK_FILE, JSON.stringify({ ...lock, env: recorded }));
}

/**
 * A script's environment: .env applies (the environment wins), then, when no project is named yet, the running
 * `npm start`'s variables fill what is unset, and `log` says so. Returns that server's process id, or undefined.
 */
export function loadScriptEnvironment(log: (line: string) => void = console.log): number | undefined {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (process.env.FIREBASE_PROJECT_ID?.trim()) return undefined;
  const lock = readLock();
  if (!lock?.env || !processIsAlive(lock.pid)) return undefined;
  for (const [name, value] of Object.entries(lock.env)) if (!process.env[name]?.trim()) process.env[name] = value;
  log(`Using \`npm start\` (process ${lock.pid}): its database at ${lock.env.FIRESTORE_EMULATOR_HOST ?? '?'}.`);
  return lock.pid;
}
