/**
 * Where the content comes from for `npm start`, `npm run build` and `npm run pull`: FIREBASE_PROJECT_ID's
 * project when set, else the embedded emulator seeded with content/demo/ (or content/<CONTENT_DATASET>/),
 * whose address is then set in process.env for the pull and child processes.
 */
import { existsSync } from 'node:fs';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server.ts';
import { EMBEDDED_PROJECT_ID, startEmbeddedFirestore } from './embedded-firestore.ts';
import type { ContentReport } from '../../src/content.config.ts';
import { pullContent } from './pull.ts';
import { formatReport } from './report.ts';
import { datasetDir, readSeedDirectory, seedDocuments } from './seed.ts';

/** The prepared source; `stop()` stops the embedded emulator if one was started. */
export interface ContentSource {
  embedded: boolean;
  stop(): void;
}

/**
 * Prepares the content source (see module doc). Variables of a local `.env` file apply (the environment wins).
 * `firestorePort`: the embedded emulator's port (default 0: a free one).
 */
async function prepareContentSource(
  log: (line: string) => void = console.log,
  firestorePort = 0,
): Promise<ContentSource> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (process.env.FIREBASE_PROJECT_ID?.trim()) return { embedded: false, stop() {} };
  const started = performance.now();
  const emulator = await startEmbeddedFirestore(firestorePort);
  process.env.FIREBASE_PROJECT_ID = EMBEDDED_PROJECT_ID;
  process.env.FIRESTORE_EMULATOR_HOST = emulator.address;
  const connection = connectFirestore(firestoreTargetFromEnv());
  try {
    const dir = datasetDir();
    const count = await seedDocuments(connection.db, await readSeedDirectory(dir));
    log(
      `Embedded Firestore on ${emulator.address} (project ${EMBEDDED_PROJECT_ID}): ${count} documents of ${dir} seeded in ${Math.round(performance.now() - started)} ms`,
    );
  } catch (error) {
    emulator.stop();
    throw error;
  } finally {
    await connection.close();
  }
  return { embedded: true, stop: () => emulator.stop() };
}

/**
 * Runs the pull against the database named by the environment and prints its report as tables.
 * @throws PullError / Error (see pullContent, firestoreTargetFromEnv).
 */
export async function pullFromEnvironment(log: (line: string) => void = console.log): Promise<ContentReport> {
  const target = firestoreTargetFromEnv();
  log(`Pulling content from Firestore at ${target.host} (project ${target.projectId})`);
  const report = await pullContent({ connect: () => connectFirestore(target), host: target.host, log });
  log('');
  for (const line of formatReport(report)) log(line);
  return report;
}

/**
 * Prepares the source and pulls from it (pull, build, start); a started emulator is stopped afterwards (also
 * on a throw) unless `keepRunning` (npm start: endpoints write to it).
 */
export async function pullFromPreparedSource({ keepRunning = false, firestorePort = 0 } = {}): Promise<ContentSource> {
  const source = await prepareContentSource(console.log, firestorePort);
  try {
    await pullFromEnvironment();
  } catch (error) {
    source.stop();
    throw error;
  }
  if (!keepRunning) source.stop();
  return source;
}

/** Prints an error for a terminal and exits with status 1. */
export function exitWithError(error: unknown): never {
  console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
