/**
 * The built site (dist/ after `npm run build` on the demo dataset): every
 * route is there with the spec's exact French texts, the not-found page comes
 * from the built function, no '[at]' reaches a visitor, pages without islands
 * ship no JS, and the news archive (index, feed, search index) is complete.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_CONFORMANCE } from '../../src/features/accessibility/rgaa';
import { HOME_NEWS_COUNT } from '../../src/features/content/news/news';
import { siteAddress } from '../../scripts/lib/site-address';
import { callBuiltFunction } from '../fixtures/built-site';

const dist = join(import.meta.dirname, '../../dist');
const ROUTES: Record<string, string> = {
  '': 'index.html',
  asso: 'asso/index.html',
  ecole: 'ecole/index.html',
  'ecole/schema': 'ecole/schema/index.html',
  soutenir: 'soutenir/index.html',
  'soutenir/annule': 'soutenir/annule/index.html',
  'soutenir/valide': 'soutenir/valide/index.html',
  contact: 'contact/index.html',
  mentions: 'mentions/index.html',
  rgpd: 'rgpd/index.html',
  accessibilite: 'accessibilite/index.html',
  sitemap: 'sitemap/index.html',
  actualites: 'actualites/index.html',
  recherche: 'recherche/index.html',
};

function page(file: string): Document {
  return new JSDOM(readFileSync(join(dist, file), 'utf8')).window.document;
}

/** Text a visitor can read: body text without scripts, styles and noscript. */
function visibleText(document: Document): string {
  const body = document.body.cloneNode(true) as HTMLElement;
  for (const element of body.querySelectorAll('script, style, noscript, template')) element.remove();
  return (body.textContent ?? '').replace(/\s+/g, ' ');
}

function allHtmlFiles(dir = dist): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? allHtmlFiles(join(dir, entry.name))
      : entry.name.endsWith('.html')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The not-found page, rendered on demand by the built function (src/pages/404.astro). */
let notFound: Document;
beforeAll(async () => {
  const response = await callBuiltFunction(
    join(import.meta.dirname, '../..'),
    new Request(new URL('/pas-de-page-ici', siteAddress())),
  );
  expect(response.status).toBe(404);
  notFound = new JSDOM(await response.text()).window.document;
});

