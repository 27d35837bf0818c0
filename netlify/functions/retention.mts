/**
 * Netlify Scheduled Function: every day, deletes what the site promised to delete (applyRetention in
 * src/features/admissions/retention.server.ts): the pre-registrations whose deletion date (12 months after the decision)
 * has passed, the newsletter sign-ups left unconfirmed 30 days, the outbox's records queued over 30 days ago.
 * `npm run retention` does the same from a terminal. Reads the site's variables (FIREBASE_PROJECT_ID and the service
 * account).
 */
import { applyRetention, retentionLine } from '../../src/features/admissions/retention.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Deletes what has expired; answers 200 with the counts (retentionLine), 500 (logged) on a failure. */
export default async function retention(): Promise<Response> {
  try {
    const counts = retentionLine(await applyRetention(adminFirestoreOf(process.env)));
    console.log(`[retention] ${counts}`);
    return new Response(counts);
  } catch (error) {
    console.error('[retention]', error);
    return new Response('failed', { status: 500 });
  }
}

/** Every day at 03:17 UTC (Netlify's cron syntax), outside working hours. */
export const config = { schedule: '17 3 * * *' };
