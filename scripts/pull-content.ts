/**
 * `npm run pull`: writes src/data/*.json from Firestore (see scripts/lib/pull.ts), from the embedded demo database
 * without FIREBASE_PROJECT_ID. Exit status 0 on success, 1 on any failure (previous JSON left untouched).
 */
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';

await pullFromPreparedSource().then(() => process.exit(0), exitWithError);
