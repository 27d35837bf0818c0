/**
 * Browser tests of the built site (dist/ served like Netlify): every route
 * loads cleanly, axe-core finds no WCAG 2.2 AA violation in the interactive
 * states (a dialog, the menus open), and the menu, dialogs, footer, forms and
 * fallbacks work as a visitor uses them (by role and accessible name). axe on
 * the page templates themselves runs in display.spec.ts, in both themes.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations, loadEverything, VIEWPORTS, watchCspIssues, watchPage } from './helpers';
import { HOME_NEWS_COUNT } from '../../src/features/content/news/news';
import { NEWS_SLUGS, NOT_FOUND_ROUTES, ROUTES } from '../../scripts/lib/routes';

const NOT_FOUND_TEXT = "Oups, mais il n'y a rien ici";

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
const burger = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true });

/**
 * Loads a route at 375px and checks what every page must have (status, the
 * production headers, lang, title, one h1, no '[at]', every image and frame
 * loading), then that nothing went wrong on the way: no console error, no
 * failed request to our origin, no Content-Security-Policy issue. The load
 * checks are soft so that one failure does not hide the others.
 */
async function checkRoute(page: Page, baseURL: string, route: string, status: 200 | 404): Promise<void> {
  const watch = watchPage(page, baseURL, status === 404 ? route : undefined);
  const cspIssues = await watchCspIssues(page);
  await page.setViewportSize(VIEWPORTS[0]);
  await test.step('loads with status, lang, title and one h1', async () => {
    const response = await page.goto(route);
    expect.soft(response?.status()).toBe(status);
    // Served under the production headers (the build's Content-Security-Policy): a violation fails below.
    const headers = response?.headers() ?? {};
    expect.soft(headers['content-security-policy']).toMatch(/(^|;)\s*script-src 'self'[^;]* 'sha256-/);
    expect.soft(headers['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect.soft(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect.soft(headers['x-content-type-options']).toBe('nosniff');
    await expect.soft(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect.soft(page).toHaveTitle(/\S/);
    await expect.soft(page.locator('h1')).toHaveCount(1);
    await expect.soft(page.locator('h1')).toBeVisible();
    expect.soft(await page.evaluate(() => document.body.innerText)).not.toContain('[at]');
    await loadEverything(page);
  });
  await test.step('no console error, no failed request to our origin, no Content-Security-Policy issue', () => {
    expect(watch.problems).toEqual([]);
    expect(cspIssues).toEqual([]);
  });
}

// Spec §1 « The interface is in French » (lang="fr"), and §2's routes (« contact », « any other path »: not-found page
// 'Oups, mais il n'y a rien ici' and a button back home, the legal pages linked from the footer) load here.
// axe on each page template (TEMPLATE_ROUTES and the not-found page): display.spec.ts.
test.describe('every route', () => {
  for (const route of ROUTES) {
    test(`${route} loads cleanly`, async ({ page, baseURL }) => {
      await checkRoute(page, baseURL!, route, 200);
    });
  }

  for (const route of NOT_FOUND_ROUTES) {
    test(`${route} shows the not-found page (404) with a way home`, async ({ page, baseURL }) => {
      await checkRoute(page, baseURL!, route, 404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND_TEXT);
      await page.getByRole('main').getByRole('link', { name: 'Retour à l’accueil' }).click();
      await expect(page).toHaveURL('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(NOT_FOUND_TEXT);
    });
  }
});

test('the Content-Security-Policy is enforced: an injected inline script is refused and reported', async ({ page }) => {
  await page.goto('/');
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; directive: string }>((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) =>
          resolve({ ran: 'injected' in window, directive: event.effectiveDirective }),
        );
        const script = document.createElement('script');
        script.textContent = 'window.injected = true;';
        document.body.append(script);
      }),
  );
  expect(outcome).toEqual({ ran: false, directive: 'script-src-elem' });
});

test('the home page shows the latest news, newest first, then a link to all the news', async ({ page }) => {
  await page.goto('/');
  const section = page.locator('#actualites');
  const news = section.locator('a[href^="/actualites/"]');
  const hrefs = await news.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  expect(hrefs).toEqual(NEWS_SLUGS.slice(0, HOME_NEWS_COUNT).map((slug) => `/actualites/${slug}`));
  await section.getByRole('link', { name: 'Toutes les actualités', exact: true }).click();
  await expect(page).toHaveURL('/actualites');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Actualités');
});

// One width per state: the page under it is checked at both by display.spec.ts.
test.describe('accessibility of interactive states (axe-core, WCAG 2.2 AA)', () => {
  test('/asso with an "En savoir plus" dialog open at 375px', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto('/asso');
    await page
      .getByRole('button', { name: /^En savoir plus/ })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoAxeViolations(page, '/asso dialog open at 375px');
  });

  test.describe('375px menu', () => {
    test.use({ viewport: VIEWPORTS[0] });
    test('/ with the burger menu open', async ({ page }) => {
      await page.goto('/');
      await burger(page).click();
      await expect(mainMenu(page).getByRole('link', { name: 'Contact' })).toBeVisible();
      await page.getByRole('button', { name: 'Sous-menu L’école' }).click();
      await expect(mainMenu(page).getByRole('link', { name: 'Notre projet' })).toBeVisible();
      await expectNoAxeViolations(page, '/ burger menu open at 375px');
    });
  });

  test.describe('1280px sub-menu', () => {
    test.use({ viewport: VIEWPORTS[1] });
    test('/ with the sub-menu open', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Sous-menu L’école' }).click();
      await expect(mainMenu(page).getByRole('link', { name: 'Notre projet' })).toBeVisible();
      await expectNoAxeViolations(page, '/ sub-menu open at 1280px');
    });
  });
});

