/**
 * firebase-admin apps from a set of variables, without astro:env: the site (src/lib/firebase-admin.server.ts), the
 * terminal scripts (`npm run role`, `npm run retention`) and the Netlify scheduled function build theirs here.
 */
import { randomUUID } from 'node:crypto';
import { cert, initializeApp, type App } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

/** The variables an admin app reads (astro:env's or process.env's names). */
export interface AdminVariables {
  FIREBASE_PROJECT_ID?: string | undefined;
  FIREBASE_CLIENT_EMAIL?: string | undefined;
  FIREBASE_PRIVATE_KEY?: string | undefined;
  FIRESTORE_EMULATOR_HOST?: string | undefined;
  FIREBASE_AUTH_EMULATOR_HOST?: string | undefined;
}

/**
 * Each app's name is new for the process: a module evaluated again (the dev server reloads it after a pull) must not
 * get the app of an earlier evaluation back, whose Firestore refuses `settings()` a second time.
 */
const appName = () => `site-${randomUUID()}`;

/**
 * A new firebase-admin app of FIREBASE_PROJECT_ID, with the service account FIREBASE_CLIENT_EMAIL +
 * FIREBASE_PRIVATE_KEY, or none when every service it talks to is an emulator (`emulated`).
 * @throws Error without project id or, for a real project, without the service account.
 */
export function adminApp(variables: AdminVariables, { emulated }: { emulated: boolean }): App {
  const projectId = variables.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) throw new Error('FIREBASE_PROJECT_ID is not set.');
  const clientEmail = variables.FIREBASE_CLIENT_EMAIL?.trim();
  const privateKey = variables.FIREBASE_PRIVATE_KEY?.replace(/\\n/g, '\n').trim();
  if (!emulated && (!clientEmail || !privateKey)) {
    throw new Error(
      `FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY are not set for project "${projectId}": ` +
        'create a service account key (Firebase console › Project settings › Service accounts) ' +
        'and copy its client_email and private_key.',
    );
  }
  // Without this the Google auth library first probes the metadata server (169.254.169.254).
  if (emulated) process.env.METADATA_SERVER_DETECTION = 'none';
  const credential = emulated ? {} : { credential: cert({ projectId, clientEmail, privateKey }) };
  return initializeApp({ projectId, ...credential }, appName());
}

/** A new admin Firestore of `variables` (at FIRESTORE_EMULATOR_HOST when set). @throws Error as adminApp. */
export function adminFirestoreOf(variables: AdminVariables): Firestore {
  const host = variables.FIRESTORE_EMULATOR_HOST?.trim();
  const db = getFirestore(adminApp(variables, { emulated: Boolean(host) }));
  if (host) db.settings({ host, ssl: false });
  return db;
}
