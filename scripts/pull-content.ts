/**
 * `npm run pull`: writes src/data/*.json from Firestore (scripts/lib/pull.ts); exit 1 on any failure, the previous JSON
 * untouched.
 */
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';

await pullFromPreparedSource().then(() => process.exit(0), exitWithError);
