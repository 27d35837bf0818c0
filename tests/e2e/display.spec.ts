/**
 * « Paramètres d'affichage » (/affichage, src/features/display/): reached from the header and the footer, applied at
 * once, kept on the device without a cookie, applied before the first paint on every page, the device's dark theme
 * followed without JavaScript; on every page template (TEMPLATE_ROUTES and the not-found page), axe clean in four
 * states that meet each theme at each width once and every setting in both themes: the only axe run on the templates
 * themselves (site.spec.ts checks their interactive states, reflow.spec.ts their layout at 320 px).
 */
import { expect, test, type Page } from '@playwright/test';
import { NOT_FOUND_ROUTES, TEMPLATE_ROUTES } from '../../scripts/lib/routes';
import { expectNoAxeViolations, openPreRegistration, VIEWPORTS } from './helpers';

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

/**
 * The four states axe meets on every page template: each theme at each width once, and text size, spacing and motion
 * in both themes (they change no colour, only sizes and wrapping: once per theme is enough, not once per setting
 * alone). The settings are stored as a visitor's choice and applied by a reload; the first state is a light device
 * with nothing stored, the others a dark one, so that « Clair » is a choice over the device's. A chosen dark theme
 * is the same palette as a dark device's (light-dark() in tokens.css).
 */
const AXE_STATES: {
  label: string;
  device: 'light' | 'dark';
  viewport: (typeof VIEWPORTS)[number];
  settings?: object;
  /** The page's background in that state: the theme axe meets. */
  expected: string;
}[] = [
  {
    label: 'light device, no setting, at 1280 px',
    device: 'light',
    viewport: VIEWPORTS[1],
    expected: LIGHT_BACKGROUND,
  },
  {
    label: 'dark theme at 375 px',
    device: 'dark',
    viewport: VIEWPORTS[0],
    settings: { theme: 'sombre' },
    expected: DARK_BACKGROUND,
  },
  {
    label: 'light theme on a dark device, larger text, wider spacing, reduced motion, at 375 px',
    device: 'dark',
    viewport: VIEWPORTS[0],
    settings: { theme: 'clair', texte: 'grand', espacement: 'large', animations: 'reduites' },
    expected: LIGHT_BACKGROUND,
  },
  {
    label: 'dark theme, larger text, wider spacing, reduced motion, at 1280 px',
    device: 'dark',
    viewport: VIEWPORTS[1],
    settings: { theme: 'sombre', texte: 'grand', espacement: 'large', animations: 'reduites' },
    expected: DARK_BACKGROUND,
  },
];

// The only place axe checks the page templates themselves (site.spec.ts checks how each route loads).
test.describe('every page template in both themes with every display setting', () => {
  for (const route of [...TEMPLATE_ROUTES, NOT_FOUND_ROUTES[0]!]) {
    test(`${route}: axe clean in the light theme at 1280 px and the dark at 375, then each with every setting at the other width`, async ({
      page,
    }) => {
      // Four page loads and four axe runs: room for a busy machine.
      test.setTimeout(120_000);
      for (const [index, state] of AXE_STATES.entries()) {
        await test.step(state.label, async () => {
          await page.emulateMedia({ colorScheme: state.device });
          await page.setViewportSize(state.viewport);
          if (index === 0) await page.goto(route);
          else {
            await page.evaluate((stored) => localStorage.setItem('affichage', stored), JSON.stringify(state.settings));
            await page.reload();
          }
          expect(await background(page)).toBe(state.expected);
          await expectNoAxeViolations(page, `${route} (${state.label})`);
        });
      }
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
