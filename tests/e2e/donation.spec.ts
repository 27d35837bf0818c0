/**
 * Donations end to end in Chromium: the amount picker, the tax line, the
 * loading indicator, the hosted flow (a new tab at the URL the server got
 * from Stripe) and the embedded flow (POST /create-checkout-session, then
 * Stripe's embedded checkout mounted). Stripe's API is the local fake that
 * the test server started (FAKE_STRIPE); js.stripe.com is routed to a small
 * stub, since this machine cannot reach it.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './helpers';

/** The fake Stripe API of playwright.config.ts's web server. */
const FAKE_STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;

interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

async function stripeRequests(): Promise<RecordedRequest[]> {
  return (await (await fetch(`${FAKE_STRIPE}/__fake__/requests`)).json()) as RecordedRequest[];
}

/** An email no earlier attempt used (the fake keeps its requests across retries). */
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@exemple.fr`;

const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

/** Stripe.js stand-in: window.Stripe with createEmbeddedCheckoutPage that mounts a visible marker. */
const STRIPE_JS_STUB = `
window.Stripe = function Stripe(key) {
  return {
    createEmbeddedCheckoutPage: async function (options) {
      const secret = await options.fetchClientSecret();
      return {
        mount: function (element) {
          const frame = document.createElement('p');
          frame.setAttribute('data-testid', 'stripe-embedded');
          frame.textContent = 'Paiement Stripe intégré (' + key + ', ' + secret + ')';
          element.append(frame);
          // Like the real Stripe.js, a frame from js.stripe.com: the page's frame-src must allow it.
          const iframe = document.createElement('iframe');
          iframe.title = 'Paiement sécurisé Stripe';
          iframe.src = 'https://js.stripe.com/v3/embedded-checkout-inner.html';
          element.append(iframe);
        },
        unmount: function () {},
        destroy: function () {},
      };
    },
  };
};`;

async function openDonationPage(page: Page) {
  let stripeJsLoads = 0;
  await page.route('https://js.stripe.com/**', (route) => {
    if (route.request().resourceType() === 'document') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<title>Stripe</title><p>Formulaire de carte (bouchon)</p>',
      });
    }
    stripeJsLoads += 1;
    return route.fulfill({ contentType: 'application/javascript', body: STRIPE_JS_STUB });
  });
  // The page runs under the build's Content-Security-Policy (scripts/serve-dist.ts): Chromium logs what it blocks.
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await page.goto('/soutenir');
  await page.locator('astro-island:has(.donation):not([ssr])').waitFor({ state: 'attached' });
  return { stripeJsLoads: () => stripeJsLoads, cspViolations };
}

const amounts = (page: Page) => page.getByRole('radiogroup', { name: 'Montants proposés' });
const checked = async (page: Page) =>
  plain(await amounts(page).getByRole('radio', { checked: true }).locator('..').textContent());

async function fillDonor(page: Page, email: string) {
  await page.getByLabel(/Votre prénom/).fill('Paul');
  await page.getByLabel(/Votre nom/).fill('Durand');
  await page.getByLabel(/Votre email/).fill(email);
  await page.getByLabel(/^Adresse/).fill('8 quai Rambaud');
  await page.getByLabel(/Code postal/).fill('69002');
  await page.getByLabel(/^Ville/).fill('Lyon');
}

test.describe('donation page', () => {
  test('cycles the amount both ways; the tax line follows; says it is a test version', async ({ page }) => {
    const { stripeJsLoads } = await openDonationPage(page);
    await expect(page.getByText(/Version de test/)).toBeVisible();
    expect(await checked(page)).toBe('25 €');
    await page.getByRole('button', { name: 'Montant précédent' }).click();
    await page.getByRole('button', { name: 'Montant précédent' }).click();
    expect(await checked(page)).toBe('10 000 €');
    await expect(page.getByText(/ne vous coûte que/)).toHaveText(
      /Votre don de 10\s000\s€ ne vous coûte que 3\s400\s€ après réduction d’impôt/,
    );
    await page.getByRole('button', { name: 'Montant suivant' }).click();
    expect(await checked(page)).toBe('10 €');
    // The radio group works with the keyboard too.
    await amounts(page).getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await checked(page)).toBe('25 €');
    await expect(page.getByText(/ne vous coûte que/)).toHaveText(
      /Votre don de 25\s€ ne vous coûte que 8,50\s€ après réduction d’impôt/,
    );
    await expectNoAxeViolations(page, '/soutenir');
    // Stripe.js is not loaded before a donor pays.
    expect(stripeJsLoads()).toBe(0);
  });

  test('embedded: posts the draft, shows the loading indicator, mounts the checkout', async ({ page }) => {
    const { stripeJsLoads, cspViolations } = await openDonationPage(page);
    await amounts(page)
      .getByRole('radio', { name: /^100\s€$/ })
      .check();
    const email = uniqueEmail('integre');
    await fillDonor(page, email);
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/create-checkout-session', async (route) => {
      await held;
      await route.continue();
    });
    const posted = page.waitForRequest('**/create-checkout-session');
    await page.getByRole('button', { name: /Faire un don de 100/ }).click();
    expect((await posted).postDataJSON()).toEqual({
      moyen: 'integre',
      somme: 3,
      prenom: 'Paul',
      nom: 'Durand',
      email,
      adresse: '8 quai Rambaud',
      postal: '69002',
      ville: 'Lyon',
      pays: 'FR',
    });
    await expect(page.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    await expectNoAxeViolations(page, '/soutenir while loading');
    answer();
    // Server → fake Stripe → Stripe.js (stub) → mount: generous on a loaded 2-core machine.
    await expect(page.getByTestId('stripe-embedded')).toContainText('cs_test_', { timeout: 15_000 });
    await expect(page.getByText('Préparation du paiement sécurisé…')).toBeHidden();
    expect(stripeJsLoads()).toBe(1);
    // Stripe.js and its frame from js.stripe.com are allowed by the donation page's policy.
    await expect(page.frameLocator('iframe[title="Paiement sécurisé Stripe"]').locator('body')).toContainText(
      'Formulaire de carte',
    );
    expect(cspViolations).toEqual([]);
    const sessions = (await stripeRequests()).filter(
      (request) => request.path === '/v1/checkout/sessions' && request.body.customer_email === email,
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.body).toMatchObject({ ui_mode: 'embedded_page', mode: 'payment' });
    await expectNoAxeViolations(page, '/soutenir with the checkout mounted');
  });

  test('hosted: a new tab opens at the URL Stripe gave', async ({ page, context }) => {
    await openDonationPage(page);
    const email = uniqueEmail('lien');
    await fillDonor(page, email);
    await page.getByLabel(/page sécurisée de Stripe/).check();
    // checkout.stripe.com is unreachable here: answer it locally so the new tab loads.
    await context.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout (bouchon)</title>' }),
    );
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: /Faire un don de 25/ }).click(),
    ]);
    await tab.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
    const sessions = (await stripeRequests()).filter(
      (request) => request.path === '/v1/checkout/sessions' && request.body.customer_email === email,
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.body).toMatchObject({ ui_mode: 'hosted_page', mode: 'payment' });
  });

  test('the cancel and thank-you pages', async ({ page }) => {
    await page.goto('/soutenir/annule');
    await expect(page.getByText('Paiement annulé. Peut-être voulez-vous réessayer ?', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, '/soutenir/annule');
    await page.goto('/soutenir/valide?session_id=cs_test_merci');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Merci');
    await expectNoAxeViolations(page, '/soutenir/valide');
  });
});
