/**
 * The built site (dist/ after `npm run build` on the demo dataset): every
 * route is there with the spec's exact French texts, the not-found page is
 * 404.html, no '[at]' reaches a visitor, and pages without islands ship no JS.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';

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
  'not-found': '404.html',
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
    const notFound = page('404.html');
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

  it('hides statut false links and sorts the menu by ordre', () => {
    const menu = page('index.html').querySelector('#menu-principal');
    const topLevel = [...(menu?.querySelectorAll(':scope > li > a') ?? [])].map((link) => link.textContent?.trim());
    expect(topLevel).toEqual(['Accueil', 'L’association', 'L’école', 'Nous soutenir', 'Contact']);
    expect(menu?.textContent).not.toContain('Boutique solidaire');
    expect(menu?.textContent).not.toContain('Menus de la cantine');
    expect(menu?.querySelector('a[href="/ecole#preinscription"]')).not.toBeNull();
  });

  it('frames the schema from menus/divers with a title', () => {
    const frame = page(ROUTES['ecole/schema'] as string).querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe('/contenu/schema/index.html');
    expect(frame?.getAttribute('title')).toBeTruthy();
  });

  it('ships framework JavaScript only to the pages with islands (home, ecole, soutenir)', () => {
    const withIslands = ['index.html', 'ecole/index.html', 'soutenir/index.html'].map((file) => join(dist, file));
    for (const file of allHtmlFiles()) {
      const html = readFileSync(file, 'utf8');
      if (withIslands.includes(file)) expect(html, file).toContain('<astro-island');
      else expect(html, file).not.toMatch(/astro-island|renderer-url|component-url/);
    }
  });
});
