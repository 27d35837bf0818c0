/**
 * The one build of the suite besides the demo's (which the other build tests and the browser tests share): what only
 * a build shows when the content differs from the demo's. The demo dataset, in a temporary copy of the project, is
 * given real pictures (a 2 MB photo and a transparent PNG logo on a local HTTP server, as Firebase Storage serves them,
 * a photo inside an article's HTML, a picture that does not exist, one on a host that cannot be reached) and new
 * hosts (the schema framed from an external host, a video in an article). `scripts/build.ts` must publish the site,
 * serve the pictures optimised by astro:assets from /_astro/, report the missing ones, and give each page a policy
 * that allows exactly the content's frame hosts. The pull's side of pictures is tests/pipeline/pictures.test.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataset, measureBuild } from '../../bench/src/builds';
import { stopEverything } from '../../bench/src/processes';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { ALLOW_LOOPBACK_ENV } from '../../scripts/lib/picture-fetch';
import { SCRIPTED_SVG, startPictureServer, type PictureServer } from '../../scripts/lib/picture-server';
import { freePort } from '../../scripts/lib/ports';
import { builtPolicies, type Policy } from '../fixtures/built-site';

const root = resolve(import.meta.dirname, '../..');
const FRAME = 'https://docs.google.com/presentation/d/e/2PACX-demarches/embed';
const UNREACHABLE_PICTURE = 'https://images.exemple-photos.org/course.jpg';
const VIDEO = 'https://www.youtube-nocookie.com/embed/abc123';
let server: PictureServer;
let workspace: Workspace;
let policies: Map<string, Policy>;

const page = (file: string) => new JSDOM(readFileSync(join(workspace.dir, 'dist', file), 'utf8')).window.document;
const built = (url: string) => join(workspace.dir, 'dist', url.split('?')[0]!);

beforeAll(async () => {
  server = await startPictureServer();
  // The build downloads from that loopback server: allowed by name (a production build refuses loopback).
  process.env[ALLOW_LOOPBACK_ENV] = '1';
  const dataset = await demoDataset(root);
  const articles = dataset.articles as Record<string, Record<string, unknown>>;
  const partners = dataset.partenaires as Record<string, Record<string, unknown>>;
  articles['rentree-2026']!.img = { src: server.url('/photo-sortie.jpg'), alt: 'Les enfants en sortie au parc' };
  articles['fete-hiver-2025']!.img = { src: server.url('/absente.jpg'), alt: 'La fête' };
  articles['notre-histoire']!.contenu =
    `<p>Notre première sortie.</p><p><img src="${server.url('/photo-sortie.jpg')}" alt="La première sortie"></p>`;
  partners['fondation-lumiere-enfance']!.img = { src: server.url('/logo-partenaire.png'), alt: 'Fondation Lumière' };
  partners['club-sportif-berges']!.img = { src: server.url('/logo-script.svg'), alt: 'Club sportif des berges' };
  const course = articles['course-solidaire-2026'] as { img: { src: string }; contenu: string };
  course.img.src = UNREACHABLE_PICTURE;
  course.contenu += `<iframe src="${VIDEO}" title="La course en vidéo"></iframe>`;
  (dataset.menus as { divers: { schema: { src: string } } }).divers.schema.src = FRAME;
  workspace = await createWorkspace(root, 'content-variant');
  await measureBuild(workspace, 'content variant', dataset, await freePort());
  policies = builtPolicies(workspace.dir);
}, 600_000);

afterAll(async () => {
  await server?.close();
  await workspace?.remove();
  await stopEverything();
});

describe('a build with real pictures', () => {
  it('downloads each picture once and reports the missing and unreachable ones, in report.json', () => {
    expect(server.downloads.get('/photo-sortie.jpg')).toBe(1);
    expect(server.downloads.get('/logo-partenaire.png')).toBe(1);
    const report = JSON.parse(readFileSync(join(workspace.dir, 'src/data/report.json'), 'utf8'));
    const failed = (report.pictures.failed as { src: string }[]).toSorted((a, b) => a.src.localeCompare(b.src));
    expect(failed).toEqual([
      {
        src: server.url('/absente.jpg'),
        collection: 'articles',
        id: 'fete-hiver-2025',
        field: 'img.src',
        reason: 'le serveur a répondu « 404 Not Found » au lieu de l’image',
      },
      expect.objectContaining({ src: UNREACHABLE_PICTURE, id: 'course-solidaire-2026', field: 'img.src' }),
    ]);
    const course = readFileSync(join(workspace.dir, 'dist/actualites/course-solidaire-2026/index.html'), 'utf8');
    expect(course).not.toContain(UNREACHABLE_PICTURE);
  });

  it('serves the news photo as AVIF and WebP srcsets from /_astro/, sized, first on its page', async () => {
    const image = page('actualites/rentree-2026/index.html').querySelector<HTMLImageElement>('main picture img')!;
    expect(image.getAttribute('alt')).toBe('Les enfants en sortie au parc');
    expect(image.getAttribute('loading')).toBe('eager');
    expect(image.getAttribute('fetchpriority')).toBe('high');
    // 2,800 × 1,868 shown at most 720 px wide: 1× 720, 1.5× 1,080, 2× 1,440, ratio kept.
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['1440', '961']);
    const sources = [...image.parentElement!.querySelectorAll('source')];
    expect(sources.map((source) => source.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    for (const source of sources) {
      const candidates = source.getAttribute('srcset')!.split(', ');
      expect(candidates.map((candidate) => candidate.split(' ')[1])).toEqual(['720w', '1080w', '1440w']);
      for (const candidate of candidates) {
        const url = candidate.split(' ')[0]!;
        expect(url).toMatch(/^\/_astro\//);
        const bytes = statSync(built(url)).size;
        // The original is 2.1 MB: every served file is a small fraction of it.
        expect(bytes).toBeLessThan(200_000);
        expect((await sharp(built(url)).metadata()).width).toBe(Number(candidate.split(' ')[1]!.replace('w', '')));
      }
    }
    expect(image.getAttribute('src')).toMatch(/^\/_astro\/.+\.jpg$/);
  });

  it('keeps the logo transparent and replaces an <img> of the content by its optimised <picture>', async () => {
    const home = page('index.html');
    const logo = home.querySelector<HTMLImageElement>('img[alt="Fondation Lumière"]')!;
    const avif = logo.parentElement!.querySelector('source[type="image/avif"]')!.getAttribute('srcset')!;
    expect((await sharp(built(avif.split(' ')[0]!)).metadata()).hasAlpha).toBe(true);
    expect(logo.getAttribute('src')).toMatch(/^\/_astro\/.+\.png$/);

    const inText = page('asso/index.html').querySelector<HTMLImageElement>('img[alt="La première sortie"]')!;
    expect(inText.parentElement!.tagName).toBe('PICTURE');
    expect(inText.getAttribute('loading')).toBe('lazy');
    expect(inText.getAttribute('src')).toMatch(/^\/_astro\//);
    expect(Number(inText.getAttribute('width'))).toBeGreaterThan(0);
  });

  it('publishes an editor’s scripted SVG logo as pixels: its script reaches neither src/data/ nor dist/', () => {
    const home = page('index.html');
    const logo = home.querySelector<HTMLImageElement>('img[alt="Club sportif des berges"]')!;
    expect(logo.getAttribute('src')).toMatch(/^\/_astro\/.+\.png$/);
    const script = /<script>fetch\('\/espace\/preinscriptions\/export\.csv'\)/;
    expect(SCRIPTED_SVG).toMatch(script);
    for (const dir of ['src/data', 'dist']) {
      const files = (readdirSync(join(workspace.dir, dir), { recursive: true }) as string[]).filter((file) =>
        statSync(join(workspace.dir, dir, file)).isFile(),
      );
      for (const file of files) {
        expect(readFileSync(join(workspace.dir, dir, file), 'latin1'), `${dir}/${file}`).not.toMatch(script);
      }
    }
  });

  it('publishes the article whose picture is missing, without the picture, and no page points elsewhere', () => {
    const fete = page('actualites/fete-hiver-2025/index.html');
    expect(fete.querySelector('h1')!.textContent).not.toBe('');
    expect(fete.querySelector('main img')).toBeNull();
    for (const file of ['index.html', 'asso/index.html', 'actualites/rentree-2026/index.html']) {
      for (const element of page(file).querySelectorAll('img, source')) {
        const urls = [element.getAttribute('src'), ...(element.getAttribute('srcset')?.split(', ') ?? [])];
        for (const url of urls.filter(Boolean)) expect(url, file).toMatch(/^\/(_astro|illustrations)\//);
      }
    }
    expect(readdirSync(join(workspace.dir, 'dist/_astro')).some((name) => name.endsWith('.avif'))).toBe(true);
  });
});

describe('the policy follows the content', () => {
  it('frames the schema host on /ecole/schema only, and the video host everywhere, nothing wider', () => {
    expect(readFileSync(join(workspace.dir, 'dist/ecole/schema/index.html'), 'utf8')).toContain(
      `<iframe class="schema" src="${FRAME}"`,
    );
    const sorted = (sources: string[] | undefined) => [...(sources ?? [])].sort();
    expect(sorted(policies.get('/ecole/schema')?.['frame-src'])).toEqual([
      "'self'",
      'https://docs.google.com',
      'https://www.youtube-nocookie.com',
    ]);
    for (const path of ['/', '/ecole', '/actualites/course-solidaire-2026', '/asso']) {
      expect(sorted(policies.get(path)?.['frame-src']), path).toEqual(["'self'", 'https://www.youtube-nocookie.com']);
    }
  });

  it('allows pictures from the site only: the build serves every picture itself', () => {
    expect(policies.size).toBeGreaterThan(10);
    for (const [path, policy] of policies) expect(policy['img-src'], path).toEqual(["'self'", 'data:']);
  });
});
