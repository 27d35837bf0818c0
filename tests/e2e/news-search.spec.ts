/**
 * The news archive and the site search in Chromium: the news index (newest
 * first, back links), the RSS feed announced in every head, and /recherche
 * used with the keyboard only (Pagefind's index of the built site), with its
 * live count, axe-core with results at 375 px (the page itself at both widths: display.spec.ts) and no search
 * code on other pages.
 */
import { expect, test, type Page } from '@playwright/test';
import { FEED_NEWS_COUNT } from '../../src/features/content/news/news';
import { NEWS_SLUGS } from '../../scripts/lib/routes';
import { siteAddress } from '../../scripts/lib/site-address';
import { expectNoAxeViolations, VIEWPORTS, watchCspIssues, watchPage } from './helpers';

/** A demo news item and a French word only its text holds ("crêpes": the snack of the winter party). */
const WINTER_PARTY = { slug: 'fete-hiver-2025', titre: 'La fête d’hiver, samedi 13 décembre', word: 'crêpes' };

/** Presses Tab until the element of `selector` has the focus (at most 40 times), as a keyboard user would. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    if (await page.locator(selector).evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} never got the focus after 40 presses of Tab`);
}

/** Requests to Pagefind's files (/pagefind/…) the page has made so far. */
function pagefindRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/pagefind/')) urls.push(request.url());
  });
  return urls;
}

