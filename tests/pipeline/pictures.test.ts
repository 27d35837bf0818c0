/**
 * The pictures step of the pull against a local HTTP server (scripts/lib/picture-server.ts):
 * what is read, what is left out with which French reason, and the download cache between builds.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPictureUses, htmlPictureSources, pullPictures } from '../../scripts/lib/pictures';
import { fixturePicture, SCRIPTED_SVG, startPictureServer, type PictureServer } from '../../scripts/lib/picture-server';

let server: PictureServer;
const roots: string[] = [];
/** The test server is on loopback: what `npm start` and the tests allow (PICTURES_ALLOW_LOOPBACK=1). */
const LOCAL = { allowLoopback: true };
/** A production build's policy: https from public addresses only. */
const PRODUCTION = { allowLoopback: false };

/** A project root in /tmp with public/contenu/logo.png and an optional stale pulled picture. */
async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pictures-'));
  roots.push(root);
  await mkdir(join(root, 'public/contenu'), { recursive: true });
  await writeFile(join(root, 'public/contenu/logo.png'), await fixturePicture('logo-partenaire.png'));
  await mkdir(join(root, 'src/data/pictures'), { recursive: true });
  await writeFile(join(root, 'src/data/pictures/ancienne.jpg'), 'stale');
  return root;
}

beforeAll(async () => {
  server = await startPictureServer();
});

