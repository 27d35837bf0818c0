/**
 * The embedded default database: an in-process Firestore emulator (@firestore-emulator/server, gRPC) on a
 * free loopback port, used when FIREBASE_PROJECT_ID is not set.
 */
import { createRequire } from 'node:module';
import { FirestoreServer } from '@firestore-emulator/server';

/** Project id used against the embedded emulator (a `demo-` id never reaches Google). */
export const EMBEDDED_PROJECT_ID = 'demo-petitspas';

/** A running embedded emulator. */
export interface EmbeddedFirestore {
  /** Always 127.0.0.1. */
  host: string;
  /** The free port the OS gave. */
  port: number;
  /** `host:port`, the value for FIRESTORE_EMULATOR_HOST. */
  address: string;
  /** Stops the server at once (idempotent). */
  stop(): void;
}

/** Starts the emulator on 127.0.0.1 and `port` (default 0: a free port); throws when the port cannot be bound. */
export async function startEmbeddedFirestore(port = 0): Promise<EmbeddedFirestore> {
  const server = new FirestoreServer();
  // FirestoreServer.start() binds 0.0.0.0 on a fixed port; we want loopback only
  // and a free port, so we bind its gRPC server ourselves, with the grpc-js copy
  // the emulator was built against (credentials objects are not shared across copies).
  const requireFromEmulator = createRequire(createRequire(import.meta.url).resolve('@firestore-emulator/server'));
  const { ServerCredentials } = requireFromEmulator('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const grpcServer = (server as unknown as { server: import('@grpc/grpc-js').Server }).server;
  const boundPort = await new Promise<number>((resolvePort, reject) => {
    grpcServer.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolvePort(boundPort),
    );
  });
  let stopped = false;
  return {
    host: '127.0.0.1',
    port: boundPort,
    address: `127.0.0.1:${boundPort}`,
    stop() {
      if (stopped) return;
      stopped = true;
      server.stop();
    },
  };
}
