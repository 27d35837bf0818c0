/**
 * `npm start`: pull, and `astro dev` (`-- --port N`, default 4321) with no Content-Security-Policy. Astro starts at
 * once, beside the pull, and its content collections wait for src/data/ (src/lib/pull-gate.ts): its start-up no longer waits
 * for the seed and the pull. Before Astro, only what its environment names (ports, secret, the pull's hook) is set up;
 * the modules of the pull and of the mail catcher load after its spawn. Without FIREBASE_PROJECT_ID the embedded demo database (`-- --firestore-port N`, default
 * a free port) stays up for the session (endpoints write to it; POST /api/rebuild re-pulls from it through the
 * DEV_PULL_URL hook; without REBUILD_SECRET a session secret in DEV_SECRET_FILE lets `npm run rebuild` call it) and
 * stops on Ctrl-C. It first checks that its port is free and that no other `npm start` of the project holds src/data/
 * (scripts/lib/dev-guard.ts), and exits before touching anything. Without SMTP_URL a local mail catcher keeps the
 * site's mails (prepareDevMail). On the embedded database, unless FIREBASE_AUTH_EMULATOR_HOST is set, the staff
 * space signs in on a Firebase Auth emulator (`-- --auth-port N`) with the demo accounts (scripts/lib/auth-emulator.ts),
 * started beside Astro: the first page waits only for the pull. It drains the mail outbox every minute
 * (`-- --outbox-every <seconds>`, 0 never) and records where its database and mail are, so that `npm run outbox` and
 * the other scripts run beside it (scripts/lib/dev-session.ts). docs/architecture.md, « npm start waits only for what a
 * first page needs ».
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { enableCompileCache, flushCompileCache } from 'node:module';
import { dirname } from 'node:path';
import { DEV_SECRET_FILE, serveDevPull } from './lib/dev-pull.ts';
import { claimDevServer } from './lib/dev-guard.ts';
import { spawnAstro } from './lib/astro-cli.ts';
import { EMBEDDED_PROJECT_ID } from './lib/embedded-firestore.ts';
import { exitWithError } from './lib/exit-with-error.ts';
import { prepareDevMail, scheduleOutboxDrain } from './lib/dev-mail.ts';
import { recordDevSession } from './lib/dev-session.ts';
import { startDevAuth } from './lib/dev-auth.ts';
import { freePort } from './lib/ports.ts';
import { createPullGate, PULL_GATE_ENV } from '../src/lib/pull-gate.ts';

// As Astro's own CLI does: Node keeps the code it compiles for the modules loaded from here on (the pull's: Firebase's
// SDK, gRPC, the embedded emulator; the mail catcher's) in its cache in the OS's temporary folder, and the next start
// compiles them no more (about 0.6 s of CPU beside Astro's start-up). Not under CI, where it would never be read again.
if (!process.env.CI) enableCompileCache();

const args = process.argv.slice(2);
const firestorePortFlag = args.indexOf('--firestore-port');
const firestorePort = firestorePortFlag >= 0 ? Number(args.splice(firestorePortFlag, 2)[1]) : 0;
if (!Number.isInteger(firestorePort) || firestorePort < 0 || firestorePort > 65535) {
  exitWithError(new Error('--firestore-port needs a port number (0-65535)'));
}

const authPortFlag = args.indexOf('--auth-port');
const authPort = authPortFlag >= 0 ? Number(args.splice(authPortFlag, 2)[1]) : 0;

// The outbox's drain, as Netlify's scheduled function (which runs every 5 minutes): every minute, 0 never.
const drainFlag = args.indexOf('--outbox-every');
const drainSeconds = drainFlag >= 0 ? Number(args.splice(drainFlag, 2)[1]) : 60;
if (!Number.isFinite(drainSeconds) || drainSeconds < 0) {
  exitWithError(new Error('--outbox-every needs a number of seconds (0: never)'));
}

// Astro's own flag, read here too: the port must be free before the pull rewrites src/data/ and the secret.
const portFlag = args.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
const port = portFlag < 0 ? 4321 : Number(args[portFlag]!.split('=')[1] ?? args[portFlag + 1]);
await claimDevServer(port).catch(exitWithError);

// Read before the pull sets the embedded database's project id (.env first, as the pull reads it).
if (existsSync('.env')) process.loadEnvFile('.env');
const embedded = !process.env.FIREBASE_PROJECT_ID?.trim();

// The mail's address is set now, its catcher started after the pull (its modules are not needed to start Astro).
const startMail = await prepareDevMail(args);
// The sign-in's emulator starts beside the pull and Astro: no page waits for it, only /espace's sign-in.
const auth = await startDevAuth({ embedded, port: authPort }).catch(exitWithError);
// Its failure is reported once Astro runs (below); until then it must not end the process as an unhandled rejection.
auth.ready.catch(() => {});
// The embedded database's address is fixed before Astro starts with it: a free port unless --firestore-port.
const databasePort = embedded ? firestorePort || (await freePort()) : 0;
const databaseEnv = embedded
  ? { FIREBASE_PROJECT_ID: EMBEDDED_PROJECT_ID, FIRESTORE_EMULATOR_HOST: `127.0.0.1:${databasePort}` }
  : {};
const generatedSecret = !process.env.REBUILD_SECRET?.trim();
if (generatedSecret) {
  process.env.REBUILD_SECRET = randomBytes(32).toString('base64url');
  mkdirSync(dirname(DEV_SECRET_FILE), { recursive: true });
  writeFileSync(DEV_SECRET_FILE, `${process.env.REBUILD_SECRET}\n`, { mode: 0o600 });
}
// POST /api/rebuild re-pulls through this process: the site's code never imports the scripts.
const devPull = await serveDevPull();
process.env.DEV_PULL_URL = devPull.url;

let stopDatabase = () => {};
let stopMail = () => {};
let stopDrain = async () => {};
const gate = createPullGate();
/** Stops the database this process started, removes the session secret and exits with `code`. */
function exit(code: number): never {
  void stopDrain();
  devPull.close();
  stopDatabase();
  stopMail();
  auth.stop();
  gate.remove();
  if (generatedSecret) rmSync(DEV_SECRET_FILE, { force: true });
  process.exit(code);
}