describe('dist/', () => {
  it('has every route of the spec, and one page per news article', () => {
    for (const file of Object.values(ROUTES)) expect(existsSync(join(dist, file)), file).toBe(true);
    const articles = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/data/articles.json'), 'utf8'));
    const newsSlugs = Object.entries(articles)
      .filter(([, data]) => (data as { cat: string }).cat === 'actualites')
      .map(([id, data]) => (data as { slug: string }).slug || id);
    expect(newsSlugs.length).toBeGreaterThan(0);
    for (const slug of newsSlugs) expect(existsSync(join(dist, 'actualites', slug, 'index.html')), slug).toBe(true);
  });

  it('shows the exact French texts of the spec', () => {
    expect(visibleText(page(ROUTES['soutenir/annule'] as string))).toContain(
      'Paiement annulé. Peut-être voulez-vous réessayer ?',
    );
    expect(notFound.querySelector('h1')?.textContent?.trim()).toBe("Oups, mais il n'y a rien ici");
    expect(notFound.querySelector('main a[href="/"]')?.textContent?.trim()).toBe('Retour à l’accueil');
    const asso = page(ROUTES.asso as string);
    const buttons = [...asso.querySelectorAll('button[command="show-modal"]')];
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) expect(button.textContent?.trim()).toMatch(/^En savoir plus/);
  });

  it('heads category pages with the category titre and descr', () => {
    const categories = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/data/categories.json'), 'utf8'));
    for (const id of ['asso', 'ecole']) {
      const document = page(ROUTES[id] as string);
      expect(document.querySelector('h1')?.textContent?.trim()).toBe(categories[id].titre);
      expect(visibleText(document)).toContain(categories[id].descr.replace(/\s+/g, ' '));
    }
  });

  it("never shows '[at]': every email is shown and linked with '@'", () => {
    for (const file of allHtmlFiles()) {
      const document = new JSDOM(readFileSync(file, 'utf8')).window.document;
      expect(visibleText(document), file).not.toMatch(/\[\s*at\s*\]/i);
      for (const link of document.querySelectorAll('a[href^="mailto:"]')) {
        expect(link.getAttribute('href'), file).toMatch(/^mailto:[^\s[\]]+@[^\s[\]]+$/);
      }
    }
    const footer = page('index.html').querySelector('footer');
    expect(footer?.querySelector('a[href="mailto:contact@petitspas-ensemble.fr"]')?.textContent).toBe(
      'contact@petitspas-ensemble.fr',
    );
    expect(footer?.querySelectorAll('a[href^="tel:"]').length).toBeGreaterThan(0);
  });

  it('contracts « de » and « à » before the association’s name: never « de Les » or « à Les »', () => {
    for (const file of allHtmlFiles()) {
      const document = new JSDOM(readFileSync(file, 'utf8')).window.document;
      const description = document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
      expect(`${visibleText(document)} ${description}`, file).not.toMatch(/(^|[^\p{L}])(de|à) Les /u);
    }
    const support = page('soutenir/index.html').querySelector('meta[name="description"]')?.getAttribute('content');
    expect(support).toContain('Faire un don aux Petits Pas Ensemble');
    expect(readFileSync(join(dist, 'actualites/rss.xml'), 'utf8')).not.toMatch(/(de|à) Les /);
  });

  it('hides statut false links and sorts the menu by ordre', () => {
    const menu = page('index.html').querySelector('#menu-principal');
    const topLevel = [...(menu?.querySelectorAll(':scope > li > a') ?? [])].map((link) => link.textContent?.trim());
    expect(topLevel).toEqual(['Accueil', 'L’association', 'L’école', 'Nous soutenir', 'Contact']);
    expect(menu?.textContent).not.toContain('Boutique solidaire');
    expect(menu?.textContent).not.toContain('Menus de la cantine');
    expect(menu?.querySelector('a[href="/ecole#preinscription"]')).not.toBeNull();
  });

  it('publishes the legal pages from the articles mentions, rgpd and accessibilite', () => {
    const h1 = (route: string) =>
      page(ROUTES[route] as string)
        .querySelector('h1')
        ?.textContent?.trim();
    expect(h1('mentions')).toBe('Mentions légales');
    expect(h1('rgpd')).toBe('Données personnelles');
    expect(h1('accessibilite')).toBe('Déclaration d’accessibilité');
    expect(h1('sitemap')).toBe('Plan du site');

    const mentions = visibleText(page(ROUTES.mentions as string));
    expect(mentions).toMatch(/Direct(eur|rice) de la publication/);
    expect(mentions).toContain('association loi 1901');
    expect(mentions).toContain('12 rue des Tilleuls, 69007 Lyon');
    expect(mentions).toContain('Netlify, Inc., 101 2nd Street, San Francisco, CA 94105');

    const rgpd = visibleText(page(ROUTES.rgpd as string));
    for (const statement of ['Lettre d’information', 'Pré-inscription', 'Dons', 'Google Firebase', 'Stripe', 'Netlify'])
      expect(rgpd).toContain(statement);
    for (const basis of ['consentement', 'mesures précontractuelles', 'intérêt légitime', 'obligations légales'])
      expect(rgpd).toContain(basis);
    for (const right of ['rectifier', 'effacer', 'opposer', 'limitation', 'portabilité', 'retirer votre consentement'])
      expect(rgpd).toContain(right);
    expect(rgpd).toContain('jusqu’à votre désinscription');
    expect(rgpd).toContain('CNIL');
    expect(page(ROUTES.rgpd as string).querySelector('main a[href="https://www.cnil.fr"]')).not.toBeNull();
    expect(
      page(ROUTES.rgpd as string).querySelector('main a[href="mailto:rgpd@petitspas-ensemble.fr"]'),
    ).not.toBeNull();

    const accessibilite = visibleText(page(ROUTES.accessibilite as string));
    // The level and rate are the RGAA grid's (docs/accessibilite-rgaa.md), never more; dated; the tests run, named.
    const { level, rate, unverified } = SITE_CONFORMANCE;
    const percent = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(rate);
    expect(accessibilite).toContain(`le site est ${level}`);
    // visibleText reads the no-break space before « % » as a space.
    expect(accessibilite).toContain(`soit un taux de conformité de ${percent} %`);
    const otherLevels = ['totalement conforme', 'partiellement conforme', 'non conforme'].filter((l) => l !== level);
    for (const other of otherLevels) expect(accessibilite).not.toContain(other);
    for (const { id, title } of unverified) expect(accessibilite).toContain(`Critère ${id}, ${title}`);
    expect(accessibilite).toMatch(/établie le \d{1,2} \p{L}+ \d{4}/u);
    expect(accessibilite).toContain('WCAG 1.4.12');
    expect(accessibilite).toContain('RGAA');
    expect(accessibilite).toContain('Défenseur des droits');
  });

  it('lists every page in the Plan du site, from the menus, with the news index, its feed and the search', () => {
    const main = page(ROUTES.sitemap as string).querySelector('main');
    const hrefs = [...(main?.querySelectorAll('a') ?? [])].map((link) => link.getAttribute('href'));
    for (const href of ['/', '/asso', '/ecole', '/ecole/schema', '/soutenir', '/contact', '/mentions', '/rgpd'])
      expect(hrefs, href).toContain(href);
    for (const href of ['/accessibilite', '/sitemap', '/actualites', '/actualites/rss.xml', '/recherche'])
      expect(hrefs, href).toContain(href);
    for (const href of ['/facile', '/facile/facile-ecole', '/facile/facile-preinscription', '/facile/facile-don'])
      expect(hrefs, href).toContain(href);
    // The index leads to every news page: the Plan du site does not grow with the archive.
    expect(hrefs.filter((href) => href?.startsWith('/actualites/') && href !== '/actualites/rss.xml')).toEqual([]);
    expect(hrefs).not.toContain('/boutique');
  });

  it('writes sitemap-index.xml for search engines, without the 404 and return pages', () => {
    expect(page('index.html').querySelector('link[rel="sitemap"]')?.getAttribute('href')).toBe('/sitemap-index.xml');
    const index = readFileSync(join(dist, 'sitemap-index.xml'), 'utf8');
    const files = [...index.matchAll(/<loc>[^<]*\/(sitemap-\d+\.xml)<\/loc>/g)].map((match) => match[1] as string);
    expect(files.length).toBeGreaterThan(0);
    const urls = files.flatMap((file) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map(
        (match) => new URL(match[1] as string).pathname,
      ),
    );
    for (const path of [
      '/',
      '/asso/',
      '/ecole/',
      '/mentions/',
      '/rgpd/',
      '/accessibilite/',
      '/sitemap/',
      '/actualites/',
      '/recherche/',
    ])
      expect(urls, path).toContain(path);
    expect(urls.some((path) => path.startsWith('/actualites/'))).toBe(true);
    for (const path of ['/404/', '/soutenir/annule/', '/soutenir/valide/']) expect(urls, path).not.toContain(path);
    expect(urls.some((path) => path.startsWith('/api/'))).toBe(false);
  });

  it('writes robots.txt naming the sitemap on the configured site and keeping the return pages out', () => {
    const sitemap = new URL('/sitemap-index.xml', siteAddress()).href;
    expect(readFileSync(join(dist, 'robots.txt'), 'utf8')).toBe(
      `User-agent: *\nDisallow: /soutenir/annule\nDisallow: /soutenir/valide\n\nSitemap: ${sitemap}\n`,
    );
  });

  it('describes every page for search engines (meta description)', () => {
    for (const file of Object.values(ROUTES)) {
      expect(page(file).querySelector('meta[name="description"]')?.getAttribute('content'), file).toMatch(/\S{3}/);
    }
    expect(notFound.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/\S{3}/);
  });

  it('frames the schema from menus/divers with a title', () => {
    const frame = page(ROUTES['ecole/schema'] as string).querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe('/contenu/schema/index.html');
    expect(frame?.getAttribute('title')).toBeTruthy();
  });

  it('ships framework JavaScript only to the pages with islands (home, ecole, soutenir and its cancel page)', () => {
    const withIslands = ['index.html', 'ecole/index.html', 'soutenir/index.html', 'soutenir/annule/index.html'].map(
      (file) => join(dist, file),
    );
    for (const file of allHtmlFiles()) {
      const html = readFileSync(file, 'utf8');
      if (withIslands.includes(file)) expect(html, file).toContain('<astro-island');
      else expect(html, file).not.toMatch(/astro-island|renderer-url|component-url/);
    }
  });

  it('announces the news feed in every page’s head, and the home shows at most the latest news', () => {
    for (const file of allHtmlFiles().filter((file) => !file.includes('/contenu/') && !file.includes('/pagefind/'))) {
      const link = page(file.slice(dist.length + 1)).querySelector('head link[rel="alternate"]');
      expect(link?.getAttribute('type'), file).toBe('application/rss+xml');
      expect(link?.getAttribute('href'), file).toBe('/actualites/rss.xml');
    }
    const home = page('index.html');
    const newsLinks = home.querySelectorAll('#actualites a[href^="/actualites/"]');
    expect(newsLinks.length).toBeGreaterThan(0);
    expect(newsLinks.length).toBeLessThanOrEqual(HOME_NEWS_COUNT);
    expect(home.querySelector('#actualites a[href="/actualites"]')?.textContent?.trim()).toBe('Toutes les actualités');
  });

  it('writes the search index of the news, association, school, contact, legal and Facile à lire pages only', () => {
    const entry = JSON.parse(readFileSync(join(dist, 'pagefind', 'pagefind-entry.json'), 'utf8'));
    const articles = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/data/articles.json'), 'utf8'));
    const count = (cat: string) =>
      Object.values(articles).filter((data) => (data as { cat: string }).cat === cat).length;
    // asso, ecole, contact, mentions, rgpd, accessibilite + one page per news item and per « Facile à lire » text.
    expect(entry.languages.fr.page_count).toBe(count('actualites') + count('facile') + 6);
    expect(existsSync(join(dist, 'pagefind', 'pagefind.js'))).toBe(true);
    for (const file of allHtmlFiles()) {
      const searchable = page(file.slice(dist.length + 1)).querySelector('[data-pagefind-body]');
      const inIndex =
        /\/(asso|ecole|contact|mentions|rgpd|accessibilite|(actualites|facile)\/[^/]+)\/index\.html$/.test(file);
      expect(searchable !== null, file).toBe(inIndex);
      // Header and footer are outside the indexed part.
      expect(searchable?.closest('header, footer') ?? null, file).toBeNull();
    }
  });

  it('loads Pagefind on the search page only, and only from its script (no search code elsewhere)', () => {
    for (const file of allHtmlFiles()) {
      const html = readFileSync(file, 'utf8');
      if (file.endsWith('/recherche/index.html')) expect(html).toContain('/pagefind/pagefind.js');
      else expect(html, file).not.toContain('pagefind.js');
    }
  });
});
