/**
 * `npm run seed`: writes the demo dataset (or CONTENT_DATASET's) into the emulator named by
 * FIRESTORE_EMULATOR_HOST and FIREBASE_PROJECT_ID, as the project's owner; refuses without an emulator host.
 */
import { firestoreTargetFromEnv } from '../src/lib/firestore.server.ts';
import { exitWithError } from './lib/content-source.ts';
import { seedDataset } from './lib/seed.ts';

try {
  if (!process.env.FIRESTORE_EMULATOR_HOST) {
    throw new Error(
      'FIRESTORE_EMULATOR_HOST is not set: `npm run seed` only writes to an emulator, never to a real project.',
    );
  }
  const target = firestoreTargetFromEnv();
  const [count] = await seedDataset(target, true);
  console.log(`${count} demo documents written to the emulator at ${target.host} (project ${target.projectId}).`);
  process.exit(0);
} catch (error) {
  exitWithError(error);
}