const astro = spawnAstro(['dev', ...args], { ...process.env, ...databaseEnv, [PULL_GATE_ENV]: gate.file });
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = true;
    astro.kill(signal);
    // Give Astro a moment to close its server, then stop the database.
    setTimeout(() => exit(0), 500).unref();
  });
}
let failed = false;
/** Prints `error`, stops Astro, then everything this process started (exit status 1). */
function fail(error: unknown) {
  console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
  failed = true;
  if (astro.exitCode === null && astro.signalCode === null) astro.kill('SIGTERM');
  else exit(1);
}
auth.ready.catch(fail);
astro.on('exit', (code) => exit(failed ? 1 : stopping ? 0 : (code ?? 0)));

// The pull's modules load once Astro runs: its start-up and the seed share the machine's cores.
const [{ pullFromPreparedSource }, { ALLOW_LOOPBACK_ENV }] = await Promise.all([
  import('./lib/content-source.ts'),
  import('./lib/picture-fetch.ts'),
]);
// Pictures uploaded from the space are served by this dev server on loopback, over http: the pull may read them.
process.env[ALLOW_LOOPBACK_ENV] ??= '1';
try {
  stopDatabase = await pullFromPreparedSource({ keepRunning: true, firestorePort: databasePort });
} catch (error) {
  fail(error);
}
if (!failed) {
  gate.open();
  console.log(
    `Rebuild: \`npm run rebuild\` (POST /api/rebuild) re-pulls the content; secret: ` +
      `${generatedSecret ? `generated for this session in ${DEV_SECRET_FILE}` : 'REBUILD_SECRET'}`,
  );
  // After the gate, which Astro's content waits for; a mail sent before it listens waits for the outbox's next drain.
  stopMail = await startMail().catch((error: unknown) => {
    fail(error);
    return () => {};
  });
}
if (!failed) {
  // Written now: a session that ends on a signal never reaches the write at exit.
  if (!process.env.CI) flushCompileCache();
  // `npm run outbox` and the other scripts find this session's database and mail (scripts/lib/dev-session.ts).
  recordDevSession();
  stopDrain = scheduleOutboxDrain(drainSeconds * 1000);
}
