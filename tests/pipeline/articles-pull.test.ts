/**
 * What the space saves is what the pull publishes: an article saved through the space's form (its photo uploaded to
 * a local Netlify Blobs server and served by the /medias route), one typed in the Firebase console in the original
 * admin's shape (seconds as text, a bare picture address, '' for none), and drafts, pulled from the same embedded
 * Firestore: the first two are published whole with their pictures and no problem; the space's draft is stored where
 * the pull (and any browser) never reads it, and a draft marked in the console is left out and counted.
 */
import { FIREBASE_PROJECT_ID, FIRESTORE_EMULATOR_HOST } from 'astro:env/server';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pullContent } from '../../scripts/lib/pull';
import { ALLOW_LOOPBACK_ENV } from '../../scripts/lib/picture-fetch';
import { fixturePicture, startPictureServer, type PictureServer } from '../../scripts/lib/picture-server';
import { seedDocuments } from '../../scripts/lib/seed';
import { saveArticle, type ArticlePost } from '../../src/features/content/articles/articles.server';
import { servePicture } from '../../src/features/content/articles/media.server';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { connectFirestore, parseHostPort, type FirestoreTarget } from '../../src/lib/firestore.server';
import { fixture } from '../fixtures/content';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';

let world: MailWorld;
let blobs: BlobsServer;
let site: Server;
let origin: string;
let pictures: PictureServer;
const directories: string[] = [];
const target = (): FirestoreTarget => ({
  projectId: FIREBASE_PROJECT_ID as string,
  apiKey: 'x',
  emulator: parseHostPort(FIRESTORE_EMULATOR_HOST as string),
  host: FIRESTORE_EMULATOR_HOST as string,
});

