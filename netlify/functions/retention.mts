/**
 * Netlify Scheduled Function: every day, deletes the pre-registrations whose deletion date (12 months after the
 * decision) has passed (src/features/espace/retention.server.ts), as the privacy page promises. `npm run retention`
 * does the same from a terminal. Reads the site's variables (FIREBASE_PROJECT_ID and the service account).
 */
import { purgeExpiredPreRegistrations } from '../../src/features/espace/retention.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Deletes what has expired; answers 200 with the count, 500 (logged) on a failure, so Netlify shows it. */
export default async function retention(): Promise<Response> {
  try {
    const deleted = await purgeExpiredPreRegistrations(adminFirestoreOf(process.env));
    console.log(`[retention] ${deleted.length} pre-registration(s) deleted`);
    return new Response(`${deleted.length} deleted`);
  } catch (error) {
    console.error('[retention]', error);
    return new Response('failed', { status: 500 });
  }
}

/** Every day at 03:17 UTC (Netlify's cron syntax), outside working hours. */
export const config = { schedule: '17 3 * * *' };
