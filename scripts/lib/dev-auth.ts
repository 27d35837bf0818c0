/**
 * `npm start`'s sign-in for the staff space: on the embedded demo database and without FIREBASE_AUTH_EMULATOR_HOST, a
 * Firebase Auth emulator with the demo accounts, its address set in process.env for the dev server. With a real
 * project (FIREBASE_PROJECT_ID) the space signs in on that project's Firebase Authentication: no demo account there.
 */
import { EMBEDDED_PROJECT_ID } from './embedded-firestore.ts';
import { createDemoAccounts, DEMO_ACCOUNTS, DEMO_PASSWORD, startAuthEmulator } from './auth-emulator.ts';
import { freePort } from './ports.ts';

/** The sign-in being prepared: `ready` settles once it can be used, `stop()` ends what was started (synchronously). */
export interface DevAuth {
  /** Resolves once the demo accounts exist (at once when no emulator is started); rejects when it cannot start. */
  ready: Promise<void>;
  /** Stops the emulator if it is running; one still starting is ended with this process. */
  stop: () => void;
}

/**
 * Sets the emulator's address (`port`, 0: a free one) in process.env at once, so that the dev server can start beside
 * it, then starts it and creates the demo accounts; prints how to sign in when ready.
 * @throws Error when `port` is not a port number.
 */
export async function startDevAuth({ embedded, port }: { embedded: boolean; port: number }): Promise<DevAuth> {
  const given = process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
  if (given || !embedded) {
    console.log(
      `Espace (/espace): ${given ? `Firebase Auth emulator at ${given}` : 'Firebase Authentication of the project'}; ` +
        'no demo account created.',
    );
    return { ready: Promise.resolve(), stop: () => {} };
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--auth-port needs a port number (0-65535)');
  const projectId = EMBEDDED_PROJECT_ID;
  const authPort = port || (await freePort());
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${authPort}`;
  let stop = () => {};
  const ready = (async () => {
    // Below Astro's priority: the emulator's start-up (about 5 s of CPU) would otherwise delay the first page.
    const emulator = await startAuthEmulator(projectId, authPort, { niceness: 10 });
    stop = emulator.stopNow;
    await createDemoAccounts(projectId, emulator.address).catch(async (error: unknown) => {
      await emulator.stop();
      throw error;
    });
    const accounts = DEMO_ACCOUNTS.map(({ email }) => email).join(', ');
    console.log(
      `Espace (/espace): Firebase Auth emulator on ${emulator.address}; ` +
        `demo accounts ${accounts}, password ${DEMO_PASSWORD}`,
    );
  })();
  return { ready, stop: () => stop() };
}
