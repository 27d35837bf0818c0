/** `npm run seed`: writes content/<CONTENT_DATASET or demo>/ into the emulator at FIRESTORE_EMULATOR_HOST as owner; refuses without one. */
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
  const [count] = await seedDataset(target);
  console.log(`${count} demo documents written to the emulator at ${target.host} (project ${target.projectId}).`);
  process.exit(0);
} catch (error) {
  exitWithError(error);
}
