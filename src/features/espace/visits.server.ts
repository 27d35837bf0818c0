/**
 * Each staff member's visits (collection `espaceComptes`, one document per account id): at sign-in the last visit
 * becomes the previous one, so that /espace shows what is new since then for the whole session.
 */
import { FieldValue, type Firestore } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { toDate } from '../admissions/admissions';
import type { StaffSession } from './auth.server';

const VISITS = 'espaceComptes';

/** Records a sign-in of `session` now (within 8 s); the visit before it becomes `visitePrecedente`. */
export async function recordSignIn(db: Firestore, session: StaffSession): Promise<void> {
  const ref = db.collection(VISITS).doc(session.uid);
  const before = await withDeadline(ref.get(), 8000);
  const previous = before.get('derniereVisite') ?? null;
  await withDeadline(
    ref.set({ email: session.email, visitePrecedente: previous, derniereVisite: FieldValue.serverTimestamp() }),
    8000,
  );
}

/** When `uid` signed in before this session, or undefined for a first visit. */
export async function previousVisit(db: Firestore, uid: string): Promise<Date | undefined> {
  const snapshot = await withDeadline(db.collection(VISITS).doc(uid).get(), 8000);
  return toDate(snapshot.get('visitePrecedente'));
}
