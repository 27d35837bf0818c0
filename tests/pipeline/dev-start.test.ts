/**
 * `npm start` beside another dev server of the same project: it refuses, with a clear message, before it touches
 * src/data/ or the session secret, whether the other server holds its port or the project's data. Run in a temporary
 * copy of the project, whose src/data/ and .astro/rebuild-secret stand for the other server's.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { DEV_LOCK_FILE } from '../../scripts/lib/dev-guard';
import { DEV_SECRET_FILE } from '../../scripts/lib/dev-pull';
import { freePort } from '../../scripts/lib/ports';

const root = resolve(import.meta.dirname, '../..');
const OTHER_DATA = '{"other-server":{"titre":"Ses données"}}\n';
const OTHER_SECRET = 'the-other-servers-secret\n';
let workspace: Workspace;
let taken: Server;
let takenPort: number;

/** `scripts/dev.ts` with `args` in the copy, on the embedded database and without REBUILD_SECRET. */
function start(args: string[]): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, FIREBASE_PROJECT_ID: '', FIRESTORE_EMULATOR_HOST: '' };
  delete env.REBUILD_SECRET;
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/dev.ts', ...args],
      { cwd: workspace.dir, env, timeout: 60_000 },
      (_error, stdout, stderr) => done({ code: child.exitCode, output: `${stdout}${stderr}` }),
    );
  });
}

const otherServersFiles = async () =>
  Promise.all([
    readFile(join(workspace.dir, 'src/data/articles.json'), 'utf8'),
    readFile(join(workspace.dir, DEV_SECRET_FILE), 'utf8'),
  ]);

beforeAll(async () => {
  workspace = await createWorkspace(root, 'dev-start');
  taken = createServer();
  takenPort = await freePort();
  await new Promise<void>((done) => taken.listen(takenPort, '127.0.0.1', done));
}, 120_000);

beforeEach(async () => {
  await mkdir(join(workspace.dir, 'src/data'), { recursive: true });
  await mkdir(join(workspace.dir, '.astro'), { recursive: true });
  await writeFile(join(workspace.dir, 'src/data/articles.json'), OTHER_DATA);
  await writeFile(join(workspace.dir, DEV_SECRET_FILE), OTHER_SECRET);
});

afterAll(async () => {
  await new Promise((done) => taken?.close(done));
  await workspace?.remove();
});

describe('npm start beside another dev server', () => {
  it('exits when its port is taken, saying so, and leaves src/data/ and the secret alone', async () => {
    const { code, output } = await start(['--port', String(takenPort)]);
    expect(code).toBe(1);
    expect(output).toContain(`✖ port ${takenPort} on 127.0.0.1 is taken`);
    expect(output).toContain('Nothing was changed.');
    expect(output).not.toContain('Pulling content');
    expect(await otherServersFiles()).toEqual([OTHER_DATA, OTHER_SECRET]);
  });

  it('exits when another npm start of the project holds the data, even on a free port', async () => {
    // This test's process stands for the running server: a live process id in the lock.
    await writeFile(join(workspace.dir, DEV_LOCK_FILE), JSON.stringify({ pid: process.pid, port: takenPort }));
    const { code, output } = await start(['--port', String(await freePort())]);
    expect(code).toBe(1);
    expect(output).toContain(`✖ another \`npm start\` of this project (process ${process.pid}, port ${takenPort})`);
    expect(output).toContain('Nothing was changed.');
    expect(await otherServersFiles()).toEqual([OTHER_DATA, OTHER_SECRET]);
  });
});
