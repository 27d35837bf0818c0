/**
 * Pages that hold (WCAG 1.4.4, 1.4.10, 1.4.12): one page per template, public and the staff space's, at 320 px (the
 * narrowest: what holds there holds wider, where the axe tests run at 375 and 1280) with the browser's default font
 * size at 16, 20 and 24 px (Chromium's « Grande » and « Très grande », set through CDP's Page.setFontSizes as the
 * settings do) and with the WCAG 1.4.12 text-spacing override: no sideways scroll, and every control inside the screen
 * and not cut by a box around it; at 20 px, no word of a control or label broken inside. One page load per route: the
 * sizes and settings change in place.
 */
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { NOT_FOUND_ROUTES, TEMPLATE_ROUTES } from '../../scripts/lib/routes';
import { Timestamp } from 'firebase-admin/firestore';
import { subscriptionId } from '../../src/features/newsletter/subscription.server';
import { espaceDatabase, signIn, unique } from './espace-helpers';

const WIDTHS = [320] as const;
const FONT_SIZES = [16, 20, 24] as const;

/** WCAG 1.4.12's values, as the usual bookmarklet applies them. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important; } p { margin-block-end: 2em !important; }`;

/** What is wrong with the page as it is now: sideways scroll, controls off-screen or cut. Empty when it holds. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const overflow = document.documentElement.scrollWidth - width;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} « ${(
        element.getAttribute('aria-label') ??
        element.textContent ??
        ''
      )
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40)} »`;
    if (overflow > 0) {
      // The innermost boxes past the right edge: what to fix.
      const past = [...document.body.querySelectorAll('*')].filter(
        (element) => element.getBoundingClientRect().right > width + 1 && !element.closest('.carousel__viewport'),
      );
      const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
      problems.push(`scrolls ${overflow}px sideways (${innermost.slice(0, 3).map(name).join(', ')})`);
    }
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [tabindex="0"]',
    );
    for (const control of controls) {
      // Out of sight on purpose: hidden, the honeypot, visually hidden until focused, slides off the carousel's view;
      // or inside a data table's own scrolling region (the space's lists: two-dimensional, WCAG 1.4.10's exception).
      const away = '[hidden], dialog:not([open]), [aria-hidden="true"], .visually-hidden, .carousel__viewport';
      if (control.closest(away) || control.closest('.table-scroll')) continue;
      const style = getComputedStyle(control);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // A visually hidden control (checkbox under its pill) is judged by its label's box.
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.opacity === '0') continue;
      if (box.left < -1 || box.right > width + 1) {
        problems.push(`${name(control)} is outside the screen (${Math.round(box.left)}–${Math.round(box.right)})`);
        continue;
      }
      for (let parent = control.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const parentStyle = getComputedStyle(parent);
        if (parentStyle.overflowX === 'visible' && parentStyle.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        if (box.left < clip.left - 1 || box.right > clip.right + 1) {
          problems.push(`${name(control)} is cut by ${name(parent).slice(0, 30)}`);
          break;
        }
      }
    }
    return problems;
  });
}

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

/**
 * Checks the page at every width × font size (and, at 20 px, that no word is broken inside: words wrap between them,
 * never inside), then with the spacing override; returns every problem, labelled.
 */
async function checkEverySize(page: Page, cdp: CDPSession, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const size of FONT_SIZES) {
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: size, fixed: Math.round(size * 0.8125) } });
      const problems = await layoutProblems(page);
      // At 20 px only: at 24 px a long word may have to break to fit in 320 px (overflow-wrap), which is no fault.
      if (size === 20) problems.push(...(await brokenWords(page)).map((word) => `${word} is broken inside`));
      found.push(...problems.map((problem) => `${label} at ${width}px, ${size}px text: ${problem}`));
    }
    const style = await page.addStyleTag({ content: TEXT_SPACING });
    found.push(
      ...(await layoutProblems(page)).map((problem) => `${label} at ${width}px, 24px text + spacing: ${problem}`),
    );
    await style.evaluate((element) => (element as Element).remove());
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 16, fixed: 13 } });
  }
  return found;
}

/**
 * Opens each of `routes` (signed in), checks it is the page itself (200, not a refusal or the sign-in page it may
 * redirect to), then checks it at every size; returns every problem, labelled.
 */
async function checkSpacePages(page: Page, routes: string[]): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const found: string[] = [];
  for (const route of routes) {
    const response = await page.goto(route);
    expect([response?.status(), new URL(page.url()).pathname]).toEqual([200, route]);
    found.push(...(await checkEverySize(page, cdp, route)));
  }
  return found;
}

