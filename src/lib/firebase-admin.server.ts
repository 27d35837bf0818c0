/**
 * The server's Firestore (firebase-admin): what the endpoints and the Stripe webhook write with.
 * Security rules do not apply to it, so firestore.rules can refuse every client write.
 */
import { cert, deleteApp, getApps, initializeApp, type App } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

let current: { app: App; key: string } | undefined;

/**
 * The process's admin Firestore for FIREBASE_PROJECT_ID: through FIRESTORE_EMULATOR_HOST without
 * credentials, else with the service account FIREBASE_CLIENT_EMAIL + FIREBASE_PRIVATE_KEY (literal
 * `\n` turned back into newlines; three variables stay under Netlify Functions' 4 KB limit).
 * @throws Error when the project id or, for a real project, the service account is missing.
 */
export function adminFirestore(env: NodeJS.ProcessEnv = process.env): Firestore {
  const projectId = env.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) throw new Error('FIREBASE_PROJECT_ID is not set.');
  const emulator = env.FIRESTORE_EMULATOR_HOST?.trim();
  // Without this the Google auth library first probes the metadata server (169.254.169.254).
  if (emulator) env.METADATA_SERVER_DETECTION = 'none';
  const key = JSON.stringify([projectId, emulator, env.FIREBASE_CLIENT_EMAIL]);
  if (current?.key !== key) {
    const previous = current?.app;
    if (previous) void deleteApp(previous).catch(() => undefined);
    current = {
      app: initializeApp(appOptions(projectId, emulator, env), `site-${getApps().length}-${Date.now()}`),
      key,
    };
  }
  return getFirestore(current.app);
}

function appOptions(projectId: string, emulator: string | undefined, env: NodeJS.ProcessEnv) {
  if (emulator) return { projectId };
  const clientEmail = env.FIREBASE_CLIENT_EMAIL?.trim();
  const privateKey = env.FIREBASE_PRIVATE_KEY?.replace(/\\n/g, '\n').trim();
  if (!clientEmail || !privateKey) {
    throw new Error(
      `FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY are not set for project "${projectId}": create a service account key (Firebase console › Project settings › Service accounts) and copy its client_email and private_key.`,
    );
  }
  return { projectId, credential: cert({ projectId, clientEmail, privateKey }) };
}

/** Deletes the process's admin app, if any (the next adminFirestore() opens a new one). For tests and shutdown. */
export async function closeAdminFirestore(): Promise<void> {
  const previous = current?.app;
  current = undefined;
  if (previous) await deleteApp(previous).catch(() => undefined);
}
