/**
 * The content pipeline end to end: a Firestore emulator (the embedded one)
 * seeded through the SDK with a small fixture, the real pull code, and the
 * JSON it writes — plus the failure cases: unreachable host, invalid
 * document, empty database, each leaving the previous JSON byte-for-byte.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { PullError, pullContent } from '../../scripts/lib/pull';
import { seedDocuments } from '../../scripts/lib/seed';
import { connectFirestore, type FirestoreTarget } from '../../src/lib/firestore.server';
import { fixture } from '../fixtures/content';
import { closedPort } from '../fixtures/ports.ts';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '../..');
const tsx = join(projectRoot, 'node_modules/.bin/tsx');
const DATA_FILES = ['articles.json', 'categories.json', 'menus.json', 'partenaires.json'];

let emulator: EmbeddedFirestore;
let target: FirestoreTarget;
const roots: string[] = [];

/** A fresh project root in /tmp with src/data/ holding sentinel files. */
async function tempRoot(withPrevious = true): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pull-'));
  roots.push(root);
  await mkdir(join(root, 'src/data'), { recursive: true });
  if (withPrevious) {
    for (const name of DATA_FILES) await writeFile(join(root, 'src/data', name), `{"previous": "${name}"}\n`);
  }
  return root;
}

async function snapshotData(root: string): Promise<Record<string, string>> {
  const files = await readdir(join(root, 'src/data'));
  return Object.fromEntries(
    await Promise.all(files.map(async (name) => [name, await readFile(join(root, 'src/data', name), 'utf8')])),
  );
}

async function seed(emulatorTarget: FirestoreTarget, data: Parameters<typeof seedDocuments>[1]): Promise<void> {
  const connection = connectFirestore(emulatorTarget);
  await seedDocuments(connection.db, data);
  await connection.close();
}

beforeAll(async () => {
  emulator = await startEmbeddedFirestore();
  target = {
    projectId: 'demo-pipeline',
    apiKey: 'x',
    emulator: { host: emulator.host, port: emulator.port },
    host: emulator.address,
  };
  await seed(target, fixture);
});

