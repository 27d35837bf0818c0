/**
 * The pull end to end against the embedded emulator, with a small fixture and content/original: the JSON
 * and report it writes, bad documents left out, and failures that leave the previous JSON byte-for-byte.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { pullContent } from '../../scripts/lib/pull';
import { readSeedDirectory, seedDocuments } from '../../scripts/lib/seed';
import { connectFirestore, type FirestoreTarget } from '../../src/lib/firestore.server';
import { legalSentences, problemSentences } from '../../src/features/content/publishing/report';
import { fixture } from '../fixtures/content';
import { closedPort } from '../../scripts/lib/ports.ts';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '../..');
const tsx = join(projectRoot, 'node_modules/.bin/tsx');
const DATA_FILES = [
  'articles.json',
  'association.json',
  'categories.json',
  'menus.json',
  'partenaires.json',
  'report.json',
];

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

/** Runs `body` against a fresh emulator seeded with `data`; `pull` pulls into `root` (previous files in `before`). */
async function withDatabase(
  data: Parameters<typeof seedDocuments>[1],
  body: (pull: () => ReturnType<typeof pullContent>, root: string, before: Record<string, string>) => Promise<void>,
): Promise<void> {
  const database = await startEmbeddedFirestore();
  try {
    const databaseTarget = {
      ...target,
      emulator: { host: database.host, port: database.port },
      host: database.address,
    };
    await seed(databaseTarget, data);
    const root = await tempRoot();
    const before = await snapshotData(root);
    const pull = () =>
      pullContent({ connect: () => connectFirestore(databaseTarget), host: databaseTarget.host, root, log: () => {} });
    await body(pull, root, before);
  } finally {
    database.stop();
  }
}

