/**
 * The specification's conformance index (/work/shared/spec/association-website.md): each of its sentences, section by
 * section, with the test that checks it. Each behaviour is tested once (docs/testing.md): most sentences are tested in
 * the spec of their subject (site, forms, donation, carousels), whose test carries the quote in its title or a comment,
 * or in a lower layer that sees the same as a visitor (a component test); a comment here names that test, so grepping a
 * quote finds it. The tests here are the sentences no other test checks.
 *
 * Dataset-agnostic: what the pages should show comes from the content the build pulled (src/data/*.json, written by the
 * same build as dist/), never from the demo's names. So it runs on the demo build (the default) and on a build of the
 * original admin's shape: `CONTENT_DATASET=original npm run build`, then `npx playwright test --project built
 * tests/e2e/specification.spec.ts` (docs/content.md, « Datasets »). The specification's own texts and numbers are
 * written here literally: a constant changed in the code fails the suite.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { VIEWPORTS } from './helpers';

// --- The specification's texts and numbers (§5, §9), literally. ---
const EMAIL_INCORRECT = "L'email ne semble pas correct, pouvez-vous le vérifier ?";
const MESSAGE_TIMEOUT_MS = 4000;

// --- What the build pulled (spec §7: « Content fills the pages »). ---
interface Link {
  titre: string;
  href?: string;
  ancre?: string;
  statut?: boolean;
  ordre?: number;
  children?: Link[];
}
interface Article {
  slug: string;
  cat: string;
  titre: string;
  intro?: string;
  contenu?: string;
}
const pulled = <T>(name: string): Record<string, T> =>
  JSON.parse(readFileSync(new URL(`../../src/data/${name}.json`, import.meta.url), 'utf8')) as Record<string, T>;
const menus = pulled<{ liens: Link[]; schema?: { src?: string } }>('menus');
const articles = pulled<Article>('articles');
const sponsorCount = Object.keys(pulled('partenaires')).length;
/** Links as spec §3 says they show: statut false hidden, ordre ascending (the pull made both typed; none last). */
const shown = (links: Link[] = []): Link[] =>
  links
    .filter((link) => link.statut !== false)
    .toSorted((a, b) => (a.ordre ?? Number.POSITIVE_INFINITY) - (b.ordre ?? Number.POSITIVE_INFINITY));
/** A menu's links as they show. */
const shownLinks = (id: string): Link[] => shown(menus[id]?.liens);
/** A link's address with its anchor (spec §3 « ancre »). */
const linkHref = (link: Link) => (link.ancre ? `${(link.href ?? '').split('#')[0]}#${link.ancre}` : link.href);
/** Spec §9: an email stored with '[at]' shows with '@'. */
const revealAt = (text: string) => text.replace(/\s*\[\s*at\s*\]\s*/gi, '@');
/** Spaces collapsed, a colon spaced as the site writes a label (« Contact : … »). */
const spaced = (text: string) => text.replace(/\s+/g, ' ').replace(/ ?: /g, ' : ');
/** What a visitor reads of a stored text (plain or editors' HTML): its lines, '[at]' revealed, spaces collapsed. */
const shownLines = (stored = ''): string[] =>
  revealAt(
    stored
      .replace(/<br\s*\/?>|<\/(?:p|li|div|h\d)>/gi, '\n')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&'),
  )
    .split('\n')
    .map((line) => spaced(line).trim())
    .filter(Boolean);
const ofCategory = (cat: string) => Object.values(articles).filter((article) => article.cat === cat);

const banner = (page: Page) => page.locator('#message-banner');

/** The home page with the newsletter island hydrated, its dialog open. */
async function openNewsletter(page: Page): Promise<Locator> {
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'S’inscrire à la lettre d’information' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
  await expect(dialog).toBeVisible();
  // Whenever the island hydrates, its button says whether it can be pressed (spec §5).
  await expect(dialog.getByRole('button', { name: 'M’inscrire' })).toHaveAttribute('aria-disabled', 'true');
  return dialog;
}

// ---------------------------------------------------------------------------------------------------------------------

// §1 « The interface is in French »: site.spec.ts, « every route » (lang="fr" on every route and the not-found page).

