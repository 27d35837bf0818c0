/**
 * `npm run outbox` beside `npm start`: it finds npm start's embedded database and mail settings (recorded in its data
 * lock, scripts/lib/dev-session.ts) with nothing set by hand, and sends a mail queued while the local mail server was
 * down once the server is back. npm start's own schedule drains through the same function (scheduleOutboxDrain).
 * `npm start` runs in a temporary copy of the project, on free ports, its schedule off so that only the script sends.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { DEV_LOCK_FILE } from '../../scripts/lib/dev-guard';
import { scheduleOutboxDrain } from '../../scripts/lib/dev-mail';
import { freePort } from '../../scripts/lib/ports';
import { startSmtpCatcher, type SmtpCatcher } from '../../scripts/lib/smtp-catcher';
import { enqueueMails } from '../../src/features/mail/outbox.server';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server';

const root = resolve(import.meta.dirname, '../..');
let workspace: Workspace;
let server: ChildProcess;
let serverOutput = '';
let smtpPort: number;
let catcher: SmtpCatcher | undefined;
let firestore: Firestore;
let lock: { pid: number; env: Record<string, string> };
const testsDatabase = process.env.FIRESTORE_EMULATOR_HOST;

/** The environment of a newcomer's terminal: no project, no mail settings, no test variables. */
function bareEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(FIREBASE_|FIRESTORE_|SMTP_URL|MAIL_FROM|ASSOCIATION_|SITE_URL|REBUILD_SECRET|VITEST|NODE_ENV)/.test(name)) {
      delete env[name];
    }
  }
  return env;
}

/** Queues one mail to `to` in npm start's database, due now, as an endpoint does when the mail server is down. */
async function queue(id: string, to: string): Promise<void> {
  await firestore.runTransaction(async (transaction) => {
    enqueueMails(firestore, transaction, [
      { id, kind: 'test', to, subject: `Message ${id}`, html: '<p>Bonjour</p>', text: 'Bonjour' },
    ]);
  });
}

beforeAll(async () => {
  workspace = await createWorkspace(root, 'dev-outbox');
  smtpPort = await freePort();
  const env = {
    ...bareEnvironment(),
    // The local mail server, down for now: nothing listens on its port.
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // No Auth emulator: this test signs nobody in (a closed address, never called).
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${await freePort()}`,
  };
  const args = ['--port', String(await freePort()), '--firestore-port', String(await freePort())];
  server = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts', ...args, '--outbox-every', '0'], {
    cwd: workspace.dir,
    env,
    detached: true,
  });
  server.stdout!.on('data', (chunk: Buffer) => (serverOutput += chunk));
  server.stderr!.on('data', (chunk: Buffer) => (serverOutput += chunk));
  // Recorded once its database and mail are up, before astro dev starts.
  for (let waited = 0; !lock?.env; waited += 250) {
    if (waited > 170_000 || server.exitCode !== null) throw new Error(`npm start did not start:\n${serverOutput}`);
    await new Promise((done) => setTimeout(done, 250));
    try {
      lock = JSON.parse(readFileSync(join(workspace.dir, DEV_LOCK_FILE), 'utf8'));
    } catch {
      // Not written yet.
    }
  }
  // firebase-admin prefers FIRESTORE_EMULATOR_HOST to its settings: this file's database is npm start's.
  process.env.FIRESTORE_EMULATOR_HOST = lock.env.FIRESTORE_EMULATOR_HOST;
  firestore = adminFirestoreOf(lock.env);
}, 180_000);

afterAll(async () => {
  process.env.FIRESTORE_EMULATOR_HOST = testsDatabase;
  await firestore?.terminate();
  await catcher?.stop();
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  await new Promise((done) => setTimeout(done, 1500));
  await workspace?.remove();
});

describe('the outbox under npm start', () => {
  it('npm run outbox finds npm start’s database and mail, and sends a mail queued during an outage', async () => {
    await queue('pendant-la-panne', 'famille@exemple.fr');
    catcher = await startSmtpCatcher({ port: smtpPort });
    const { stdout } = await new Promise<{ stdout: string }>((done, fail) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/outbox.ts'],
        { cwd: workspace.dir, env: bareEnvironment(), timeout: 120_000 },
        (error, out, err) => (error ? fail(new Error(`${out}${err}`)) : done({ stdout: out })),
      ),
    );
    expect(stdout).toContain(
      `Using \`npm start\` (process ${lock.pid}): its database at ${lock.env.FIRESTORE_EMULATOR_HOST}.`,
    );
    expect(stdout).toContain('Outbox: 1 sent, 0 to retry later, 0 failed, 0 left for the next drain.');
    expect(catcher.mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [['famille@exemple.fr'], 'Message pendant-la-panne'],
    ]);
    expect((await firestore.collection('outbox').doc('pendant-la-panne').get()).get('state')).toBe('sent');
  });

  it('npm start’s schedule sends through the same drain on its own', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, lock.env);
    const stop = scheduleOutboxDrain(300);
    try {
      await queue('en-attente', 'donateur@exemple.fr');
      await expect.poll(() => catcher!.mails.length, { timeout: 30_000 }).toBe(2);
      expect(catcher!.mails[1]!.subject).toBe('Message en-attente');
    } finally {
      await stop();
      process.env = saved;
    }
  });
});