describe('pull', () => {
  it('writes one JSON per collection, normalised and validated', async () => {
    const root = await tempRoot();
    const lines: string[] = [];
    const report = await pullContent({
      connect: () => connectFirestore(target),
      host: target.host,
      root,
      log: (line) => lines.push(line),
    });
    expect(report.collections).toEqual({
      menus: { read: 2, shown: 2 },
      categories: { read: 1, shown: 1 },
      articles: { read: 6, shown: 6 },
      partenaires: { read: 1, shown: 1 },
      association: { read: 0, shown: 0 },
    });
    expect(report.problems).toEqual([]);
    expect(JSON.parse(await readFile(join(root, 'src/data/report.json'), 'utf8'))).toEqual(report);
    expect(Math.abs(report.generatedAt - Date.now() / 1000)).toBeLessThan(120);
    expect(lines).toHaveLength(7);
    for (const line of lines.slice(0, 5))
      expect(line).toMatch(/^(menus|categories|articles|partenaires|association)\s+\d+ documents\s+\d+ ms$/);
    // The partner's logo /p.svg is not in this root's public/: left out and reported, the pull goes on.
    expect(lines[5]).toMatch(/^pictures\s+0 read\s+\d+ ms$/);
    expect(lines[6]).toContain('partenaires/boulangerie img.src: picture left out');
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

    const articles = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
    expect(Object.keys(articles).sort()).toEqual(['accessibilite', 'adresse', 'mentions', 'news-1', 'news-2', 'rgpd']);
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
      [...DATA_FILES, 'pictures', 'pictures.json'].toSorted(),
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
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await snapshotData(root)).toEqual(before);
  });

  it('leaves out an invalid document, reports why, and publishes the rest', async () => {
    await withDatabase(
      { ...fixture, articles: { ...fixture.articles, casse: { titre: 'Cassé', date: 'hier', img: { src: 12 } } } },
      async (pull, root) => {
        const report = await pull();
        expect(report.collections.articles).toEqual({ read: 7, shown: 6 });
        expect(report.problems).toEqual([
          {
            collection: 'articles',
            id: 'casse',
            titre: 'Cassé',
            field: 'date',
            reason: 'sa date est illisible',
            leftOut: 'document',
          },
        ]);
        const articles = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
        expect(Object.keys(articles)).not.toContain('casse');
      },
    );
  });

  it('publishes without articles/adresse, and reports it', async () => {
    const { adresse: _, ...articles } = fixture.articles;
    await withDatabase({ ...fixture, articles }, async (pull) => {
      const report = await pull();
      expect(report.collections.articles).toEqual({ read: 5, shown: 5 });
      expect(report.problems).toEqual([
        expect.objectContaining({ collection: 'articles', id: 'adresse', leftOut: 'document' }),
      ]);
    });
  });

  it('reports each legal page it leaves to the site to write, with what the law asks that is missing', async () => {
    const { mentions: _, rgpd: __, ...articles } = fixture.articles;
    await withDatabase(
      { ...fixture, articles: { ...articles, rgpd: { titre: 'Données personnelles', date: 'hier' } } },
      async (pull, root) => {
        const report = await pull();
        // An invalid one: why it was left out; the page is written by the site all the same.
        expect(problemSentences(report)).toEqual([
          'L’article « Données personnelles » n’est pas publié : sa date est illisible.',
        ]);
        expect(legalSentences(report)).toEqual([
          'La page « Mentions légales » est écrite par le site, faute d’article « mentions » publié ; il y manque le ' +
            'nom du directeur ou de la directrice de la publication, que la loi exige (LCEN, article 6) : à écrire ' +
            'dans l’espace, page « L’association et ses textes », partie « Reçus fiscaux et textes des pages ».',
          'La page « Données personnelles » est écrite par le site, faute d’article « rgpd » publié.',
        ]);
        expect(JSON.parse(await readFile(join(root, 'src/data/report.json'), 'utf8'))).toEqual(report);
        const written = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
        expect(Object.keys(written).sort()).toEqual(['accessibilite', 'adresse', 'news-1', 'news-2']);
      },
    );
  });

  it('refuses when menus/pied is missing or left out, or no article can be shown, and writes nothing', async () => {
    const { pied: _, ...menus } = fixture.menus;
    await withDatabase({ ...fixture, menus }, async (pull, root, before) => {
      const error = await pull().catch((caught) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(/menus\/pied: the document is missing on 127\.0\.0\.1:\d+; the layout needs it/);
      expect(error.message).toContain('nothing was written');
      expect(await snapshotData(root)).toEqual(before);
    });
    await withDatabase({ ...fixture, menus: { ...fixture.menus, pied: { liens: 'Mentions' } } }, async (pull) => {
      const error = await pull().catch((caught) => caught);
      expect(error.message).toContain('menus/pied: the document is missing');
      expect(error.message).toContain('left out: pied liens — ses liens ne sont pas une liste');
    });
    await withDatabase(
      { ...fixture, articles: { vide: { titre: '' }, date: { titre: 'D', date: 'demain' } } },
      async (pull, root, before) => {
        const error = await pull().catch((caught) => caught);
        expect(error.message).toMatch(/articles: no article can be published from 127\.0\.0\.1:\d+/);
        expect(error.message).toContain('date date — sa date est illisible');
        expect(await snapshotData(root)).toEqual(before);
      },
    );
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
      expect(error.message).toMatch(/menus\/principal: the document is missing on 127\.0\.0\.1:\d+/);
      expect(error.message).toContain('articles: no article can be published');
      expect(await snapshotData(root)).toEqual(before);
    } finally {
      empty.stop();
    }
  });
});