test.describe('§2 Screens and routes', () => {
  // §2 « ecole/schema »: beyond the frame's source (tested here), its title, content and focus ring: site.spec.ts,
  //   « school pages »; tests/build/dist.test.ts and content-variant.test.ts (an external host).
  // §2 « soutenir »: site.spec.ts, « every route »; §9 « the page says it is a test version »:
  //   tests/components/DonationForm.test.tsx, « says it is a test version with a pk_test_ key ».
  // §2 « soutenir/annule » shows 'Paiement annulé. Peut-être voulez-vous réessayer ?' (§8), with the donation form, and
  //   « soutenir/valide » shows a thank-you message: site.spec.ts, « donation return pages »; donation.spec.ts.
  // §2 « contact »: site.spec.ts, « every route ».
  // §2 « any other path »: not-found page 'Oups, mais il n'y a rien ici' (§8) and a button back home: site.spec.ts,
  //   « every route » (the not-found routes).
  // §2 « The routes mentions, rgpd and sitemap are linked from the footer » (beyond §2: they are pages): « A footer
  //   with the address … » below (the links), and site.spec.ts, « every route » (the pages).

  test("§2 « '' »: home with school introduction cards, news carousel, sponsors carousel, newsletter popup; « A header with social and highlight links, shown larger on home »", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS[1]);
    const height = async (path: string) => {
      await page.goto(path);
      const header = page.getByRole('banner');
      for (const link of shownLinks('reseaux')) {
        await expect(header.locator(`a[href="${link.href}"]`).first(), link.titre).toBeAttached();
      }
      for (const link of shownLinks('divers')) {
        await expect(header.getByRole('link', { name: link.titre }).first(), link.titre).toBeVisible();
      }
      return (await header.boundingBox())!.height;
    };
    const inner = await height('/contact');
    expect(await height('/')).toBeGreaterThan(inner);

    // The home page, as loaded above.
    const cards = ofCategory('accueil');
    const intro = page.getByRole('region', { name: 'Présentation' });
    await expect(intro.locator('.cards > li')).toHaveCount(cards.length);
    for (const card of cards) await expect(intro.getByRole('heading', { name: card.titre, exact: true })).toBeVisible();
    if (ofCategory('actualites').length > 0) {
      await expect(page.locator('[aria-roledescription="carrousel"][aria-labelledby="news-title"]')).toBeVisible();
    }
    if (sponsorCount > 0) {
      await expect(page.locator('[aria-roledescription="carrousel"][aria-labelledby="sponsors-title"]')).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'S’inscrire à la lettre d’information' })).toBeVisible();
  });

  test('§2 « ecole »: the articles of category ecole plus the pre-registration form', async ({ page }) => {
    await page.goto('/ecole');
    for (const article of ofCategory('ecole')) {
      await expect(
        page.getByRole('main').getByText(article.titre, { exact: true }).first(),
        article.slug,
      ).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Inscrire mon enfant' })).toBeVisible();
  });

  test("§2 « asso »: articles of category asso, each with an optional popup labelled 'En savoir plus'; §4 « Popups for an article … open and close »", async ({
    page,
  }) => {
    await page.goto('/asso');
    const asso = ofCategory('asso');
    const cards = page.getByRole('main').getByRole('article');
    await expect(cards).toHaveCount(asso.length);
    for (const article of asso) {
      const card = cards.filter({ has: page.getByRole('heading', { name: article.titre, exact: true }) });
      await expect(card, article.slug).toHaveCount(1);
      const opener = card.getByRole('button', { name: /^En savoir plus/ });
      if (!article.contenu?.trim()) {
        await expect(opener, `${article.slug} has no contenu`).toHaveCount(0);
        continue;
      }
      await expect(opener, article.slug).toHaveCount(1);
      const dialog = page.getByRole('dialog', { name: article.titre });
      await expect(dialog).toBeHidden();
      // Beyond §4: Escape closes it too, and the focus goes into the dialog, then back to its opener.
      await opener.click();
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
      await opener.click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Fermer' }).click();
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }
  });

  test('§2 « ecole/schema »: a frame whose source is menus/divers schema.src', async ({ page }) => {
    await page.goto('/ecole/schema');
    const src = menus.divers?.schema?.src;
    if (src) await expect(page.locator('iframe')).toHaveAttribute('src', src);
    // Beyond §2: without schema.src the page says so rather than showing an empty frame.
    else await expect(page.locator('iframe')).toHaveCount(0);
  });
});

