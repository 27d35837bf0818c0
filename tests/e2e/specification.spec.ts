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
const menus = pulled<{ liens: Link[] }>('menus');
const articles = pulled<Article>('articles');
const sponsorCount = Object.keys(pulled('partenaires')).length;
/** A menu's links as spec §3 says they show: statut false hidden, ordre ascending. */
const shownLinks = (id: string): Link[] =>
  (menus[id]?.liens ?? []).filter((link) => link.statut !== false).toSorted((a, b) => (a.ordre ?? 0) - (b.ordre ?? 0));
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
  // §2 « asso »: articles of category asso, each with an optional popup labelled 'En savoir plus': site.spec.ts,
  //   « /asso "En savoir plus" dialogs ».
  // §2 « ecole/schema »: the frame's source from menus/divers schema.src: site.spec.ts, « /ecole/schema embeds … »;
  //   tests/build/dist.test.ts and content-variant.test.ts (an external host).
  // §2 « soutenir »: site.spec.ts, « every route »; §9 « the page says it is a test version »:
  //   tests/components/DonationForm.test.tsx, « says it is a test version with a pk_test_ key ».
  // §2 « soutenir/annule » shows 'Paiement annulé. Peut-être voulez-vous réessayer ?' (§8), with the donation form, and
  //   « soutenir/valide » shows a thank-you message: site.spec.ts, « donation return pages »; donation.spec.ts.
  // §2 « contact »: site.spec.ts, « every route ».
  // §2 « any other path »: not-found page 'Oups, mais il n'y a rien ici' (§8) and a button back home: site.spec.ts,
  //   « every route » (the not-found routes).
  // §2 « The routes mentions, rgpd and sitemap are linked from the footer » (beyond §2: they are pages): site.spec.ts,
  //   « footer » (the links) and « every route » (the pages).

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
});

test.describe('§2 Shared layout', () => {
  // §2 « A main menu with a burger button »; §3 « statut (false hides the link), ordre (sort ascending) »: site.spec.ts,
  //   « main menu ».
  // §2 « A footer with the address (taken from the article with id adresse), phone numbers, mailto links »; §9 « [at]
  //   as @ »: site.spec.ts, « footer », and « every route » (no '[at]' on any page).

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
