/**
 * The retention the privacy page promises, applied: pre-registrations whose `dateSuppression` (12 months after the
 * decision) has passed are deleted, each deletion logged; with them the newsletter sign-ups never confirmed and the
 * outbox's records (addresses, subjects) 30 days after their mail was queued (applyRetention). Run daily by the Netlify
 * Scheduled Function netlify/functions/retention.mts and on demand by `npm run retention`; reads no astro:env (it runs
 * outside Astro).
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { purgeOldMails } from '../mail/outbox.server';
import { purgeUnconfirmedSignUps } from '../newsletter/subscription.server';
import { recordAccess, type Actor } from '../espace/access-log.server';
import { deleteExpiredKeptPosts } from '../espace/kept-posts.server';

/** The actor the log names for the job. */
export const RETENTION_JOB: Actor = { uid: 'tache-conservation', email: 'Suppression automatique (12 mois)' };

/** Documents deleted per batch (Firestore allows 500 writes in one). */
const BATCH = 200;

/**
 * Deletes every `inscripitions` document whose `dateSuppression` is at or before `now`, and logs each id (its mails'
 * records left the outbox 30 days after the request: purgeOldMails).
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

/** What one retention run deleted, in documents. */
export interface RetentionReport {
  preRegistrations: number;
  signUps: number;
  mails: number;
  keptPosts: number;
}

/**
 * One retention run, as the daily job and `npm run retention` do it: the pre-registrations past their deletion date
 * (with their mails), the newsletter sign-ups unconfirmed 30 days, then every mail's record queued over 30 days ago
 * (docs/mail.md), and the posts kept after a session ended past their day (kept-posts.server.ts).
 * @throws the Firestore error (what was deleted before it stays deleted).
 */
export async function applyRetention(db: Firestore, now = new Date()): Promise<RetentionReport> {
  const preRegistrations = (await purgeExpiredPreRegistrations(db, now)).length;
  const signUps = await purgeUnconfirmedSignUps(db, now.getTime());
  const mails = await purgeOldMails(db, now);
  const keptPosts = await deleteExpiredKeptPosts(db, now.getTime());
  return { preRegistrations, signUps, mails, keptPosts };
}

/** The run's counts in a line of the job's log (English, as the functions' logs). */
export const retentionLine = ({ preRegistrations, signUps, mails, keptPosts }: RetentionReport) =>
  `${preRegistrations} pre-registration(s), ${signUps} unconfirmed sign-up(s), ${mails} outbox mail(s), ` +
  `${keptPosts} kept post(s) deleted`;
