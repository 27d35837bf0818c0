/**
 * `npm run seed`: writes the demo dataset (content/demo/, or CONTENT_DATASET's) into the Firestore
 * EMULATOR named by FIRESTORE_EMULATOR_HOST and FIREBASE_PROJECT_ID — for
 * trying the site on the official Firebase emulator. It refuses to run
 * without FIRESTORE_EMULATOR_HOST, so that it never writes to a real project.
 * It writes as the project's owner, which the official emulator lets through
 * firestore.rules (content collections are read-only to everyone else).
 */
import { connectFirestore, firestoreTargetFromEnv } from '../src/lib/firestore.server.ts';
import { exitWithError } from './lib/content-source.ts';
import { datasetDir, readSeedDirectory, seedDocuments } from './lib/seed.ts';

try {
  if (!process.env.FIRESTORE_EMULATOR_HOST) {
    throw new Error(
      'FIRESTORE_EMULATOR_HOST is not set: `npm run seed` only writes to an emulator, never to a real project.',
    );
  }
  const target = firestoreTargetFromEnv();
  const connection = connectFirestore(target, { emulatorOwner: true });
  const count = await seedDocuments(connection.db, await readSeedDirectory(datasetDir()));
  await connection.close();
  console.log(`${count} demo documents written to the emulator at ${target.host} (project ${target.projectId}).`);
  process.exit(0);
} catch (error) {
  exitWithError(error);
}