test.describe('main menu', () => {
  test.describe('375px: burger', () => {
    test.use({ viewport: VIEWPORTS[0] });

    // Spec §2 « A main menu with a burger button ».
    test('opens with the keyboard, closes with Escape and gives focus back', async ({ page }) => {
      await page.goto('/');
      const button = burger(page);
      const asso = mainMenu(page).getByRole('link', { name: 'L’association' });
      const contact = mainMenu(page).getByRole('link', { name: 'Contact' });
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(asso).toBeHidden();
      await expect(contact).toBeHidden();

      await button.focus();
      await page.keyboard.press('Enter');
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await expect(asso).toBeVisible();
      await expect(contact).toBeVisible();

      await page.keyboard.press('Escape');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(asso).toBeHidden();
      await expect(button).toBeFocused();
    });

    test('closes when a tap or the focus leaves it: nothing stays open over the page', async ({ page }) => {
      await page.goto('/');
      const button = burger(page);
      const asso = mainMenu(page).getByRole('link', { name: 'L’association' });
      await button.click();
      await expect(asso).toBeVisible();
      // A tap on the page below the panel.
      await page.mouse.click(10, VIEWPORTS[0].height - 20);
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(asso).toBeHidden();

      await button.click();
      const links = mainMenu(page).locator('#menu-principal a:visible, #menu-principal button:visible');
      await links.last().focus();
      await page.keyboard.press('Tab');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(asso).toBeHidden();
    });
  });

  test.describe('1280px: inline menu', () => {
    test.use({ viewport: VIEWPORTS[1] });

    // The top level's order, hidden links and the burger's absence: specification.spec.ts, « §2 « A main menu … ».
    test('the sub-menu button toggles its children', async ({ page }) => {
      await page.goto('/');
      const menu = mainMenu(page);
      const toggle = menu.getByRole('button', { name: 'Sous-menu L’école' });
      const children = ['Notre projet', 'Pré-inscription', 'Suivi des démarches'].map((name) =>
        menu.getByRole('link', { name, exact: true }),
      );
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      for (const child of children) await expect(child).toBeHidden();

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      for (const child of children) await expect(child).toBeVisible();

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      for (const child of children) await expect(child).toBeHidden();
    });
  });
});

test.describe('legal pages', () => {
  test('every link of the Plan du site leads to a page of the site', async ({ page }) => {
    await page.goto('/sitemap');
    const hrefs = await page
      .getByRole('main')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(10);
    for (const href of new Set(hrefs.map((href) => href.split('#')[0] as string))) {
      expect((await page.request.get(href)).status(), href).toBe(200);
    }
  });

  test('the forms’ data notice is reachable from the footer and names the CNIL', async ({ page }) => {
    await page.goto('/ecole');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Données personnelles', exact: true }).click();
    await expect(page).toHaveURL('/rgpd');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Données personnelles');
    await expect(page.getByRole('main').getByRole('link', { name: 'www.cnil.fr' })).toHaveAttribute(
      'href',
      'https://www.cnil.fr',
    );
  });
});

// Spec §2 « soutenir/{checkout} »: 'annule' shows 'Paiement annulé. Peut-être voulez-vous réessayer ?' (§8), 'valide' a
// thank-you message.
test.describe('donation return pages', () => {
  test('/soutenir/annule says the payment was cancelled above the donation form, one click from retrying', async ({
    page,
  }) => {
    await page.goto('/soutenir/annule');
    await expect(page.getByText('Paiement annulé. Peut-être voulez-vous réessayer ?', { exact: true })).toBeVisible();
    await expect(page.getByText('Votre choix est conservé ci-dessous : un clic suffit pour réessayer.')).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Montants proposés' })).toBeVisible();
    // « Faire un don » before the form hydrates (no amount in the server's HTML), « Faire un don de 25 € » after.
    await expect(page.getByRole('main').getByRole('button', { name: /^Faire un don/ })).toBeVisible();
  });

  test('/soutenir/valide thanks the donor', async ({ page }) => {
    await page.goto('/soutenir/valide');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/merci/i);
  });
});