test.describe('§2 Shared layout', () => {
  // §2 « A main menu with a burger button »: beyond the order and the hidden links (tested here), the burger and the
  //   sub-menus with the keyboard, Escape, a tap outside, and without JavaScript: site.spec.ts, « main menu » and
  //   « without JavaScript ».
  // §9 « [at] as @ » on every page of the demo: site.spec.ts, « every route ».

  test('§2 « A main menu with a burger button »; §3 « statut (false hides the link), ordre (sort ascending) », for links and sub-links', async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto('/asso');
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    const burger = nav.getByRole('button', { name: 'Menu', exact: true });
    const items = nav.locator('#menu-principal > li');
    const links = shownLinks('principal');
    // Wide: the top level inline, in order, without the burger.
    await expect(burger).toBeHidden();
    await expect(items).toHaveCount(links.length);
    for (const [index, link] of links.entries()) {
      await expect(items.nth(index)).toBeVisible();
      await expect(items.nth(index), link.titre).toContainText(link.titre);
      if (link.href) await expect(items.nth(index).locator('a').first()).toHaveAttribute('href', linkHref(link)!);
      const children = shown(link.children);
      if (children.length > 0) {
        await expect(items.nth(index).locator('.submenu > li')).toContainText(children.map((child) => child.titre));
      }
    }
    // Hidden links and sub-links (statut false) are not in the page at all.
    const hidden = (menus.principal?.liens ?? []).flatMap((link) => [
      ...(link.statut === false ? [link] : []),
      ...(link.children ?? []).filter((child) => child.statut === false),
    ]);
    const shownHrefs = new Set(links.flatMap((link) => [link, ...shown(link.children)]).map(linkHref));
    for (const link of hidden) {
      await expect(nav.getByText(link.titre, { exact: true }), link.titre).toHaveCount(0);
      const href = linkHref(link);
      if (href && !shownHrefs.has(href)) await expect(nav.locator(`a[href="${href}"]`), href).toHaveCount(0);
    }

    // A phone: the items behind the burger, the same ones in the same order.
    await page.setViewportSize(VIEWPORTS[0]);
    await expect(items.first()).toBeHidden();
    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await expect(items.first()).toBeVisible();
    await expect(items).toContainText(links.map((link) => link.titre));
  });

  test("§2 « A footer with the address (taken from the article with id adresse), phone numbers, mailto links, and links to legal notice, data protection, site map and contact »; §9 « stored with an '[at]' obfuscation that is shown as '@' »", async ({
    page,
  }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    const adresse = articles.adresse;
    if (adresse) {
      const address = footer.locator('address');
      const shownText = spaced(await address.innerText());
      for (const line of [
        revealAt(adresse.titre).trim(),
        ...shownLines(adresse.intro),
        ...shownLines(adresse.contenu),
      ]) {
        expect(shownText, 'the footer’s address').toContain(line);
      }
      const stored = shownLines(`${adresse.intro ?? ''}\n${adresse.contenu ?? ''}`).join('\n');
      for (const email of stored.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? []) {
        await expect(address.locator(`a[href="mailto:${email}"]`).first(), email).toHaveText(email);
      }
      // French numbers as editors write them (04 78 12 34 56, 04.78.12.34.56): a tel: link with the digits.
      for (const phone of stored.match(/(?<![\d+])0\d(?:[\s.-]?\d{2}){4}(?!\d)/g) ?? []) {
        await expect(address.locator(`a[href="tel:${phone.replace(/\D/g, '')}"]`).first(), phone).toHaveText(phone);
      }
    }
    await expect(footer).not.toContainText('[at]');

    // The links of menus/pied, in order; the specification names four of them.
    const information = footer.getByRole('navigation', { name: 'Informations' }).getByRole('link');
    const pied = shownLinks('pied');
    await expect(information).toContainText(pied.map((link) => link.titre));
    const hrefs = await information.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(pied.map(linkHref));
    expect(hrefs).toEqual(expect.arrayContaining(['/mentions', '/rgpd', '/sitemap', '/contact']));
    for (const href of ['/mentions', '/rgpd', '/sitemap', '/contact']) {
      expect((await page.request.get(href)).status(), href).toBe(200);
    }

    // The contact page shows the same address: no '[at]' there either.
    await page.goto('/contact');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('[at]');
  });

  test(`§2 « A transient message banner at the bottom »; §4/§9 it goes after ${MESSAGE_TIMEOUT_MS / 1000} s`, async ({
    page,
  }) => {
    // The page's clock, driven by the test: 4 s of the page's time, whatever the machine's load.
    await page.clock.install();
    const dialog = await openNewsletter(page);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await dialog.getByLabel(/Votre email/).press('Enter');
    await expect(banner(page)).toHaveText(EMAIL_INCORRECT);
    const box = (await banner(page).locator('p').boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(page.viewportSize()!.height / 2);
    await page.clock.runFor(MESSAGE_TIMEOUT_MS - 100);
    await expect(banner(page)).toHaveText(EMAIL_INCORRECT);
    await page.clock.runFor(100);
    await expect(banner(page)).toHaveText('');
  });
});

