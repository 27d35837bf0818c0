/**
 * « Publier » in the space (/espace/publication): an editor asks for a rebuild (requestRebuild: Netlify's build hook,
 * or under `npm start` a re-pull), and each request is recorded (collection `publications`: who, when, outcome) so
 * that the page can say when the last one was asked and by whom.
 */
import { FieldValue, Timestamp, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import type { StaffSession } from '../../espace/auth.server';
import { bounded } from '../../espace/server-calls.server';
import { assertEditor } from '../editing/editing';
import { nextRebuildAt, requestRebuild, type PublicationOutcome, type RebuildOptions } from './rebuild.server';

/** The requests' collection (no client reads it: firestore.rules). */
const PUBLICATIONS = 'publications';

/** A publish request: who asked, when, and what came of it. */
export interface PublicationRequest {
  qui: string;
  date: Date | undefined;
  /** `en-cours` until the rebuild answers (under `npm start`, until the pull has run). */
  resultat: PublicationOutcome | 'en-cours';
  /** For `attente`: when a publish would start again (the build hook's minute is over). */
  suivante?: Date | undefined;
}

/** A publish's outcome, and for `attente` when the next one can start. */
export interface Publication {
  outcome: PublicationOutcome;
  next?: Date | undefined;
}

/**
 * Asks for a rebuild as `session` and records it. @throws HttpError 403 unless an editor; 503 when the record cannot
 * be written within 8 s (before the rebuild is asked, or after: then its outcome stays « en cours »).
 */
export async function publish(
  session: StaffSession | undefined,
  options: Omit<RebuildOptions, 'secret'>,
): Promise<Publication> {
  assertEditor(session);
  // Recorded first: under `npm start` the dev server reloads the page when the pull rewrites the content, and the
  // page then shows this request « en cours » until its outcome is written.
  const entry = { uid: session.uid, qui: session.email, date: FieldValue.serverTimestamp(), resultat: 'en-cours' };
  const ref = await bounded('publication', adminFirestore().collection(PUBLICATIONS).add(entry));
  const resultat = await requestRebuild(options);
  const next = resultat === 'attente' ? await nextRebuildAt() : undefined;
  await bounded('publication', ref.update({ resultat, ...(next && { suivante: Timestamp.fromDate(next) }) }));
  return { outcome: resultat, next };
}

/** The query a page comes back with after a publish: `publication=<outcome>`, and `suivante=<seconds>` when waiting. */
export function publicationQuery({ outcome, next }: Publication): string {
  return `publication=${outcome}${next ? `&suivante=${Math.ceil(next.getTime() / 1000)}` : ''}`;
}

/** A stored request as PublicationRequest. */
function requestOf(document: QueryDocumentSnapshot): PublicationRequest {
  const date = document.get('date');
  return {
    qui: String(document.get('qui') ?? ''),
    date: date instanceof Timestamp ? date.toDate() : undefined,
    resultat: document.get('resultat') as PublicationRequest['resultat'],
    suivante: (document.get('suivante') as Timestamp | undefined)?.toDate?.(),
  };
}

/**
 * The last publish requests, newest first (at most `limit`, default 1). @throws HttpError 403, 503.
 */
export async function lastPublications(session: StaffSession | undefined, limit = 1): Promise<PublicationRequest[]> {
  assertEditor(session);
  const query = adminFirestore().collection(PUBLICATIONS).orderBy('date', 'desc').limit(limit);
  return (await bounded('publications', query.get())).docs.map(requestOf);
}

/** The last publish request, or undefined. @throws HttpError 403, 503. */
export async function lastPublication(session: StaffSession | undefined): Promise<PublicationRequest | undefined> {
  return (await lastPublications(session))[0];
}
