/**
 * The content's source for start, build and pull: FIREBASE_PROJECT_ID's project (.env applies, the environment wins),
 * else the embedded emulator seeded with content/<CONTENT_DATASET or demo>/, its address set in process.env.
 */
import { existsSync } from 'node:fs';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server.ts';
import type { ContentReport } from '../../src/content.config.ts';
import {
  countSentences,
  legalSentences,
  pictureSentences,
  problemSentences,
} from '../../src/features/content/publishing/report.ts';
import { EMBEDDED_PROJECT_ID, startEmbeddedFirestore } from './embedded-firestore.ts';
import { pullContent } from './pull.ts';
import { seedDataset } from './seed.ts';

export { exitWithError } from './exit-with-error.ts';

/**
 * Runs the pull against the database named by the environment and prints its report in the words of « Publier »;
 * throws as pullContent and firestoreTargetFromEnv.
 */
export async function pullFromEnvironment(log: (line: string) => void = console.log): Promise<ContentReport> {
  const target = firestoreTargetFromEnv();
  log(`Pulling content from Firestore at ${target.host} (project ${target.projectId})`);
  const report = await pullContent({ connect: () => connectFirestore(target), host: target.host, log });
  const lines = [
    ...countSentences(report),
    ...problemSentences(report),
    ...pictureSentences(report),
    ...legalSentences(report),
  ];
  for (const line of ['', ...lines]) log(line);
  return report;
}

/**
 * Prepares the source (embedded emulator on `firestorePort`, default free) and pulls; returns the emulator's stop(),
 * already called (also on a throw) unless `keepRunning`.
 */
export async function pullFromPreparedSource({ keepRunning = false, firestorePort = 0 } = {}): Promise<() => void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const started = performance.now();
  const emulator = process.env.FIREBASE_PROJECT_ID?.trim() ? undefined : await startEmbeddedFirestore(firestorePort);
  const stop = () => emulator?.stop();
  try {
    if (emulator) {
      process.env.FIREBASE_PROJECT_ID = EMBEDDED_PROJECT_ID;
      process.env.FIRESTORE_EMULATOR_HOST = emulator.address;
      const [count, dir] = await seedDataset(firestoreTargetFromEnv());
      const ms = Math.round(performance.now() - started);
      console.log(
        `Embedded Firestore on ${emulator.address} (project ${EMBEDDED_PROJECT_ID}): ${count} documents of ${dir} ` +
          `seeded in ${ms} ms`,
      );
    }
    await pullFromEnvironment();
  } catch (error) {
    stop();
    throw error;
  }
  if (!keepRunning) stop();
  return stop;
}
