/**
 * `npm run retention`: deletes now what the daily Netlify Scheduled Function deletes (netlify/functions/retention.mts:
 * decided pre-registrations after 12 months, sign-ups unconfirmed for 30 days, the outbox's records
 * after 30 days), and prints how many.
 * Database: FIREBASE_PROJECT_ID with the service account, or FIRESTORE_EMULATOR_HOST; .env applies.
 */
import { applyRetention, retentionLine } from '../src/features/admissions/retention.server.ts';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { exitWithError as fail } from './lib/content-source.ts';
import { loadScriptEnvironment } from './lib/dev-session.ts';

loadScriptEnvironment();
try {
  const db = adminFirestoreOf(process.env);
  console.log(`${retentionLine(await applyRetention(db))}.`);
  await db.terminate();
  process.exit(0);
} catch (error) {
  fail(error);
}
