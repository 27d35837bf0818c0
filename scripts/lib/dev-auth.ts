/**
 * `npm start`'s sign-in for the staff space: on the embedded demo database and without FIREBASE_AUTH_EMULATOR_HOST, a
 * Firebase Auth emulator with the demo accounts, its address set in process.env for the dev server. With a real
 * project (FIREBASE_PROJECT_ID) the space signs in on that project's Firebase Authentication: no demo account there.
 */
import { EMBEDDED_PROJECT_ID } from './embedded-firestore.ts';
import { createDemoAccounts, DEMO_ACCOUNTS, DEMO_PASSWORD, startAuthEmulator } from './auth-emulator.ts';

/**
 * Starts what the options call for and prints how to sign in; returns a stop() for the emulator it started (if any).
 */
export async function startDevAuth({ embedded, port }: { embedded: boolean; port: number }): Promise<() => void> {
  const given = process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
  if (given || !embedded) {
    console.log(
      `Espace (/espace): ${given ? `Firebase Auth emulator at ${given}` : 'Firebase Authentication of the project'}; ` +
        'no demo account created.',
    );
    return () => {};
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--auth-port needs a port number (0-65535)');
  const projectId = EMBEDDED_PROJECT_ID;
  const emulator = await startAuthEmulator(projectId, port);
  await createDemoAccounts(projectId, emulator.address).catch(async (error: unknown) => {
    await emulator.stop();
    throw error;
  });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.address;
  const accounts = DEMO_ACCOUNTS.map(({ email }) => email).join(', ');
  console.log(
    `Espace (/espace): Firebase Auth emulator on ${emulator.address}; ` +
      `demo accounts ${accounts}, password ${DEMO_PASSWORD}`,
  );
  return emulator.stopNow;
}
