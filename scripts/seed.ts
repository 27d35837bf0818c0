/**
 * `npm run seed`: writes content/<CONTENT_DATASET or demo>/ into the emulator at FIRESTORE_EMULATOR_HOST as owner;
 * refuses without one.
 */
import { firestoreTargetFromEnv } from '../src/lib/firestore.server.ts';
import { exitWithError } from './lib/content-source.ts';
import { seedDataset } from './lib/seed.ts';

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  exitWithError(
    'FIRESTORE_EMULATOR_HOST is not set: `npm run seed` only writes to an emulator, never to a real project.',
  );
}
const target = await Promise.try(firestoreTargetFromEnv).catch(exitWithError);
const [count] = await seedDataset(target).catch(exitWithError);
console.log(`${count} demo documents written to the emulator at ${target.host} (project ${target.projectId}).`);
process.exit(0);
