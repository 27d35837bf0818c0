/**
 * firebase-admin from plain variables, without astro:env: what the site's client (firebase-admin.server.ts), the
 * Netlify scheduled functions and `npm run outbox` share.
 */
import { cert, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

/** The variables a server's Firestore client reads (the names of .env.example). */
export type AdminFirestoreVariables = Partial<
  Record<'FIREBASE_PROJECT_ID' | 'FIRESTORE_EMULATOR_HOST' | 'FIREBASE_CLIENT_EMAIL' | 'FIREBASE_PRIVATE_KEY', string>
>;

let apps = 0;

/**
 * A new admin Firestore of FIREBASE_PROJECT_ID, at FIRESTORE_EMULATOR_HOST, else with FIREBASE_CLIENT_EMAIL +
 * FIREBASE_PRIVATE_KEY (its literal `\n` turned into newlines), in an app of its own.
 * @throws Error without project id or, for a real project, without the service account.
 */
export function adminFirestoreFrom(variables: AdminFirestoreVariables): Firestore {
  const projectId = variables.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) throw new Error('FIREBASE_PROJECT_ID is not set.');
  const host = variables.FIRESTORE_EMULATOR_HOST?.trim();
  const clientEmail = variables.FIREBASE_CLIENT_EMAIL?.trim();
  const privateKey = variables.FIREBASE_PRIVATE_KEY?.replace(/\\n/g, '\n').trim();
  if (!host && (!clientEmail || !privateKey)) {
    throw new Error(
      `FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY are not set for project "${projectId}": create a service account key (Firebase console › Project settings › Service accounts) and copy its client_email and private_key.`,
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