afterAll(async () => {
  emulator?.stop();
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('pull', () => {
  it('writes one JSON per collection, normalised and validated', async () => {
    const root = await tempRoot();
    const lines: string[] = [];
    const summary = await pullContent({
      connect: () => connectFirestore(target),
      host: target.host,
      root,
      log: (line) => lines.push(line),
    });
    expect(summary).toEqual({ menus: 2, categories: 1, articles: 3, partenaires: 1 });
    expect(lines).toHaveLength(6);
    for (const line of lines.slice(0, 4))
      expect(line).toMatch(/^(menus|categories|articles|partenaires)\s+\d+ documents\s+\d+ ms$/);
    // The partner's logo /p.svg is not in this root's public/: left out and reported, the pull goes on.
    expect(lines[4]).toMatch(/^pictures\s+0 read\s+\d+ ms$/);
    expect(lines[5]).toContain('partenaires/boulangerie img.src: picture left out');
    const report = JSON.parse(await readFile(join(root, 'src/data/report.json'), 'utf8'));
    expect(report.pictures).toEqual({
      fetched: 0,
      failed: [
        {
          src: '/p.svg',
          collection: 'partenaires',
          id: 'boulangerie',
          field: 'img.src',
          reason: 'le fichier public/p.svg n’existe pas sur le site',
        },
      ],
    });
    expect(report.collections.articles).toEqual({ read: 3, shown: 3 });

    const articles = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
    expect(Object.keys(articles).sort()).toEqual(['adresse', 'news-1', 'news-2']);
    // A Timestamp becomes seconds; a numeric date stays as it was.
    expect(articles['news-1'].date).toBe(Date.UTC(2026, 9, 3, 9) / 1000);
    expect(articles['news-2'].date).toBe(1_700_000_000);
    // Schema defaults are applied; unknown fields are dropped.
    expect(articles['news-2']).toEqual({
      slug: '',
      cat: 'actualites',
      titre: 'Deuxième nouvelle',
      intro: '',
      contenu: '',
      date: 1_700_000_000,
    });
    const menus = JSON.parse(await readFile(join(root, 'src/data/menus.json'), 'utf8'));
    expect(menus.principal.liens[0]).toMatchObject({ titre: 'Contact', ordre: 2 });
    expect((await readdir(join(root, 'src/data'))).toSorted()).toEqual(
      [...DATA_FILES, 'pictures', 'pictures.json', 'report.json'].toSorted(),
    );
  });

  it('fails within 30 s naming the host when the database is unreachable, and writes nothing', async () => {
    const root = await tempRoot();
    const before = await snapshotData(root);
    const port = await closedPort();
    const unreachable: FirestoreTarget = {
      ...target,
      emulator: { host: '127.0.0.1', port },
      host: `127.0.0.1:${port}`,
    };
    const started = Date.now();
    const error = await pullContent({
      connect: () => connectFirestore(unreachable),
      host: unreachable.host,
      root,
      log: () => {},
      timeoutMs: 20_000,
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PullError);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await snapshotData(root)).toEqual(before);
  });

  it('fails naming collection, id and field for an invalid document, and writes nothing', async () => {
    const broken = await startEmbeddedFirestore();
    try {
      const brokenTarget = { ...target, emulator: { host: broken.host, port: broken.port }, host: broken.address };
      await seed(brokenTarget, {
        ...fixture,
        articles: { ...fixture.articles, casse: { titre: 'Cassé', img: { src: 12, alt: 'x' } } },
      });
      const root = await tempRoot();
      const before = await snapshotData(root);
      const error = await pullContent({
        connect: () => connectFirestore(brokenTarget),
        host: brokenTarget.host,
        root,
        log: () => {},
      }).catch((caught) => caught);
      expect(error).toBeInstanceOf(PullError);
      expect(error.message).toContain('articles/casse: field img.src');
      expect(error.message).toContain('nothing was written');
      expect(await snapshotData(root)).toEqual(before);
    } finally {
      broken.stop();
    }
  });

  it('refuses to publish an empty database', async () => {
    const empty = await startEmbeddedFirestore();
    try {
      const emptyTarget = { ...target, emulator: { host: empty.host, port: empty.port }, host: empty.address };
      const root = await tempRoot();
      const before = await snapshotData(root);
      const error = await pullContent({
        connect: () => connectFirestore(emptyTarget),
        host: emptyTarget.host,
        root,
        log: () => {},
      }).catch((caught) => caught);
      expect(error.message).toMatch(/menus: the collection is empty on 127\.0\.0\.1:\d+/);
      expect(await snapshotData(root)).toEqual(before);
    } finally {
      empty.stop();
    }
  });
});

describe('npm run pull (the command line)', () => {
  it('pulls from the emulator named by FIRESTORE_EMULATOR_HOST and FIREBASE_PROJECT_ID', async () => {
    const root = await tempRoot(false);
    const { stdout } = await run(tsx, [join(projectRoot, 'scripts/pull-content.ts')], {
      cwd: root,
      env: { ...process.env, FIREBASE_PROJECT_ID: target.projectId, FIRESTORE_EMULATOR_HOST: emulator.address },
    });
    expect(stdout).toContain(`Pulling content from Firestore at ${emulator.address} (project demo-pipeline)`);
    expect(stdout).toMatch(/articles\s+3 documents/);
    expect(JSON.parse(await readFile(join(root, 'src/data/categories.json'), 'utf8'))).toHaveProperty('actualites');
  });

  it('exits non-zero within 30 s naming the host when it is unreachable, leaving the files', async () => {
    const root = await tempRoot();
    const before = await snapshotData(root);
    const port = await closedPort();
    const started = Date.now();
    const error = await run(tsx, [join(projectRoot, 'scripts/pull-content.ts')], {
      cwd: root,
      env: { ...process.env, FIREBASE_PROJECT_ID: 'demo-x', FIRESTORE_EMULATOR_HOST: `127.0.0.1:${port}` },
      timeout: 40_000,
    }).catch((caught) => caught);
    expect(error.code).toBe(1);
    expect(error.stderr).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await snapshotData(root)).toEqual(before);
  });

  it('npm run seed writes the demo dataset into an emulator, and refuses without one', async () => {
    const fresh = await startEmbeddedFirestore();
    try {
      const { stdout } = await run(tsx, [join(projectRoot, 'scripts/seed.ts')], {
        cwd: projectRoot,
        env: { ...process.env, FIREBASE_PROJECT_ID: 'demo-seed', FIRESTORE_EMULATOR_HOST: fresh.address },
      });
      expect(stdout).toMatch(/^\d+ demo documents written to the emulator at 127\.0\.0\.1:\d+ \(project demo-seed\)\./);
      const freshTarget = {
        ...target,
        projectId: 'demo-seed',
        emulator: { host: fresh.host, port: fresh.port },
        host: fresh.address,
      };
      const summary = await pullContent({
        connect: () => connectFirestore(freshTarget),
        host: fresh.address,
        root: await tempRoot(),
        log: () => {},
      });
      expect(summary.partenaires).toBeGreaterThanOrEqual(10);
      expect(summary.menus).toBe(4);
    } finally {
      fresh.stop();
    }
    const refused = await run(tsx, [join(projectRoot, 'scripts/seed.ts')], {
      cwd: projectRoot,
      env: { ...process.env, FIREBASE_PROJECT_ID: 'mon-asso', FIREBASE_API_KEY: 'k', FIRESTORE_EMULATOR_HOST: '' },
    }).catch((caught) => caught);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('only writes to an emulator');
  });
});