describe("pull of the original admin's dataset (content/original)", () => {
  it('publishes every valid document, normalised, and reports the rest in French', async () => {
    await withDatabase(await readSeedDirectory('content/original'), async (pull, root) => {
      const report = await pull();
      expect(report.collections).toEqual({
        menus: { read: 4, shown: 4 },
        categories: { read: 5, shown: 5 },
        articles: { read: 13, shown: 11 },
        partenaires: { read: 4, shown: 4 },
        association: { read: 0, shown: 0 },
      });
      expect(
        report.problems.map(({ leftOut, collection, id, field, reason }) => [
          leftOut,
          `${collection}/${id}`,
          field,
          reason,
        ]),
      ).toEqual([
        ['link', 'menus/principal', 'liens.2.children.4.href', 'son adresse (href) est vide'],
        [
          'link',
          'menus/reseaux',
          'liens.2.titre',
          'il n’a pas de titre et son pictogramme n’a pas de description (alt)',
        ],
        ['document', 'articles/brouillon-casse', 'date', 'sa date est illisible'],
        ['document', 'articles/sans-titre', 'titre', 'son titre est vide'],
        ['field', 'partenaires/imprimerie', 'img.src', 'l’adresse de son image n’est pas un texte'],
      ]);
      // The original admin never wrote the legal pages: the site writes them and says what the law still asks for.
      expect(legalSentences(report)).toEqual([
        expect.stringContaining('« mentions » publié ; il y manque le nom du directeur ou de la directrice'),
        'La page « Données personnelles » est écrite par le site, faute d’article « rgpd » publié.',
        'La page « Accessibilité » est écrite par le site, faute d’article « accessibilite » publié.',
      ]);
      const read = async (name: string) => JSON.parse(await readFile(join(root, 'src/data', name), 'utf8'));
      const articles = await read('articles.json');
      // A fraction, milliseconds, numeric text, ISO text and Timestamps all become whole seconds.
      expect(articles['rentree-2026'].date).toBe(1_788_249_600);
      expect(articles['course-solidaire'].date).toBe(1_781_539_200);
      expect(articles['fete-hiver'].date).toBe(1_765_022_400);
      expect(articles['portes-ouvertes'].date).toBe(Date.UTC(2026, 2, 7, 9) / 1000);
      expect(articles['atelier-mdph'].date).toBe(Date.UTC(2026, 0, 20, 17, 30) / 1000);
      expect(articles['nos-valeurs']).not.toHaveProperty('date');
      // '' images are none; gs:// paths become Storage download URLs; unknown fields are dropped.
      expect(articles['atelier-mdph']).not.toHaveProperty('img');
      expect(articles.adresse).not.toHaveProperty('imgContenu');
      expect(articles['rentree-2026'].imgContenu.src).toBe(
        'https://firebasestorage.googleapis.com/v0/b/petitspas-ensemble.appspot.com/o/' +
          'actualites%2Frentree-2026%20salle.jpg?alt=media',
      );
      expect(articles['notre-histoire']).not.toHaveProperty('auteur');
      const menus = await read('menus.json');
      expect(menus.reseaux.liens[0]).toEqual({
        titre: 'Facebook',
        href: 'https://www.facebook.com/petitspasensemble',
        target: '_blank',
        statut: true,
        ordre: 1,
        exergue: false,
        picto: { src: '/contenu/pictos/facebook.svg', alt: 'Facebook' },
        children: [],
        iconOnly: true,
      });
      expect(menus.principal.liens[3]).toMatchObject({ titre: 'Nous soutenir', ordre: 4, exergue: true });
      expect(menus.principal.liens[5]).toMatchObject({ titre: 'Boutique', statut: false });
      expect(menus.principal).not.toHaveProperty('schema');
      expect(menus.divers.schema.src).toMatch(/^https:\/\/docs\.google\.com\//);
      expect((await read('partenaires.json')).imprimerie).not.toHaveProperty('img');
      expect((await read('categories.json')).actualites.articles).toEqual([]);
    });
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
    expect(stdout).toMatch(/articles\s+6 documents/);
    // The report, in the words of the space's publish page.
    expect(stdout).toMatch(/^6 articles publiés sur 6$/m);
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
      const report = await pullContent({
        connect: () => connectFirestore(freshTarget),
        host: fresh.address,
        root: await tempRoot(),
        log: () => {},
      });
      expect(report.collections.partenaires?.shown).toBeGreaterThanOrEqual(10);
      expect(report.collections.menus).toEqual({ read: 4, shown: 4 });
      expect(report.problems).toEqual([]);
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
