/**
 * « Paramètres d'affichage » (/affichage, src/features/display/): reached from the header and the footer, applied at
 * once, kept on the device without a cookie, applied before the first paint on every page, the device's dark theme
 * followed without JavaScript; axe clean in the dark theme and with each setting.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './helpers';

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

test.describe('axe with each display setting', () => {
  const SETTINGS = {
    'dark theme': { theme: 'sombre' },
    'larger text': { texte: 'grand' },
    'wider spacing': { espacement: 'large' },
    'reduced motion, light theme on a dark device': { animations: 'reduites', theme: 'clair' },
  };
  for (const [label, settings] of Object.entries(SETTINGS)) {
    test(label, async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.addInitScript((stored) => localStorage.setItem('affichage', stored), JSON.stringify(settings));
      for (const route of ['/', '/ecole', '/soutenir', '/affichage']) {
        await page.goto(route);
        await expectNoAxeViolations(page, `${route} (${label})`);
      }
    });
  }

  test('dark theme: the error summary and the open menu', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.addInitScript(() => localStorage.setItem('affichage', JSON.stringify({ theme: 'sombre' })));
    await page.goto('/ecole');
    await page
      .locator('astro-island:has(form[action="/api/preinscription"]):not([ssr])')
      .waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(page.locator('.error-summary')).toBeFocused();
    await expectNoAxeViolations(page, '/ecole with its error summary (dark theme)');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expectNoAxeViolations(page, '/ecole with the menu open (dark theme)');
  });
});
