/**
 * « Publier » in the space (/espace/publication): an editor asks for a rebuild (requestRebuild: Netlify's build hook,
 * or under `npm start` a re-pull), and each request is recorded (collection `publications`: who, when, outcome) so
 * that the page can say when the last one was asked and by whom.
 */
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import type { StaffSession } from '../../espace/auth.server';
import { bounded } from '../../espace/server-calls.server';
import { assertEditor } from '../editing/editing';
import { requestRebuild, type PublicationOutcome, type RebuildOptions } from './rebuild.server';

/** The requests' collection (no client reads it: firestore.rules). */
const PUBLICATIONS = 'publications';

/** A publish request: who asked, when, and what came of it. */
export interface PublicationRequest {
  qui: string;
  date: Date | undefined;
  /** `en-cours` until the rebuild answers (under `npm start`, until the pull has run). */
  resultat: PublicationOutcome | 'en-cours';
}

/**
 * Asks for a rebuild as `session` and records it. @throws HttpError 403 unless an editor; 503 when the record cannot
 * be written within 8 s (before the rebuild is asked, or after: then its outcome stays « en cours »).
 */
export async function publish(
  session: StaffSession | undefined,
  options: Omit<RebuildOptions, 'secret'>,
): Promise<PublicationOutcome> {
  assertEditor(session);
  // Recorded first: under `npm start` the dev server reloads the page when the pull rewrites the content, and the
  // page then shows this request « en cours » until its outcome is written.
  const entry = { uid: session.uid, qui: session.email, date: FieldValue.serverTimestamp(), resultat: 'en-cours' };
  const ref = await bounded('publication', adminFirestore().collection(PUBLICATIONS).add(entry));
  const resultat = await requestRebuild(options);
  await bounded('publication', ref.update({ resultat }));
  return resultat;
}

/** The last publish request, or undefined. @throws HttpError 403, 503. */
export async function lastPublication(session: StaffSession | undefined): Promise<PublicationRequest | undefined> {
  assertEditor(session);
  const query = adminFirestore().collection(PUBLICATIONS).orderBy('date', 'desc').limit(1);
  const [last] = (await bounded('publications', query.get())).docs;
  if (!last) return undefined;
  const date = last.get('date');
  return {
    qui: String(last.get('qui') ?? ''),
    date: date instanceof Timestamp ? date.toDate() : undefined,
    resultat: last.get('resultat') as PublicationRequest['resultat'],
  };
}
