/**
 * `npm start`: pull, then `astro dev` (`-- --port N`, default 4321), with no Content-Security-Policy. Without
 * FIREBASE_PROJECT_ID the embedded demo database (`-- --firestore-port N`, default a free port) stays up for the
 * session (endpoints write to it; POST /api/rebuild re-pulls from it through the DEV_PULL_URL hook; without
 * REBUILD_SECRET a session secret in DEV_SECRET_FILE lets `npm run rebuild` call it) and stops on Ctrl-C. It first
 * checks that its port is free and that no other `npm start` of the project holds src/data/ (scripts/lib/dev-guard.ts),
 * and exits before touching anything. Without SMTP_URL a local mail catcher keeps the site's mails
 * (startDevMailCatcher). On the embedded database, unless FIREBASE_AUTH_EMULATOR_HOST is set, the staff space signs in
 * on a Firebase Auth emulator (`-- --auth-port N`) with the demo accounts (scripts/lib/auth-emulator.ts), started
 * beside Astro: the first page waits only for the pull. It drains the mail outbox every minute
 * (`-- --outbox-every <seconds>`, 0 never) and records where its database and mail are, so that `npm run outbox` and
 * the other scripts run beside it (scripts/lib/dev-session.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEV_SECRET_FILE, serveDevPull } from './lib/dev-pull.ts';
import { claimDevServer } from './lib/dev-guard.ts';
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';
import { scheduleOutboxDrain, startDevMailCatcher } from './lib/dev-mail.ts';
import { recordDevSession } from './lib/dev-session.ts';
import { startDevAuth } from './lib/dev-auth.ts';
import { ALLOW_LOOPBACK_ENV } from './lib/picture-fetch.ts';

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
// Pictures uploaded from the space are served by this dev server on loopback, over http: the pull may read them.
process.env[ALLOW_LOOPBACK_ENV] ??= '1';
const embedded = !process.env.FIREBASE_PROJECT_ID?.trim();

const stopMail = await startDevMailCatcher(args);
// The sign-in's emulator starts beside the pull and Astro (6–9 s): no page waits for it, only /espace's sign-in.
const auth = await startDevAuth({ embedded, port: authPort }).catch((error: unknown) => {
  stopMail();
  exitWithError(error);
});
// Its failure is reported once Astro runs (below); until then it must not end the process as an unhandled rejection.
auth.ready.catch(() => {});
const stopDatabase = await pullFromPreparedSource({ keepRunning: true, firestorePort }).catch((error: unknown) => {
  auth.stop();
  stopMail();
  exitWithError(error);
});
const generatedSecret = !process.env.REBUILD_SECRET?.trim();
if (generatedSecret) {
  process.env.REBUILD_SECRET = randomBytes(32).toString('base64url');
  mkdirSync(dirname(DEV_SECRET_FILE), { recursive: true });
  writeFileSync(DEV_SECRET_FILE, `${process.env.REBUILD_SECRET}\n`, { mode: 0o600 });
}
// POST /api/rebuild re-pulls through this process: the site's code never imports the scripts.
const devPull = await serveDevPull();
process.env.DEV_PULL_URL = devPull.url;
// `npm run outbox` and the other scripts find this session's database and mail (scripts/lib/dev-session.ts).
recordDevSession();
const stopDrain = scheduleOutboxDrain(drainSeconds * 1000);
console.log(
  `Rebuild: \`npm run rebuild\` (POST /api/rebuild) re-pulls the content; secret: ` +
    `${generatedSecret ? `generated for this session in ${DEV_SECRET_FILE}` : 'REBUILD_SECRET'}`,
);

/** Stops the database this process started, removes the session secret and exits with `code`. */
function exit(code: number): never {
  void stopDrain();
  devPull.close();
  stopDatabase();
  stopMail();
  auth.stop();
  if (generatedSecret) rmSync(DEV_SECRET_FILE, { force: true });
  process.exit(code);
}

const astro = spawnAstro(['dev', ...args]);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = true;
    astro.kill(signal);
    // Give Astro a moment to close its server, then stop the database.
    setTimeout(() => exit(0), 500).unref();
  });
}
let authFailed = false;
auth.ready.catch((error: unknown) => {
  console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
  authFailed = true;
  astro.kill('SIGTERM');
});
astro.on('exit', (code) => exit(authFailed ? 1 : stopping ? 0 : (code ?? 0)));
