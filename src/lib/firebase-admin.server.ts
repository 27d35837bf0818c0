/**
 * The server's Firestore (firebase-admin): what the endpoints and the Stripe webhook write with.
 * Security rules do not apply to it, so firestore.rules can refuse every client write.
 */
import * as env from 'astro:env/server';
import type { Firestore } from 'firebase-admin/firestore';
import { adminFirestoreOf } from './firebase-app.server';

let site: Firestore | undefined;

/**
 * The admin Firestore of FIREBASE_PROJECT_ID (adminFirestoreOf): the site's (astro:env, one a process), or a new one
 * for `variables`. @throws Error without project id or, for a real project, service account.
 */
export function adminFirestore(variables?: Partial<typeof env>): Firestore {
  if (!variables) return (site ??= adminFirestoreOf(env));
  return adminFirestoreOf(variables);
}

/** Closes the site's client, if open (the next adminFirestore() opens another). For tests and shutdown. */
export async function closeAdminFirestore(): Promise<void> {
  const db = site;
  site = undefined;
  await db?.terminate().catch(() => undefined);
}