test.describe('every page template holds at 320 px with 16/20/24 px text and the WCAG text spacing', () => {
  for (const route of [...TEMPLATE_ROUTES, NOT_FOUND_ROUTES[0]!]) {
    test(route, async ({ page }) => {
      const cdp = await page.context().newCDPSession(page);
      await page.goto(route);
      expect(await checkEverySize(page, cdp, route)).toEqual([]);
    });
  }

  // The on-demand pages a visitor reaches from a mail or the footer, in the state a stale link leaves them.
  for (const route of [
    '/soutenir/gerer',
    '/soutenir/gerer/lien?jeton=perime',
    '/newsletter/confirmer?jeton=perime',
    '/newsletter/desinscription?jeton=perime',
    '/espace/connexion',
    '/espace/connexion/lien',
  ]) {
    test(route, async ({ page }) => {
      const cdp = await page.context().newCDPSession(page);
      await page.goto(route);
      expect(await checkEverySize(page, cdp, route)).toEqual([]);
    });
  }

  test('the newsletter dialog and the open menus', async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    await page.goto('/');
    // The popup's island hydrates at the visitor's first act on it (client:interaction).
    await page.getByRole('button', { name: 'S’inscrire à la lettre d’information' }).hover();
    await page.locator('astro-island:has(.newsletter__open):not([ssr])').waitFor({ state: 'attached' });
    await page.setViewportSize({ width: 320, height: 700 });
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await checkEverySize(page, cdp, '/ with the menu open')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'S’inscrire à la lettre d’information' }).click();
    expect(await checkEverySize(page, cdp, '/ with the newsletter dialog')).toEqual([]);
  });

  // Each list holds a row with long texts, as a real year fills them: a table wider than the phone, whose last
  // column (visually hidden link texts) lies past the screen's edge inside its scrolling region.
  test('the staff space', async ({ page }) => {
    const db = await espaceDatabase();
    const id = `cs_test_reflow${unique()}`;
    const now = Timestamp.now();
    await db
      .collection('dons')
      .doc(id)
      .set({
        ...{ montant: 150000, devise: 'eur', prenom: 'Marie-Bernadette', nom: `Delacroix-Vandenberghe ${unique()}` },
        ...{ email: `marie-bernadette.delacroix-vandenberghe.${unique()}@association-exemple.fr`, pays: 'FR' },
        ...{ adresse: '128 boulevard de la Croix-Rousse', postal: '69004', ville: 'Lyon', statut: 'paid' },
        ...{ nature: 'don', livemode: true, evenement: 'checkout.session.completed', session: id, abonnement: '' },
        ...{ datePaiement: now, date: now, recu: `${new Date().getFullYear()}-8${String(Date.now()).slice(-4)}` },
      });
    const email = `jean-christophe.de-la-fontaine.${unique()}@association-exemple.fr`;
    await db
      .collection('newsletter')
      .doc(subscriptionId(email))
      .set({
        ...{ email, statut: 'confirmed', consentement: true, consentementVersion: 'newsletter-2026-01' },
        ...{ consentementTexte: 'J’accepte de recevoir la lettre d’information.', date: now, confirmeLe: now },
      });
    await signIn(page, 'admin@demo.test');
    const routes = ['/espace', '/espace/preinscriptions', '/espace/dons', '/espace/dons/nouveau', '/espace/lettre'];
    expect(await checkSpacePages(page, routes)).toEqual([]);
  });

  test('the editing pages of the staff space, and the admins’ own', async ({ page }) => {
    test.setTimeout(240_000);
    const db = await espaceDatabase();
    // Long words and titles, as real ones are; the menus and the category only when no other test made them.
    const key = unique();
    const long = 'Journée portes ouvertes de l’école inclusive et rencontre avec les accompagnantes (AESH)';
    const entry = { cat: 'actualites', titre: long, intro: `<p>${long}.</p>`, contenu: '', date: '1767225600' };
    await db
      .collection('articles')
      .doc(`reflow-${key}`)
      .set({ ...entry, slug: `reflow-${key}` });
    await db
      .collection('partenaires')
      .doc(`reflow-${key}`)
      .set({ ...entry, slug: `reflow-${key}`, cat: 'partenaires' });
    for (const [collection, id, data] of [
      ['menus', 'principal', { liens: [{ titre: 'Accueil', href: '/', statut: true, ordre: '1' }] }],
      ['categories', 'actualites', { titre: 'Actualités', descr: '', articles: [`reflow-${key}`] }],
    ] as const) {
      const reference = db.collection(collection).doc(id);
      if (!(await reference.get()).exists) await reference.set(data);
    }
    // A change in each form's history, whose table is wider than a phone: it scrolls in its region, not the page.
    const edited = [`articles/reflow-${key}`, `partenaires/reflow-${key}`, 'menus/principal', 'categories/actualites'];
    for (const objet of [...edited, 'association/site', 'articles/adresse']) {
      const [collection, documentId] = objet.split('/');
      await db.collection('historique').add({
        ...{ uid: 'reflow', qui: `marie-bernadette.delacroix-vandenberghe.${key}@association-exemple.fr` },
        ...{ date: Timestamp.now(), action: 'modification', collection, documentId, objet, avant: { titre: long } },
      });
    }
    await signIn(page, 'admin@demo.test');
    const routes = [
      '/espace/articles',
      '/espace/articles/nouveau',
      `/espace/articles/reflow-${key}`,
      `/espace/articles/reflow-${key}/apercu`,
      '/espace/partenaires',
      `/espace/partenaires/reflow-${key}`,
      '/espace/menus',
      '/espace/menus/principal',
      '/espace/categories',
      '/espace/categories/actualites',
      '/espace/association',
      '/espace/publication',
      '/espace/roles',
      '/espace/journal',
      '/espace/compte',
    ];
    expect(await checkSpacePages(page, routes)).toEqual([]);
  });
});
