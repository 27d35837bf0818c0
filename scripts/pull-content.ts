/**
 * `npm run pull`: writes src/data/*.json from Firestore (see scripts/lib/pull.ts).
 * Without FIREBASE_PROJECT_ID it pulls from the embedded demo database.
 * Exit status 0 on success, 1 on any failure (previous JSON left untouched).
 */
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';

try {
  await pullFromPreparedSource();
  process.exit(0);
} catch (error) {
  exitWithError(error);
}
