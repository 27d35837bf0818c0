/**
 * `npm run role -- <email> <role>` gives a staff account a role of the space (admin, admissions, tresorerie,
 * edition); `npm run role -- <email> <role> --remove` takes it away. For the first admin, who then manages roles in
 * /espace/roles (which invites everyone else). A missing account is created (no password: the person signs in with a
 * link sent by email, then may choose one in « Mon compte »). Its sessions are revoked: the person signs in again.
 * Project: FIREBASE_PROJECT_ID with the service account (FIREBASE_CLIENT_EMAIL, FIREBASE_PRIVATE_KEY), or the emulator
 * at FIREBASE_AUTH_EMULATOR_HOST; .env applies, the environment wins.
 */
import { parseArgs } from 'node:util';
import { getAuth } from 'firebase-admin/auth';
import { setRole } from '../src/features/espace/accounts.server.ts';
import { isRole, ROLES } from '../src/features/espace/roles.ts';
import { adminApp } from '../src/lib/firebase-app.server.ts';
import { exitWithError as fail } from './lib/content-source.ts';
import { loadScriptEnvironment } from './lib/dev-session.ts';

const USAGE = `Usage: npm run role -- <email> <role> [--remove]   (role: ${ROLES.join(', ')})`;

const { values, positionals } = parseArgs({
  options: { remove: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [email, role] = positionals;
if (!email || !role || positionals.length !== 2) fail(USAGE);
if (!isRole(role)) fail(`"${role}" is not a role of the space. ${USAGE}`);
loadScriptEnvironment();

const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
try {
  const auth = getAuth(adminApp(process.env, { emulated: Boolean(emulator) }));
  // The first admin's account is made here when it does not exist yet: they sign in with a link sent by email.
  const created = values.remove
    ? false
    : await auth.getUserByEmail(email.trim()).then(
        () => false,
        async (error: { code?: string }) => {
          if (error.code !== 'auth/user-not-found') throw error;
          await auth.createUser({ email: email.trim() });
          return true;
        },
      );
  const { roles, sessionsClosed } = await setRole(auth, email, role, !values.remove);
  const where = emulator ? `the Auth emulator at ${emulator}` : `project ${process.env.FIREBASE_PROJECT_ID}`;
  if (!sessionsClosed)
    fail(`${email} (${where}): the role changed, but their sessions could not be closed. Run again.`);
  console.log(`${email} (${where}): ${roles.length > 0 ? roles.join(', ') : 'no role'}. Their sessions are closed.`);
  if (created)
    console.log('Account created: sign in with « Recevoir un lien de connexion par email » on /espace/connexion.');
  process.exit(0);
} catch (error) {
  fail(error);
}