afterAll(async () => {
  await server?.close();
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('collectPictureUses', () => {
  it('finds img, imgContenu, picto, <img> in intro/contenu and menu pictos with their field', () => {
    const uses = collectPictureUses({
      articles: {
        a1: {
          titre: 'Sortie',
          img: { src: 'https://x/photo.jpg', alt: 'Enfants' },
          imgContenu: { src: '/contenu/b.jpg' },
          intro: '<p>Texte <img src="https://x/dans-le-texte.png" alt=""></p>',
          contenu: '<p>Rien</p>',
        },
      },
      partenaires: { p1: { titre: 'Logo', img: { src: '/contenu/logo.png', alt: '' } } },
      menus: {
        reseaux: {
          liens: [
            { titre: '', href: 'https://f', picto: { src: '/contenu/f.svg', alt: 'Facebook' } },
            { titre: 'Groupe', children: [{ titre: 'Y', href: '/y', picto: { src: '/contenu/y.svg' } }] },
          ],
        },
      },
    });
    expect(uses).toEqual([
      { src: 'https://x/photo.jpg', collection: 'articles', id: 'a1', field: 'img.src' },
      { src: '/contenu/b.jpg', collection: 'articles', id: 'a1', field: 'imgContenu.src' },
      { src: 'https://x/dans-le-texte.png', collection: 'articles', id: 'a1', field: 'intro (<img>)' },
      { src: '/contenu/logo.png', collection: 'partenaires', id: 'p1', field: 'img.src' },
      { src: '/contenu/f.svg', collection: 'menus', id: 'reseaux', field: 'liens.0.picto.src' },
      { src: '/contenu/y.svg', collection: 'menus', id: 'reseaux', field: 'liens.1.children.0.picto.src' },
    ]);
  });

  it('reads <img> sources with entities decoded', () => {
    expect(htmlPictureSources('<img src="https://h/o/a.jpg?alt=media&amp;token=t"><img alt="x">')).toEqual([
      'https://h/o/a.jpg?alt=media&token=t',
    ]);
  });
});

describe('pullPictures', () => {
  it('reads each picture once, leaves out the broken ones with a French reason, and removes stale files', async () => {
    const root = await tempRoot();
    const lines: string[] = [];
    const photo = server.url('/photo-sortie.jpg');
    const result = await pullPictures(
      [
        { src: photo, collection: 'articles', id: 'sortie', field: 'img.src' },
        { src: photo, collection: 'articles', id: 'rentree', field: 'contenu (<img>)' },
        { src: '/contenu/logo.png', collection: 'partenaires', id: 'mairie', field: 'img.src' },
        { src: server.url('/absente.jpg'), collection: 'articles', id: 'fete', field: 'img.src' },
        { src: server.url('/page.html'), collection: 'partenaires', id: 'club', field: 'img.src' },
        { src: server.url('/lent.jpg'), collection: 'articles', id: 'lent', field: 'imgContenu.src' },
        { src: '/contenu/oubli.png', collection: 'menus', id: 'reseaux', field: 'liens.0.picto.src' },
        { src: 'ftp://serveur/photo.jpg', collection: 'articles', id: 'ftp', field: 'img.src' },
      ],
      { root, cacheDir: join(root, 'cache'), timeoutMs: 1500, policy: LOCAL, log: (line) => lines.push(line) },
    );

    expect(server.requests.get('/photo-sortie.jpg')).toBe(1);
    expect(result.fetched).toBe(2);
    expect(result.manifest[photo]).toMatchObject({ width: 2800, height: 1868, format: 'jpeg' });
    expect(result.manifest['/contenu/logo.png']).toMatchObject({ width: 1200, height: 600, format: 'png' });
    const files = (await readdir(join(root, 'src/data/pictures'))).toSorted();
    expect(files).toEqual([result.manifest[photo]!.file, result.manifest['/contenu/logo.png']!.file].toSorted());
    expect((await stat(join(root, 'src/data/pictures', result.manifest[photo]!.file))).size).toBeGreaterThan(1_500_000);

    expect(result.failed).toEqual([
      {
        src: server.url('/absente.jpg'),
        collection: 'articles',
        id: 'fete',
        field: 'img.src',
        reason: 'le serveur a répondu « 404 Not Found » au lieu de l’image',
      },
      {
        src: server.url('/page.html'),
        collection: 'partenaires',
        id: 'club',
        field: 'img.src',
        reason: 'le fichier reçu n’est pas une image lisible (JPEG, PNG, WebP, AVIF, GIF ou SVG)',
      },
      {
        src: server.url('/lent.jpg'),
        collection: 'articles',
        id: 'lent',
        field: 'imgContenu.src',
        reason: 'le serveur n’a pas répondu en 1,5 s',
      },
      {
        src: '/contenu/oubli.png',
        collection: 'menus',
        id: 'reseaux',
        field: 'liens.0.picto.src',
        reason: 'le fichier public/contenu/oubli.png n’existe pas sur le site',
      },
      {
        src: 'ftp://serveur/photo.jpg',
        collection: 'articles',
        id: 'ftp',
        field: 'img.src',
        reason: 'l’adresse doit commencer par https:// (ou / pour un fichier du site)',
      },
    ]);
    expect(lines.some((line) => line.includes('articles/fete img.src: picture left out'))).toBe(true);
  });

  it(
    'revalidates cached downloads (304) instead of downloading again, ' + 'and uses the cache when the server is down',
    async () => {
      const root = await tempRoot();
      const cacheDir = join(root, 'cache');
      const logo = server.url('/logo-partenaire.png');
      const uses = [{ src: logo, collection: 'partenaires', id: 'mairie', field: 'img.src' }];
      const before = server.requests.get('/logo-partenaire.png') ?? 0;
      const downloadsBefore = server.downloads.get('/logo-partenaire.png') ?? 0;
      const first = await pullPictures(uses, { root, cacheDir, policy: LOCAL, log: () => {} });
      const second = await pullPictures(uses, { root, cacheDir, policy: LOCAL, log: () => {} });
      expect(server.requests.get('/logo-partenaire.png')).toBe(before + 2);
      expect(server.downloads.get('/logo-partenaire.png')).toBe(downloadsBefore + 1);
      expect(second.manifest).toEqual(first.manifest);
      expect(second.failed).toEqual([]);

      await server.close();
      try {
        const offline = await pullPictures(uses, { root, cacheDir, timeoutMs: 1500, policy: LOCAL, log: () => {} });
        expect(offline.manifest).toEqual(first.manifest);
        expect(offline.failed).toEqual([]);
      } finally {
        server = await startPictureServer();
      }
    },
  );

  it('draws a downloaded SVG into a PNG: its script never reaches src/data/', async () => {
    const root = await tempRoot();
    const logo = server.url('/logo-script.svg');
    const uses = [{ src: logo, collection: 'partenaires', id: 'club', field: 'img.src' }];
    const result = await pullPictures(uses, { root, cacheDir: join(root, 'cache'), policy: LOCAL, log: () => {} });
    expect(result.failed).toEqual([]);
    expect(result.manifest[logo]).toMatchObject({ format: 'png', width: 1600, height: 800 });
    expect(result.manifest[logo]!.file).toMatch(/\.png$/);
    expect(SCRIPTED_SVG).toContain('<script>');
    for (const name of await readdir(join(root, 'src/data/pictures'))) {
      const bytes = await readFile(join(root, 'src/data/pictures', name));
      expect(bytes.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
      expect(bytes.toString('latin1')).not.toMatch(/<svg|<script|export\.csv/);
    }
  });

  it('downloads from public addresses over https only, without PICTURES_ALLOW_LOOPBACK', async () => {
    const root = await tempRoot();
    const cacheDir = join(root, 'cache');
    const logo = server.url('/logo-partenaire.png');
    const use = (src: string) => ({ src, collection: 'articles', id: 'piege', field: 'img.src' });
    // A copy kept by an earlier build with the setting is not used once the address is refused.
    await pullPictures([use(logo)], { root, cacheDir, policy: LOCAL, log: () => {} });
    const requests = server.requests.get('/logo-partenaire.png');
    const internal = [
      logo.replace('http:', 'https:'),
      'https://localhost/logo.png',
      'https://[::1]/logo.png',
      'https://[::ffff:127.0.0.1]/logo.png',
      'https://10.0.0.8/logo.png',
      'https://192.168.1.1/logo.png',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00::1]/logo.png',
      'https://0.0.0.0/logo.png',
    ];
    const result = await pullPictures([use(logo), ...internal.map(use)], {
      root,
      cacheDir,
      timeoutMs: 5000,
      policy: PRODUCTION,
      log: () => {},
    });
    const refused = 'l’adresse ne mène pas à un serveur public d’Internet : le site ne télécharge pas cette image';
    expect(result.failed.map(({ src, reason }) => [src, reason])).toEqual([
      [logo, 'l’adresse doit commencer par https:// (ou / pour un fichier du site)'],
      ...internal.map((src) => [src, refused]),
    ]);
    expect(result.manifest).toEqual({});
    expect(server.requests.get('/logo-partenaire.png')).toBe(requests);

    // With the setting, loopback is allowed, never a private address, even through a redirect.
    const local = await pullPictures([use(server.url('/vers-reseau-interne.jpg')), use('http://10.0.0.8/logo.png')], {
      root,
      cacheDir,
      timeoutMs: 5000,
      policy: LOCAL,
      log: () => {},
    });
    expect(local.failed.map(({ reason }) => reason)).toEqual([refused, refused]);
  });
});
