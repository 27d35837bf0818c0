/**
 * The server's Firestore (firebase-admin): what the endpoints and the Stripe webhook write with.
 * Security rules do not apply to it, so firestore.rules can refuse every client write.
 */
import * as env from 'astro:env/server';
import { cert, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

let site: Firestore | undefined;
let apps = 0;

/**
 * The admin Firestore of FIREBASE_PROJECT_ID (at FIRESTORE_EMULATOR_HOST, else with FIREBASE_CLIENT_EMAIL +
 * FIREBASE_PRIVATE_KEY): the site's (astro:env, one a process), or a new one for `variables`.
 * @throws Error without project id or, for a real project, service account.
 */
export function adminFirestore(variables?: Partial<typeof env>): Firestore {
  if (!variables) return (site ??= adminFirestore(env));
  const projectId = variables.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) throw new Error('FIREBASE_PROJECT_ID is not set.');
  const host = variables.FIRESTORE_EMULATOR_HOST?.trim();
  const clientEmail = variables.FIREBASE_CLIENT_EMAIL?.trim();
  const privateKey = variables.FIREBASE_PRIVATE_KEY?.replace(/\\n/g, '\n').trim();
  if (!host && (!clientEmail || !privateKey)) {
    throw new Error(
      `FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY are not set for project "${projectId}": create a service ` +
        `account key (Firebase console › Project settings › Service accounts) and copy its client_email and ` +
        `private_key.`,
    );
  }
  const credential = host ? {} : { credential: cert({ projectId, clientEmail, privateKey }) };
  const db = getFirestore(initializeApp({ projectId, ...credential }, `site-${++apps}`));
  if (host) {
    // Without this the Google auth library first probes the metadata server (169.254.169.254).
    process.env.METADATA_SERVER_DETECTION = 'none';
    db.settings({ host, ssl: false });
  }
  return db;
}

/** Closes the site's client, if open (the next adminFirestore() opens another). For tests and shutdown. */
export async function closeAdminFirestore(): Promise<void> {
  const db = site;
  site = undefined;
  await db?.terminate().catch(() => undefined);
}
