/**
 * « Facile à lire » as a path (src/features/content/falc/): each FALC page's headings follow its <h1> without a gap, it links
 * to the action it explains, and each glossary word of its text opens its explanation with a tap or Enter; the FALC
 * pages are reached from the site map, the header and the home page; the glossary words of the other pages lead to
 * /facile, where every word is explained.
 */
import { expect, test, type Page } from '@playwright/test';
import { GLOSSARY } from '../../src/features/content/falc/glossary';

/** The levels of the main content's headings, in order. */
const headingLevels = (page: Page) =>
  page
    .getByRole('main')
    .evaluate((main) =>
      [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) => Number(heading.tagName[1])),
    );

/** What each FALC page leads to: its actions' names and addresses. */
const ACTIONS: Record<string, [string, string][]> = {
  'facile-ecole': [
    ['Lire la page de l’école', '/ecole'],
    ['Remplir la pré-inscription', '/ecole#preinscription'],
  ],
  'facile-preinscription': [['Remplir la pré-inscription', '/ecole#preinscription']],
  'facile-don': [['Faire un don', '/soutenir']],
};

// Reduced motion: a jump within the page lands at once (headless Chromium's smooth scroll may stall on a busy machine).
test.use({ viewport: { width: 375, height: 800 }, reducedMotion: 'reduce' });

test('each FALC page: headings without a gap, links to what it explains and to its words’ explanations', async ({
  page,
}) => {
  for (const [slug, actions] of Object.entries(ACTIONS)) {
    await page.goto(`/facile/${slug}`);
    const levels = await headingLevels(page);
    expect(levels[0], slug).toBe(1);
    levels.forEach((level, index) => index > 0 && expect(level, slug).toBeLessThanOrEqual(levels[index - 1]! + 1));

    const doing = page.getByRole('region', { name: 'Ce que vous pouvez faire' });
    for (const [name, href] of actions) {
      await expect(doing.getByRole('link', { name, exact: true }), slug).toHaveAttribute('href', href);
    }

    // The text's first glossary word: Enter on its link shows its explanation, below, in « Les mots difficiles ».
    const term = page.locator('.falc__text a.term').first();
    const word = (await term.textContent())!;
    const entry = GLOSSARY.find(({ term: candidate }) => candidate.toLowerCase() === word.toLowerCase())!;
    await term.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`#mot-${entry.id}$`));
    const words = page.getByRole('region', { name: 'Les mots difficiles' });
    await expect(words.locator(`#mot-${entry.id}`)).toBeInViewport();
    await expect(words.locator(`#mot-${entry.id}`).getByRole('definition')).toHaveText(entry.explanation);
  }
  // Its own action, followed: the donation page.
  await page
    .getByRole('region', { name: 'Ce que vous pouvez faire' })
    .getByRole('link', { name: 'Faire un don' })
    .click();
  await expect(page).toHaveURL(/\/soutenir\/?$/);
});

test('the FALC pages are in the site map, the header and the home page', async ({ page }) => {
  await page.goto('/sitemap');
  const map = page.getByRole('region', { name: 'Facile à lire' });
  await expect(map.getByRole('link')).toHaveCount(4);
  for (const slug of Object.keys(ACTIONS)) await expect(map.locator(`a[href="/facile/${slug}"]`)).toHaveCount(1);

  await page.goto('/');
  await expect(page.getByRole('main').getByRole('link', { name: /Facile à lire/ })).toHaveAttribute('href', '/facile');
  await page.getByRole('banner').getByRole('link', { name: 'Facile à lire' }).click();
  await expect(page).toHaveURL(/\/facile\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Facile à lire');
  await expect(page.getByRole('region', { name: 'Les pages en facile à lire' }).getByRole('link')).toHaveCount(3);
  await expect(page.getByRole('region', { name: 'Les mots difficiles' }).locator('dfn')).toHaveText(
    GLOSSARY.map(({ term }) => term),
  );
});

test('AESH on the donation page: a tap leads to its explanation, not a tooltip', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto('/soutenir');
  const aesh = page.getByRole('main').getByRole('link', { name: 'AESH' }).first();
  await aesh.tap();
  await expect(page).toHaveURL(/\/facile\/?#mot-aesh$/);
  const entry = page.locator('#mot-aesh');
  await expect(entry).toBeInViewport();
  await expect(entry.getByRole('definition')).toHaveText(GLOSSARY.find(({ id }) => id === 'aesh')!.explanation);
  await context.close();
});
