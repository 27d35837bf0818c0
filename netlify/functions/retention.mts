/**
 * Netlify Scheduled Function: every day, deletes the pre-registrations whose deletion date (12 months after the
 * decision) has passed (src/features/espace/retention.server.ts), as the privacy page promises, and the newsletter
 * sign-ups left unconfirmed 30 days (src/features/forms/newsletter-subscription.server.ts). `npm run retention` does
 * the same from a terminal. Reads the site's variables (FIREBASE_PROJECT_ID and the service account).
 */
import { purgeExpiredPreRegistrations } from '../../src/features/espace/retention.server.ts';
import { purgeUnconfirmedSignUps } from '../../src/features/forms/newsletter-subscription.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/**
 * Deletes what has expired; answers 200 with the counts (« <n> pre-registration(s), <m> unconfirmed sign-up(s)
 * deleted »), 500 (logged) on a failure, so Netlify shows it.
 */
export default async function retention(): Promise<Response> {
  try {
    const db = adminFirestoreOf(process.env);
    const preRegistrations = (await purgeExpiredPreRegistrations(db)).length;
    const signUps = await purgeUnconfirmedSignUps(db);
    const counts = `${preRegistrations} pre-registration(s), ${signUps} unconfirmed sign-up(s) deleted`;
    console.log(`[retention] ${counts}`);
    return new Response(counts);
  } catch (error) {
    console.error('[retention]', error);
    return new Response('failed', { status: 500 });
  }
}

/** Every day at 03:17 UTC (Netlify's cron syntax), outside working hours. */
export const config = { schedule: '17 3 * * *' };