// §2/§4/§9 Home carousels: carousels.spec.ts, at each width: §9 « window width divided by 420, floored » (beyond §9: at
//   least one) and « window width divided by 160, rounded »; §4 « forward past the end returns to the start; backward
//   from the start goes to the end »; « It scrolls only when the item count exceeds the visible count » (and « arrows
//   only when the items overflow »). §9 « Slide duration is 300 ms »: carousels.spec.ts, « motion ».

// §3 « pays is chosen from a country list with code, with France first »: site.spec.ts, « /ecole has the
//   pre-registration form … ».

// §4 « Popups for an article and for the newsletter open and close »: the article's, « §2 « asso » » above; the
//   newsletter's, tests/components/NewsletterPopup.test.tsx, « opens with its button and closes with "Fermer" », and
//   forms.spec.ts, « sums up what is wrong in the dialog … » (Escape, the focus back on its button).
// §4 « the amount index cycles … with wrap-around in both directions »; §9 the amounts: donation.spec.ts, « the arrow
//   keys move through the amounts … », and tests/components/DonationForm.test.tsx, « spec §4: the stepper wraps … ».
// §4 « A loading indicator shows after validating, for up to 4 seconds »: tests/components/DonationForm.test.tsx,
//   « the loading indicator shows for at most 4 s »; donation.spec.ts, « embedded: … the loading indicator in between ».

// §5 Validation rules (newsletter):
// - email « at least 5 characters and contains @ and . »: tests/unit/forms.test.ts (isAcceptableEmail), and
//   tests/components/NewsletterPopup.test.tsx, « spec §5: « M’inscrire » is disabled while the form is invalid … ».
// - « shows 'Merci de saisir un email valide' for an invalid email, and its submit button is disabled … »:
//   tests/components/NewsletterPopup.test.tsx (« once the email is left … », « is disabled while … »); forms.spec.ts,
//   « sums up what is wrong in the dialog … » (in the browser, with axe).
// - an invalid email's message is 'L'email ne semble pas correct, pouvez-vous le vérifier ?'; without consent 'Votre
//   consentement est obligatoire pour vous inscrire': forms.spec.ts, « sums up what is wrong in the dialog … ».
// - success 'Votre email a bien été enregistré, merci pour votre soutien.'; §7 « add to newsletter, payload email,
//   consentement »: forms.spec.ts, « subscribes: … ».
// - §7 « failure shows the error as the message »; §8 service errors passed along as the message text:
//   tests/components/NewsletterPopup.test.tsx, « on failure keeps the error in the dialog … »; forms.spec.ts, « a
//   server failure shows its message … » (the pre-registration, in the browser).
// - without JavaScript, the form still posts: 'L'email ne semble pas correct, pouvez-vous le vérifier ?' for a bad
//   email: forms.spec.ts, « without JavaScript », « the newsletter form posts … ».

// §5/§7 Pre-registration:
// - « Pre-registration: the consent checkbox is required »: forms.spec.ts, « sums up every error … », and
//   tests/components/PreRegistrationForm.test.tsx, « requires the consent box, whatever else is filled in ».
// - §7 « add to inscripitions (spelled so) »: the fields of §3, success shows 'Vous avez été inscrit': forms.spec.ts,
//   « registers: … ».

// §7 Donation calls (the site POSTs /api/don: a GET must not create a payment session):
// - « Donation link »: the amount INDEX is sent; « Response field url is opened in a new tab »: donation.spec.ts, « one
//   click: the hosted link … ».
// - « an error is only logged » (beyond §7: the donor is told too): tests/components/DonationForm.test.tsx, « link: a
//   server error closes the tab, is logged … »; donation.spec.ts, « a failed payment stays in the picker … ».
// - « Embedded checkout init: POST /create-checkout-session, reads clientSecret from the response »: donation.spec.ts,
//   « embedded: one click mounts Stripe’s form … ».
