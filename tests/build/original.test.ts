/**
 * The site built from the original admin's dataset (content/original: every field, '' for none, mixed types,
 * broken documents) in a temporary copy of the project: valid documents published, the rest reported.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { contentReportSchema } from '../../src/content.config';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const astroBin = createRequire(import.meta.url)
  .resolve('astro/package.json')
  .replace(/package\.json$/, 'bin/astro.mjs');
let workspace: Workspace;
let dist: string;

function page(file: string): Document {
  return new JSDOM(readFileSync(join(dist, file), 'utf8')).window.document;
}

const text = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Pulls `dataset` (a directory of content/) in the workspace, then builds it into `outDir`. */
async function pullAndBuild(dataset: string, outDir: string): Promise<string> {
  const env = { ...process.env, CONTENT_DATASET: dataset, FIREBASE_PROJECT_ID: '', FIRESTORE_EMULATOR_HOST: '' };
  await run(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/pull-content.ts'], {
    cwd: workspace.dir,
    env,
  });
  // `astro build` alone: the Content-Security-Policy audit of `npm run build` belongs to the demo build's tests.
  await run(process.execPath, [astroBin, 'build', '--outDir', outDir], {
    cwd: workspace.dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return join(workspace.dir, outDir);
}

beforeAll(async () => {
  workspace = await createWorkspace(root, 'original');
  dist = await pullAndBuild('original', 'dist');
}, 600_000);

afterAll(async () => {
  await workspace?.remove();
});

describe("the site built from the original admin's dataset", () => {
  it('publishes every valid article and leaves out the broken ones, as its report says', () => {
    for (const slug of ['rentree-2026', 'course-solidaire', 'portes-ouvertes', 'fete-hiver', 'atelier-mdph']) {
      expect(existsSync(join(dist, 'actualites', slug, 'index.html')), slug).toBe(true);
    }
    for (const slug of ['brouillon-casse', 'sans-titre']) {
      expect(existsSync(join(dist, 'actualites', slug, 'index.html')), slug).toBe(false);
    }
    const report = contentReportSchema.parse(
      JSON.parse(readFileSync(join(workspace.dir, 'src/data/report.json'), 'utf8')),
    );
    expect(report.collections.articles).toEqual({ read: 16, shown: 14 });
    expect(report.problems.map((problem) => `${problem.collection}/${problem.id}: ${problem.reason}`)).toContain(
      'articles/brouillon-casse: sa date est illisible',
    );
    expect(text(page('actualites/rentree-2026/index.html').querySelector('h1'))).toBe(
      'Rentrée 2026 : deux nouvelles classes',
    );
    expect(text(page('asso/index.html').querySelector('main'))).toContain('Notre histoire');
  });

  it('keeps each line of the <p> address and links its phones and emails, in the footer and on /contact', () => {
    for (const file of ['index.html', 'contact/index.html']) {
      const document = page(file);
      const details = [...document.querySelectorAll('address.contact-details')];
      expect(details.length, file).toBeGreaterThan(0);
      for (const address of details) {
        const postal = address.querySelector('.contact-details__postal')?.innerHTML ?? '';
        const lines = postal
          .split(/<br\b[^>]*>/)
          .map((line) => (JSDOM.fragment(line).textContent ?? '').replace(/\s+/g, ' ').trim());
        expect(lines, file).toEqual([
          'Les Petits Pas Ensemble',
          'École des Petits Pas',
          '12 rue des Tilleuls',
          '69007 Lyon',
        ]);
        const contacts = [...address.querySelectorAll('.contact-details__lines li')].map(text);
        expect(contacts, file).toEqual([
          'Secrétariat : 04 78 12 34 56',
          'Contact : contact@petitspas-ensemble.fr',
          'Inscriptions : inscriptions@petitspas-ensemble.fr ou 04.78.12.34.57',
          'Portail vert, au fond de la cour',
        ]);
        const links = [...address.querySelectorAll('a')].map((link) => [link.getAttribute('href'), text(link)]);
        expect(links, file).toEqual([
          ['tel:0478123456', '04 78 12 34 56'],
          ['mailto:contact@petitspas-ensemble.fr', 'contact@petitspas-ensemble.fr'],
          ['mailto:inscriptions@petitspas-ensemble.fr', 'inscriptions@petitspas-ensemble.fr'],
          ['tel:0478123457', '04.78.12.34.57'],
        ]);
        expect(address.textContent).not.toMatch(/\[\s*at\s*\]|<p>|&lt;/i);
      }
    }
  });

  it('shows an empty-titre link as its picto alone, named by the alt, and leaves out a link nobody could name', () => {
    const document = page('contact/index.html');
    for (const list of [document.querySelector('.social'), document.querySelector('.contact__social')]) {
      const facebook = list?.querySelector('a[href="https://www.facebook.com/petitspasensemble"]');
      expect(facebook?.querySelector('img')?.getAttribute('alt')).toBe('Facebook');
      expect(text(facebook)).toBe('(nouvel onglet)');
      expect(list?.querySelector('a[href*="youtube"]')).toBeNull();
    }
  });

  it('sorts the menu by string ordre, hides statut "false" links and highlights exergue "true"', () => {
    const menu = page('index.html').querySelector('#menu-principal');
    const topLevel = [...(menu?.querySelectorAll(':scope > li > a') ?? [])].map(text);
    expect(topLevel).toEqual(['Accueil', 'L’association', 'L’école', 'Nous soutenir', 'Contact']);
    expect(text(menu)).not.toContain('Boutique');
    expect(text(menu)).not.toContain('Menus de la cantine');
    expect(text(menu)).not.toContain('Page sans adresse');
    expect(menu?.querySelector('a[href="/soutenir"]')?.classList.contains('menu-link--exergue')).toBe(true);
  });

  it('frames the administrative steps from their external host', () => {
    expect(page('ecole/schema/index.html').querySelector('iframe')?.getAttribute('src')).toBe(
      'https://docs.google.com/presentation/d/e/2PACX-1vQdemarches-ecole/embed',
    );
  });
});

describe('the same site without the article adresse', () => {
  beforeAll(async () => {
    const dir = join(workspace.dir, 'content/sans-adresse');
    await cp(join(workspace.dir, 'content/original'), dir, { recursive: true });
    const articles = JSON.parse(await readFile(join(dir, 'articles.json'), 'utf8'));
    delete articles.adresse;
    await writeFile(join(dir, 'articles.json'), JSON.stringify(articles));
    dist = await pullAndBuild('sans-adresse', 'dist-sans-adresse');
  }, 600_000);

  it('is published under a neutral name, never the demo’s, with no address, and the report says why', () => {
    const home = page('index.html');
    const footerTitles = [...(home.querySelector('footer')?.querySelectorAll('h2') ?? [])].map(text);
    expect(footerTitles).toEqual(['Nous suivre', 'Informations']);
    expect(text(home.querySelector('footer .site-footer__legal'))).toMatch(/^© \d{4} L’association$/);
    const contact = page('contact/index.html');
    expect(contact.title).toBe('Contact · L’association');
    expect(text(contact.querySelector('main address'))).toBe('L’association');
    const report = contentReportSchema.parse(
      JSON.parse(readFileSync(join(workspace.dir, 'src/data/report.json'), 'utf8')),
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({ collection: 'articles', id: 'adresse', leftOut: 'document' }),
    );
  });
});
