/**
 * `npm run retention`: deletes now the pre-registrations whose deletion date (12 months after the decision) has
 * passed and the newsletter sign-ups left unconfirmed 30 days, as the daily Netlify Scheduled Function does
 * (netlify/functions/retention.mts), and prints how many.
 * Database: FIREBASE_PROJECT_ID with the service account, or FIRESTORE_EMULATOR_HOST; .env applies.
 */
import { existsSync } from 'node:fs';
import { purgeExpiredPreRegistrations } from '../src/features/espace/retention.server.ts';
import { purgeUnconfirmedSignUps } from '../src/features/forms/newsletter-subscription.server.ts';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { exitWithError as fail } from './lib/content-source.ts';

if (existsSync('.env')) process.loadEnvFile('.env');
try {
  const db = adminFirestoreOf(process.env);
  const deleted = await purgeExpiredPreRegistrations(db);
  console.log(`${deleted.length} pre-registration(s) deleted (12 months after the decision).`);
  console.log(`${await purgeUnconfirmedSignUps(db)} newsletter sign-up(s) deleted (unconfirmed for 30 days).`);
  await db.terminate();
  process.exit(0);
} catch (error) {
  fail(error);
}