test.describe('school pages', () => {
  // Its source (menus/divers schema.src, spec §2 « ecole/schema »): specification.spec.ts, « §2 « ecole/schema » ».
  test('/ecole/schema embeds the administrative steps in a titled frame', async ({ page }) => {
    await page.goto('/ecole/schema');
    const frame = page.locator('iframe');
    await expect(frame).toHaveCount(1);
    await expect(frame).toHaveAttribute('title', /\S/);
    await frame.scrollIntoViewIfNeeded();
    await expect(page.frameLocator('iframe').locator('body')).not.toBeEmpty();
    // Holding the focus, the frame shows the site's focus ring (its content draws none the page can see).
    await frame.focus();
    await expect(frame).toHaveCSS('outline-style', 'solid');
    await expect(frame).toHaveCSS('outline-width', '3px');
  });

  test('/ecole has the pre-registration form with labelled fields', async ({ page }) => {
    await page.goto('/ecole');
    const form = page.getByRole('main').locator('form');
    await expect(form.getByLabel('Prénom de l’enfant')).toBeEditable();
    await expect(form.getByLabel('Votre email')).toHaveAttribute('type', 'email');
    const country = form.getByLabel('Pays', { exact: true });
    await expect(country.locator('option').first()).toHaveText('France');
    await expect(country).toHaveValue('FR');
    expect(await country.evaluate((select: HTMLSelectElement) => select.selectedIndex)).toBe(0);
    // Spec §3 « pays is chosen from a country list with code, with France first ».
    expect(await country.locator('option').count()).toBeGreaterThan(100);
    const consent = form.getByRole('checkbox', { name: /J’accepte/ });
    await expect(consent).not.toBeChecked();
    await consent.check();
    await expect(consent).toBeChecked();
  });
});

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('the dialog opens and closes without animation', async ({ page }) => {
    await page.goto('/asso');
    await page
      .getByRole('button', { name: /^En savoir plus/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => getComputedStyle(element).animationName)).toBe('none');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the main menu links are shown at 375px, without covering the page', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto('/');
    const menu = mainMenu(page);
    await expect(burger(page)).toBeHidden();
    for (const name of ['Accueil', 'L’association', 'L’école', 'Notre projet', 'Nous soutenir', 'Contact']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // Nothing can close the menu without JavaScript, so it must not hide what is below it.
    const header = page.getByRole('banner');
    for (const element of [
      header.getByRole('link', { name: 'Les Petits Pas Ensemble' }),
      header.getByRole('link', { name: 'Faire un don' }),
      header.getByRole('link', { name: 'Pré-inscrire mon enfant' }),
      page.getByRole('heading', { level: 1 }),
    ]) {
      expect(await isUncovered(element), `${element} is covered by another element`).toBe(true);
    }
  });

  test('at 1280px the sub-menu shows on focus or hover and covers nothing otherwise', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto('/ecole/schema');
    const menu = mainMenu(page);
    const child = menu.getByRole('link', { name: 'Notre projet', exact: true });
    await expect(menu.getByRole('button', { name: 'Sous-menu L’école' })).toBeHidden();
    await expect(child).toBeHidden();
    expect(await isUncovered(page.getByRole('heading', { level: 1 })), 'the h1 is covered').toBe(true);

    await menu.getByRole('link', { name: 'L’école', exact: true }).focus();
    await expect(child).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(child).toBeFocused();
    await page.getByRole('heading', { level: 1 }).hover();
    await page.getByRole('main').click({ position: { x: 5, y: 5 } });
    await expect(child).toBeHidden();

    await menu.getByRole('link', { name: 'L’école', exact: true }).hover();
    await expect(child).toBeVisible();
  });
});

/**
 * Whether the element, scrolled to the middle of the viewport, is the topmost
 * one at its centre and near both ends of its box.
 */
function isUncovered(element: Locator): Promise<boolean> {
  return element.evaluate((target) => {
    target.scrollIntoView({ block: 'center' });
    const box = target.getBoundingClientRect();
    return [0.02, 0.5, 0.98].every((fraction) =>
      target.contains(document.elementFromPoint(box.x + box.width * fraction, box.y + box.height / 2)),
    );
  });
}

test.describe('fluid layout', () => {
  test.use({ viewport: { width: 320, height: 700 } });
  test('no page scrolls sideways at 320px (the narrowest phones)', async ({ page }) => {
    for (const route of [...ROUTES, NOT_FOUND_ROUTES[0] as string]) {
      await page.goto(route);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${route} is ${overflow}px wider than the 320px screen`).toBeLessThanOrEqual(0);
    }
  });
});
