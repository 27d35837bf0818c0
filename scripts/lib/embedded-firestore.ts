/**
 * The embedded default database: an in-process Firestore emulator (@firestore-emulator/server, gRPC), when
 * FIREBASE_PROJECT_ID is not set.
 */
import { createRequire } from 'node:module';
import type { Server } from '@grpc/grpc-js';

/** Project id used against the embedded emulator (a `demo-` id never reaches Google). */
export const EMBEDDED_PROJECT_ID = 'demo-petitspas';

/**
 * A running embedded emulator: host 127.0.0.1, its port, `address` (`host:port`, for FIRESTORE_EMULATOR_HOST), `stop()`
 * (idempotent).
 */
export type EmbeddedFirestore = Awaited<ReturnType<typeof startEmbeddedFirestore>>;

/** Starts the emulator on 127.0.0.1 and `port` (default 0: a free port); throws when the port cannot be bound. */
export async function startEmbeddedFirestore(port = 0) {
  // Loaded here: `npm start` reads EMBEDDED_PROJECT_ID before it starts Astro, and the emulator only after.
  const { FirestoreServer } = await import('@firestore-emulator/server');
  const server = new FirestoreServer();
  // start() binds 0.0.0.0 on a fixed port: we bind its gRPC server on loopback ourselves, with the grpc-js copy
  // the emulator was built against (credentials objects are not shared across copies).
  const requireFromEmulator = createRequire(createRequire(import.meta.url).resolve('@firestore-emulator/server'));
  const { ServerCredentials } = requireFromEmulator('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const boundPort = await new Promise<number>((resolvePort, reject) => {
    (server as unknown as { server: Server }).server.bindAsync(
      `127.0.0.1:${port}`,
      ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolvePort(bound)),
    );
  });
  return { host: '127.0.0.1', port: boundPort, address: `127.0.0.1:${boundPort}`, stop: () => server.stop() };
}