beforeAll(async () => {
  world = await startMailWorld();
  const directory = await mkdtemp(join(tmpdir(), 'articles-blobs-'));
  directories.push(directory);
  blobs = new BlobsServer({ directory, token: 'jeton' });
  const edgeURL = `http://127.0.0.1:${(await blobs.start()).port}`;
  const context = { siteID: 'site', token: 'jeton', edgeURL, uncachedEdgeURL: edgeURL };
  vi.stubEnv('NETLIFY_BLOBS_CONTEXT', Buffer.from(JSON.stringify(context)).toString('base64'));
  // The site's /medias route, as the pull downloads it.
  site = createServer(async (request, response) => {
    const answer = await servePicture(/^\/medias\/([^/]+)$/.exec(request.url ?? '')?.[1]);
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  pictures = await startPictureServer();
  // The pictures are on loopback (and /medias on this test's own server): allowed by name, as under npm start.
  vi.stubEnv(ALLOW_LOOPBACK_ENV, '1');
  const connection = connectFirestore(target(), { emulatorOwner: true });
  await seedDocuments(connection.db, fixture);
  await connection.close();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  site?.close();
  await pictures?.close();
  await blobs?.stop();
  await world?.stop();
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

const editor: StaffSession = { uid: 'uid-edition', email: 'edition@exemple.org', roles: ['edition'], authTime: 0 };

/** The space's form post for a new article. */
function form(fields: Record<string, string>, photo?: Buffer): ArticlePost {
  return photo ? { ...fields, image: new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }) } : fields;
}

describe('categories the form does not list', () => {
  it('keeps an article’s own (the address’s `divers`), takes « Facile à lire », refuses any other', async () => {
    const address = { titre: 'Asso', slug: 'adresse', intro: '1 rue X\n69000 Lyon', contenu: 'Contact : a[at]b.fr' };
    await saveArticle(editor, 'adresse', form({ ...address, cat: 'divers' }), origin);
    expect((await adminFirestore().doc('articles/adresse').get()).data()).toMatchObject({ cat: 'divers' });

    const easy = { titre: 'L’école, en facile à lire', slug: 'facile-ecole', intro: '<p>Une école pour tous.</p>' };
    await saveArticle(editor, 'nouveau', form({ ...easy, cat: 'facile' }), origin);
    expect((await adminFirestore().doc('articles/facile-ecole').get()).data()).toMatchObject({ cat: 'facile' });

    const other = saveArticle(editor, 'facile-ecole', form({ ...easy, cat: 'divers' }), origin);
    await expect(other).rejects.toMatchObject({
      issues: [{ field: 'cat', message: 'Merci de choisir une rubrique dans la liste.' }],
    });
    expect((await adminFirestore().doc('articles/facile-ecole').get()).data()).toMatchObject({ cat: 'facile' });
  });
});

describe('the pull of what the space saves and what the console holds', () => {
  it('publishes both whole with their pictures, and leaves the draft out', async () => {
    const photo = await fixturePicture('photo-sortie.jpg');
    const fields = { titre: 'Sortie au parc', cat: 'actualites', date: '2026-11-20', imgAlt: 'Les enfants au parc' };
    const saved = await saveArticle(
      editor,
      'nouveau',
      form({ ...fields, intro: '<p>Une <strong>belle</strong> journée</p>' }, photo),
      origin,
    );
    expect(saved).toEqual({ id: 'sortie-au-parc', brouillon: false });
    await saveArticle(
      editor,
      'nouveau',
      form({ titre: 'Pas encore prêt', cat: 'actualites', date: '2026-11-21', brouillon: 'oui' }),
      origin,
    );
    const connection = connectFirestore(target(), { emulatorOwner: true });
    await seedDocuments(connection.db, {
      articles: {
        console: {
          slug: '',
          cat: 'actualites',
          titre: 'Tapé dans la console',
          intro: '<p>Bonjour</p>',
          contenu: '',
          date: '1760000000',
          img: pictures.url('/photo-sortie.jpg'),
          imgContenu: '',
          picto: '',
        },
        'marque-dans-la-console': {
          cat: 'actualites',
          titre: 'Brouillon marqué à la main',
          intro: '<p>Bientôt</p>',
          brouillon: 'true',
        },
      },
    });
    await connection.close();

    const root = await mkdtemp(join(tmpdir(), 'articles-pull-'));
    directories.push(root);
    await mkdir(join(root, 'src/data'), { recursive: true });
    const report = await pullContent({ connect: () => connectFirestore(target()), host: 'tests', root, log: () => {} });
    const articles = JSON.parse(await readFile(join(root, 'src/data/articles.json'), 'utf8'));
    const manifest = JSON.parse(await readFile(join(root, 'src/data/pictures.json'), 'utf8'));

    expect(report.problems).toEqual([]);
    // The fixture's partner logo is a file of a public/ this temporary root does not have.
    expect(report.pictures.failed.filter((failure) => failure.collection === 'articles')).toEqual([]);
    const stored = adminFirestore();
    expect((await stored.doc('articles/pas-encore-pret').get()).exists).toBe(false);
    expect((await stored.doc('brouillons/pas-encore-pret').get()).data()).toMatchObject({ brouillon: true });
    expect(report.collections.articles).toMatchObject({ drafts: 1 });
    expect(articles['pas-encore-pret']).toBeUndefined();
    expect(articles['marque-dans-la-console']).toBeUndefined();
    expect(articles['sortie-au-parc']).toMatchObject({
      titre: 'Sortie au parc',
      date: Date.UTC(2026, 10, 20, 12) / 1000,
      intro: '<p>Une <strong>belle</strong> journée</p>',
      img: { alt: 'Les enfants au parc' },
    });
    expect(articles.console).toMatchObject({ titre: 'Tapé dans la console', date: 1760000000 });
    const uploaded = articles['sortie-au-parc'].img.src as string;
    expect(uploaded).toMatch(new RegExp(`^${origin}/medias/[0-9a-f]{32}\\.jpg$`));
    expect(manifest[uploaded]).toMatchObject({ format: 'jpeg', width: 2560 });
    expect(manifest[articles.console.img.src]).toMatchObject({ format: 'jpeg' });
    // The upload is in the store under the key its address names.
    const key = uploaded.split('/').at(-1)!;
    expect((await getStore({ name: 'medias' }).getMetadata(key))?.metadata).toEqual({ type: 'image/jpeg' });
  });
});
