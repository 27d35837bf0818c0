/** Firestore through the `firebase` web SDK, for the scripts (the content pull, the seed), which run outside Astro. */
import { deleteApp, initializeApp } from 'firebase/app';
import { connectFirestoreEmulator, getFirestore, setLogLevel } from 'firebase/firestore';
import { withDeadline } from './deadline';

/** Where the content lives: `host` names it in messages (`127.0.0.1:8080`, `firestore.googleapis.com`). */
export interface FirestoreTarget {
  projectId: string;
  apiKey: string;
  emulator?: { host: string; port: number };
  host: string;
}

/** Parses `host:port` (IPv6 in brackets allowed: `[::1]:8080`). @throws Error when the value has no valid port. */
export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`FIRESTORE_EMULATOR_HOST must be host:port (for example 127.0.0.1:8080), got "${value}".`);
  }
  return { host: match[1] as string, port };
}

/**
 * The target `env` names. @throws Error without FIREBASE_PROJECT_ID, or for a real project without FIREBASE_API_KEY.
 */
export function firestoreTargetFromEnv(env: NodeJS.ProcessEnv = process.env): FirestoreTarget {
  const projectId = env.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) {
    throw new Error(
      'FIREBASE_PROJECT_ID is not set. Set it (with FIREBASE_API_KEY, or FIRESTORE_EMULATOR_HOST for an emulator), ' +
        'or use `npm start` / `npm run build` without it to run on the embedded demo database.',
    );
  }
  const emulatorValue = env.FIRESTORE_EMULATOR_HOST?.trim();
  if (emulatorValue) {
    const emulator = parseHostPort(emulatorValue);
    return { projectId, apiKey: env.FIREBASE_API_KEY ?? 'emulator', emulator, host: emulatorValue };
  }
  const apiKey = env.FIREBASE_API_KEY?.trim();
  if (!apiKey) {
    throw new Error(
      `FIREBASE_API_KEY is not set for project "${projectId}". Copy it from the Firebase console (Project settings › ` +
        `Your apps › Web app config).`,
    );
  }
  return { projectId, apiKey, host: 'firestore.googleapis.com' };
}

/** An open connection: `db`, and `close()` (deletes the app within 2 s) so that Node can exit. */
export type FirestoreConnection = ReturnType<typeof connectFirestore>;

let appCounter = 0;

/**
 * A client for `target` in an app of its own (tests hold several); `emulatorOwner`: act as the emulator's owner, past
 * firestore.rules (`npm run seed`).
 */
export function connectFirestore(target: FirestoreTarget, options: { emulatorOwner?: boolean } = {}) {
  // The SDK logs every retry against an unreachable backend; our own errors say it better.
  setLogLevel('silent');
  const app = initializeApp(
    { projectId: target.projectId, apiKey: target.apiKey },
    `site-${process.pid}-${++appCounter}`,
  );
  const db = getFirestore(app);
  if (target.emulator) {
    const owner = options.emulatorOwner ? { mockUserToken: 'owner' as const } : {};
    connectFirestoreEmulator(db, target.emulator.host, target.emulator.port, owner);
  }
  return { db, close: () => withDeadline(deleteApp(app), 2000).catch(() => {}) };
}
