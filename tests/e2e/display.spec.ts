/**
 * « Paramètres d'affichage » (/affichage, src/features/display/): reached from the header and the footer, applied at
 * once, kept on the device without a cookie, applied before the first paint on every page, the device's dark theme
 * followed without JavaScript; on every page template, axe clean in both themes with every setting, and no word
 * broken inside at 320 px with 20 px text.
 */
import { expect, test, type Page } from '@playwright/test';
import { NEWS_SLUGS, NOT_FOUND_ROUTES } from '../../scripts/lib/routes';
import { expectNoAxeViolations, openPreRegistration } from './helpers';

/** The page's background colour, as computed. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

const LIGHT_BACKGROUND = 'rgb(255, 250, 240)';
const DARK_BACKGROUND = 'rgb(18, 26, 30)';

test.describe('display settings', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('two taps from the header: dark theme and larger text, kept after a reload, no cookie', async ({
    page,
    context,
  }) => {
    await page.goto('/ecole');
    expect(await background(page)).toBe(LIGHT_BACKGROUND);
    await page.getByRole('link', { name: 'Paramètres d’affichage' }).first().click();
    await expect(page).toHaveURL(/\/affichage\?retour=%2Fecole$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paramètres d’affichage');
    await page.getByRole('radio', { name: /^Sombre/ }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'sombre');
    expect(await background(page)).toBe(DARK_BACKGROUND);
    const before = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    await page.getByRole('radio', { name: /^Plus grande/ }).check();
    const after = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(after).toBe(before * 1.25);

    await page.reload();
    await expect(page.getByRole('radio', { name: /^Sombre/ })).toBeChecked();
    await expect(page.getByRole('radio', { name: /^Plus grande/ })).toBeChecked();
    await page.getByRole('link', { name: 'Revenir à la page précédente' }).click();
    await expect(page).toHaveURL(/\/ecole$/);
    expect(await background(page)).toBe(DARK_BACKGROUND);
    expect(await context.cookies()).toEqual([]);

    // And back to the device's own theme from the footer's link.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Paramètres d’affichage' }).click();
    await page
      .getByRole('radio', { name: /^Comme mon appareil/ })
      .first()
      .check();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  });

  test('applied before the first paint: on <html> before <body> exists, and no policy refuses it', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('affichage', JSON.stringify({ theme: 'sombre', espacement: 'large' }));
      // Whatever <html> carries when <body> is parsed, i.e. before anything can paint.
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        observer.disconnect();
        (window as unknown as { atBody: string }).atBody = JSON.stringify({ ...document.documentElement.dataset });
      }).observe(document, { childList: true, subtree: true });
    });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto('/soutenir');
    expect(JSON.parse(await page.evaluate(() => (window as unknown as { atBody: string }).atBody))).toMatchObject({
      theme: 'sombre',
      espacement: 'large',
    });
    expect(refused).toEqual([]);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false, colorScheme: 'dark' });

    test('the device’s dark theme applies, and the page says how to enlarge text', async ({ page }) => {
      await page.goto('/');
      expect(await background(page)).toBe(DARK_BACKGROUND);
      await page.goto('/affichage');
      await expect(page.getByText(/utilisez le zoom de votre navigateur/)).toBeVisible();
      await expect(page.getByRole('radio')).toHaveCount(0);
    });
  });
});

/** One route per page template (the others share a template with one of these). */
const TEMPLATES = [
  '/',
  '/asso',
  '/ecole',
  '/ecole/schema',
  '/soutenir',
  '/soutenir/valide',
  '/contact',
  '/accessibilite',
  '/sitemap',
  '/actualites',
  `/actualites/${NEWS_SLUGS[0]}`,
  '/recherche',
  '/affichage',
  '/facile',
  '/facile/facile-ecole',
  NOT_FOUND_ROUTES[0]!,
];

/**
 * Each theme with every other setting, and the dark theme alone; on a dark device, so that « Clair » is a choice. Text
 * size, spacing and motion change no colour: axe meets each of them with both themes, not once per setting alone.
 */
const SETTINGS: Record<string, Record<string, string>> = {
  'dark theme': { theme: 'sombre' },
  'light theme on a dark device, larger text, wider spacing, reduced motion': {
    theme: 'clair',
    texte: 'grand',
    espacement: 'large',
    animations: 'reduites',
  },
  'dark theme, larger text, wider spacing, reduced motion': {
    theme: 'sombre',
    texte: 'grand',
    espacement: 'large',
    animations: 'reduites',
  },
};

/**
 * Words of the controls and their labels broken inside (« Don ponctu/el »): each word's box spans two lines. Words
 * are cut at spaces and hyphens, where a line may end.
 */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const controls = document.querySelectorAll('button, .button, label, legend, summary, .menu-link, [role="tab"]');
    for (const control of controls) {
      if (!(control as HTMLElement).offsetParent) continue;
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/[^\s\-‐]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(`« ${match[0]} » in « ${control.textContent?.trim().slice(0, 40)} »`);
        }
      }
    }
    return broken;
  });
}

test.describe('every page template with every display setting', () => {
  test.use({ colorScheme: 'dark' });

  for (const route of TEMPLATES) {
    test(`${route}: axe in both themes with every setting (dark theme at 375 and 1280 px), no word broken at 320 px`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.goto(route);
      for (const [label, settings] of Object.entries(SETTINGS)) {
        await page.evaluate((stored) => localStorage.setItem('affichage', stored), JSON.stringify(settings));
        await page.setViewportSize({ width: 375, height: 800 });
        await page.reload();
        await expectNoAxeViolations(page, `${route} (${label}) at 375 px`);
        if (label === 'dark theme') {
          await page.setViewportSize({ width: 1280, height: 900 });
          await expectNoAxeViolations(page, `${route} (${label}) at 1280 px`);
        }
      }

      // The browser's text at 20 px on the narrowest phone: words wrap between them, never inside.
      await page.evaluate(() => localStorage.removeItem('affichage'));
      await page.setViewportSize({ width: 320, height: 700 });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 20, fixed: 16 } });
      await page.reload();
      expect(await brokenWords(page)).toEqual([]);
    });
  }

  test('dark theme: the error summary and the open menu', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.addInitScript(() => localStorage.setItem('affichage', JSON.stringify({ theme: 'sombre' })));
    await openPreRegistration(page);
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(page.locator('.error-summary')).toBeFocused();
    await expectNoAxeViolations(page, '/ecole with its error summary (dark theme)');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expectNoAxeViolations(page, '/ecole with the menu open (dark theme)');
  });
});
