/**
 * The retention the privacy page promises, applied: pre-registrations whose `dateSuppression` (12 months after the
 * decision) has passed are deleted, each deletion logged. Run daily by the Netlify Scheduled Function
 * netlify/functions/retention.mts and on demand by `npm run retention`; reads no astro:env (it runs outside Astro).
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { recordAccess, type Actor } from './access-log.server';

/** The actor the log names for the job. */
export const RETENTION_JOB: Actor = { uid: 'tache-conservation', email: 'Suppression automatique (12 mois)' };

/** Documents deleted per batch (Firestore allows 500 writes in one). */
const BATCH = 200;

/**
 * Deletes every `inscripitions` document whose `dateSuppression` is at or before `now`, and logs each id.
 * Returns the deleted ids. @throws the Firestore error (nothing half-logged: a batch is deleted, then logged).
 */
export async function purgeExpiredPreRegistrations(db: Firestore, now = new Date()): Promise<string[]> {
  const deleted: string[] = [];
  for (;;) {
    const expired = await db
      .collection('inscripitions')
      .where('dateSuppression', '<=', Timestamp.fromDate(now))
      .limit(BATCH)
      .get();
    if (expired.empty) return deleted;
    const batch = db.batch();
    for (const document of expired.docs) batch.delete(document.ref);
    await batch.commit();
    for (const document of expired.docs) {
      await recordAccess(db, RETENTION_JOB, 'suppression', `inscripitions/${document.id}`);
      deleted.push(document.id);
    }
    if (expired.size < BATCH) return deleted;
  }
}
