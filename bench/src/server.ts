/**
 * The built site served locally: the copy's own `scripts/serve-dist.ts`
 * (dist/ plus the built Netlify function), with its embedded Firestore
 * emulator (project demo-e2e) for the endpoints.
 */
import { spawnTracked, stopChild, waitForOutput } from './processes.ts';

/** Project id serve-dist gives its embedded emulator. */
export const SERVED_PROJECT_ID = 'demo-e2e';

/** A running local server. */
export interface LocalSite {
  /** e.g. `http://127.0.0.1:4500`. */
  url: string;
  /** `127.0.0.1:<port>` of its emulator, for FIRESTORE_EMULATOR_HOST. */
  emulatorAddress: string;
  /** The last 40 lines the server printed (its error log, for a failed request). */
  logTail(): string;
  /** Ends the server and its emulator. */
  stop(): Promise<void>;
}

/**
 * Starts `tsx scripts/serve-dist.ts <port>` in `dir` (a built copy of the project) and waits
 * until it listens. `firestore`: a port for its own embedded emulator (`--emulator`), or an
 * emulator already running (Google's), named to the function by FIRESTORE_EMULATOR_HOST.
 * @throws BenchError with its output when it does not start within 30 s.
 */
export async function serveBuiltSite(
  dir: string,
  port: number,
  firestore: number | { address: string; projectId: string },
): Promise<LocalSite> {
  const emulatorAddress = typeof firestore === 'number' ? `127.0.0.1:${firestore}` : firestore.address;
  const args = ['--import', 'tsx', 'scripts/serve-dist.ts', String(port)];
  const env = { ...process.env };
  if (typeof firestore === 'number') args.push('--emulator', emulatorAddress);
  else Object.assign(env, { FIREBASE_PROJECT_ID: firestore.projectId, FIRESTORE_EMULATOR_HOST: emulatorAddress });
  const child = spawnTracked(process.execPath, args, { cwd: dir, env });
  let lines: string[] = [];
  // Reading both pipes also keeps a chatty server from blocking on a full one.
  const keep = (chunk: Buffer) => (lines = [...lines, ...chunk.toString().split('\n').filter(Boolean)].slice(-40));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitForOutput(child, /dist\/ on http:\/\//, `scripts/serve-dist.ts on port ${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    emulatorAddress,
    logTail: () => lines.join('\n'),
    stop: () => stopChild(child),
  };
}