test.describe('news index', () => {
  test('/actualites lists every news item, newest first, each linking to its page and back', async ({ page }) => {
    await page.goto('/actualites');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Actualités');
    const titles = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('link');
    const hrefs = await titles.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(NEWS_SLUGS.map((slug) => `/actualites/${slug}`));
    // The demo fits on one page: no page links.
    await expect(page.getByRole('navigation', { name: 'Pages des actualités' })).toHaveCount(0);

    await page.getByRole('link', { name: WINTER_PARTY.titre }).click();
    await expect(page).toHaveURL(`/actualites/${WINTER_PARTY.slug}`);
    await page.getByRole('link', { name: 'Toutes les actualités' }).click();
    await expect(page).toHaveURL('/actualites');
  });

  test('every page announces the RSS feed, which is well-formed RSS 2.0 of the latest news', async ({
    page,
    request,
  }) => {
    for (const route of ['/', '/asso', `/actualites/${WINTER_PARTY.slug}`, '/recherche']) {
      await page.goto(route);
      const alternate = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
      await expect(alternate, route).toHaveAttribute('href', '/actualites/rss.xml');
      await expect(alternate, route).toHaveAttribute('title', 'Les Petits Pas Ensemble · Actualités');
    }
    await page.goto('/actualites');
    await expect(page.getByRole('link', { name: 'S’abonner au flux RSS' })).toHaveAttribute(
      'href',
      '/actualites/rss.xml',
    );

    const response = await request.get('/actualites/rss.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/xml/);
    const feed = await page.evaluate(
      (xml) => {
        const document = new DOMParser().parseFromString(xml, 'application/xml');
        const text = (element: Element, name: string) => element.querySelector(name)?.textContent ?? '';
        return {
          parseError: document.querySelector('parsererror')?.textContent ?? '',
          version: document.documentElement.getAttribute('version'),
          title: text(document.querySelector('channel') as Element, 'title'),
          language: text(document.querySelector('channel') as Element, 'language'),
          items: [...document.querySelectorAll('item')].map((item) => ({
            title: text(item, 'title'),
            link: text(item, 'link'),
            pubDate: text(item, 'pubDate'),
            description: text(item, 'description'),
          })),
        };
      },
      await response.text(),
    );
    expect(feed.parseError).toBe('');
    expect(feed.version).toBe('2.0');
    expect(feed.title).toBe('Les Petits Pas Ensemble · Actualités');
    expect(feed.language).toBe('fr-fr');
    // Absolute links with the trailing slash of the pages' canonical URLs.
    expect(feed.items.map((item) => new URL(item.link).pathname)).toEqual(
      NEWS_SLUGS.slice(0, FEED_NEWS_COUNT).map((slug) => `/actualites/${slug}/`),
    );
    const party = feed.items.find((item) => item.title === WINTER_PARTY.titre);
    expect(party?.link).toBe(new URL(`/actualites/${WINTER_PARTY.slug}/`, siteAddress()).href);
    expect(new Date(party?.pubDate ?? '').toISOString()).toBe('2025-11-28T10:00:00.000Z');
    expect(party?.description).toContain('Spectacle des enfants, marché solidaire et goûter');
  });
});

test.describe('site search', () => {
  test('finds a news item by a French word with the keyboard only, and announces the count', async ({
    page,
    baseURL,
  }) => {
    const watch = watchPage(page, baseURL!);
    const cspIssues = await watchCspIssues(page);
    const pagefind = pagefindRequests(page);
    await page.goto('/');
    await tabTo(page, 'header a[href="/recherche"]');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Rechercher' })).toBeFocused();
    expect(pagefind, 'no search code before the visitor opens the search').toEqual([]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/recherche');

    const field = page.getByRole('searchbox', { name: 'Mots à chercher' });
    await tabTo(page, '#search-terms');
    await page.keyboard.type(WINTER_PARTY.word);
    await page.keyboard.press('Enter');
    const status = page.getByRole('status').filter({ hasText: 'pour «' });
    await expect(status).toHaveText(`1 résultat pour « ${WINTER_PARTY.word} ».`);
    await expect(field).toBeFocused();
    await expect(page).toHaveURL(`/recherche?q=${encodeURIComponent(WINTER_PARTY.word)}`);
    const results = page.getByRole('list', { name: 'Résultats de la recherche' });
    const result = results.getByRole('link', { name: WINTER_PARTY.titre });
    await expect(result).toHaveAttribute('href', `/actualites/${WINTER_PARTY.slug}/`);
    await expect(results.locator('mark').first()).toHaveText(/crêpes/i);

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(result).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/actualites/${WINTER_PARTY.slug}/?$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(WINTER_PARTY.titre);
    expect(watch.problems).toEqual([]);
    expect(cspIssues).toEqual([]);
  });

  test('searches in French (a singular finds the plural), from a shared address too', async ({ page }) => {
    await page.goto('/recherche?q=cr%C3%AApe');
    await expect(page.getByRole('searchbox', { name: 'Mots à chercher' })).toHaveValue('crêpe');
    await expect(page.getByRole('list', { name: 'Résultats de la recherche' }).getByRole('link')).toHaveText([
      WINTER_PARTY.titre,
    ]);
  });

  test('says so plainly when nothing matches', async ({ page }) => {
    await page.goto('/recherche');
    await page.getByRole('searchbox', { name: 'Mots à chercher' }).fill('zyxwvutsrq');
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Aucun' })).toHaveText(
      'Aucun résultat pour « zyxwvutsrq ». Essayez un autre mot, ou un mot plus court.',
    );
    await expect(page.getByRole('list', { name: 'Résultats de la recherche' })).toBeHidden();
  });

  test('indexes the legal and association pages, not the header or footer', async ({ page }) => {
    await page.goto('/recherche?q=CNIL');
    const links = page.getByRole('list', { name: 'Résultats de la recherche' }).getByRole('link');
    await expect(links.first()).toBeVisible();
    await expect(links).toContainText(['Données personnelles']);
    // The footer's address is on every page but indexed only where a page shows it (contact).
    await page.goto('/recherche?q=Tilleuls');
    await expect(page.getByRole('list', { name: 'Résultats de la recherche' }).getByRole('link')).not.toHaveCount(0);
    const hrefs = await page
      .getByRole('list', { name: 'Résultats de la recherche' })
      .getByRole('link')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
    expect(hrefs.length).toBeLessThan(5);
  });

  test('loads no search code until the search field is used', async ({ page }) => {
    const pagefind = pagefindRequests(page);
    for (const route of ['/', '/actualites', `/actualites/${WINTER_PARTY.slug}`, '/recherche']) await page.goto(route);
    expect(pagefind).toEqual([]);
    await page.getByRole('searchbox', { name: 'Mots à chercher' }).focus();
    await expect.poll(() => pagefind.some((url) => url.endsWith('/pagefind/pagefind.js'))).toBe(true);
  });

  // A state of /recherche (the page itself: display.spec.ts): once, at 375 px.
  test('axe finds no violation with results shown at 375 px', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`/recherche?q=${encodeURIComponent('école')}`);
    await expect(page.getByRole('status').filter({ hasText: 'pour «' })).toHaveText(/^\d+ résultats? pour/);
    await expectNoAxeViolations(page, '/recherche with results at 375 px');
  });
});
