/**
 * Donations end to end in Chromium against the built site: the amount picker, the one-click
 * hosted link (a new tab at Stripe's URL), the embedded checkout, the cancel page keeping the
 * choice, the monthly choice, and the receipt link once the webhook has recorded the gift (the
 * fake Stripe plays the donor paying and signs the webhook). axe once at 375 px in each state (the pages
 * themselves at both widths: display.spec.ts).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolations, openDonationForm, VIEWPORTS } from './helpers';

/** The fake Stripe API of playwright.config.ts's web server. */
const FAKE_STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;
/** The webhook secret playwright.config.ts gives the site. */
const WEBHOOK_SECRET = ['whsec', 'e2e-fake'].join('_');

interface FakeSession {
  id: string;
  mode: string;
  ui_mode: string;
  amount_total: number;
  metadata: Record<string, string>;
}

async function fakeSessions(): Promise<FakeSession[]> {
  return (await (await fetch(`${FAKE_STRIPE}/__fake__/sessions`)).json()) as FakeSession[];
}

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

/** js.stripe.com and checkout.stripe.com are unreachable here: small local stand-ins. */
async function stubStripe(context: BrowserContext): Promise<{ stripeJsLoads: () => number }> {
  let stripeJsLoads = 0;
  await context.route('https://js.stripe.com/**', (route) => {
    if (route.request().resourceType() === 'document') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<title>Stripe</title><p>Formulaire de carte (bouchon)</p>',
      });
    }
    stripeJsLoads += 1;
    return route.fulfill({ contentType: 'application/javascript', body: STRIPE_JS_STUB });
  });
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout (bouchon)</title>' }),
  );
  return { stripeJsLoads: () => stripeJsLoads };
}

/** Opens a donation page and waits for the island (hydrated by the pointer over it); collects the CSP violations. */
async function openDonationPage(page: Page, path = '/soutenir') {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await openDonationForm(page, path);
  return { cspViolations };
}

/**
 * axe on a state of a donation page, once at 375 px, leaving the page there: the pages themselves are checked at both
 * widths by display.spec.ts (docs/testing.md, « Browser tests »).
 */
async function expectAccessibleOnPhone(page: Page, state: string): Promise<void> {
  await page.setViewportSize(VIEWPORTS[0]);
  await expectNoAxeViolations(page, `${state} at ${VIEWPORTS[0].width} px`);
}

const amounts = (page: Page) => page.getByRole('radiogroup', { name: 'Montants proposés' });
const checked = async (page: Page) =>
  plain(await amounts(page).getByRole('radio', { checked: true }).locator('..').textContent());
const linkButton = (page: Page) => page.getByRole('button', { name: /Payer sur la page sécurisée de Stripe/ });

/** Clicks the hosted link; resolves to the new tab, once at Stripe's URL, and that session. */
async function payByLink(page: Page, context: BrowserContext): Promise<{ tab: Page; session: FakeSession }> {
  const before = new Set((await fakeSessions()).map((session) => session.id));
  const [tab] = await Promise.all([context.waitForEvent('page'), linkButton(page).click()]);
  await tab.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
  const id = new URL(tab.url()).pathname.split('/').at(-1) ?? '';
  const session = (await fakeSessions()).find((candidate) => candidate.id === id && !before.has(id));
  expect(session, `session ${id} created by this click`).toBeDefined();
  return { tab, session: session as FakeSession };
}

/** The fake plays the donor paying `session`: Stripe's signed events reach the site's webhook. */
/** The donor pays `session` on Stripe's page, with live keys unless `livemode` is false (a test payment). */
async function pay(session: FakeSession, baseURL: string, livemode = true): Promise<void> {
  const webhook = `${baseURL}/api/stripe-webhook`;
  const response = await fetch(`${FAKE_STRIPE}/__fake__/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: session.id, webhook, secret: WEBHOOK_SECRET, livemode }),
  });
  const { statuses } = (await response.json()) as { statuses: number[] };
  expect(
    statuses.every((status) => status === 200),
    `webhook answers ${statuses}`,
  ).toBe(true);
}

test.describe('donation page', () => {
  // Spec §4 « the amount index cycles … with wrap-around in both directions »: the stepper's wrap and what it says,
  // tests/components/DonationForm.test.tsx (« spec §4: the stepper wraps … »); here once in the browser, with axe.
  test('§9 the amounts; the arrow keys move through the amounts; §4 the stepper wraps; the tax line follows; asks for no personal detail', async ({
    page,
    context,
  }) => {
    const { stripeJsLoads } = await stubStripe(context);
    await openDonationPage(page);
    await expect(page.getByRole('textbox')).toHaveCount(0);
    // Spec §9 « Donation amounts in euros: 10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000 », then the donor's own.
    const labels = await amounts(page)
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => radio.parentElement?.textContent ?? ''));
    expect(labels.map((label) => plain(label).trim())).toEqual([
      ...['10 €', '25 €', '50 €', '100 €', '250 €', '500 €', '1 000 €', '2 000 €', '5 000 €', '10 000 €'],
      'Autre montant',
    ]);
    expect(await checked(page)).toBe('25 €');
    // Inside the radio group the arrows wrap around, as every radio group does, through « Autre montant », the last.
    await amounts(page).getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await checked(page)).toBe('Autre montant');
    await page.keyboard.press('ArrowLeft');
    expect(await checked(page)).toBe('10 000 €');
    await expect(page.getByText(/ne vous coûte que/)).toHaveText(
      /Votre don de 10\s000\s€ ne vous coûte que 3\s400\s€ après réduction d’impôt/,
    );
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await checked(page)).toBe('10 €');
    // The stepper goes from the first amount back to the last, said once where the focus stays.
    const previous = page.getByRole('button', { name: 'Montant précédent' });
    await previous.click();
    expect(await checked(page)).toBe('10 000 €');
    await expect(page.getByRole('button', { name: /^Faire un don de 10\s000\s€$/ })).toBeVisible();
    await expect(previous).toBeFocused();
    await expect(page.locator('.donation__stepper [role="status"]')).toHaveText(/^10\s000\s€$/);
    await expectAccessibleOnPhone(page, '/soutenir after a wrap of the stepper');
    expect(stripeJsLoads()).toBe(0);
  });

  // Spec §7 « Donation link »: the amount INDEX is sent (a POST to /api/don: a GET must not create a payment session);
  // « Response field url is opened in a new tab ».
  test('one click: the hosted link opens Stripe’s page in a new tab for the chosen amount', async ({
    page,
    context,
  }) => {
    await stubStripe(context);
    await openDonationPage(page);
    await amounts(page)
      .getByRole('radio', { name: /^50\s€$/ })
      .check();
    const posted = page.waitForRequest('**/api/don');
    const { session } = await payByLink(page, context);
    expect((await posted).postDataJSON()).toMatchObject({ somme: 2 });
    expect(session).toMatchObject({ mode: 'payment', ui_mode: 'hosted_page', amount_total: 5000 });
    expect(session.metadata).toEqual({ origine: 'site-association' });
  });

  test('a failed payment stays in the picker, focused, after the banner has gone', async ({ page, context }) => {
    await stubStripe(context);
    await openDonationPage(page);
    await page.route('**/create-checkout-session', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ ok: false, message: 'Le service de paiement ne répond pas.' }),
      }),
    );
    // Spec §7 « an error is only logged » (beyond §7: the donor is told too, below): the log is
    // tests/components/DonationForm.test.tsx's, « link: a server error closes the tab, is logged … ».
    page.on('console', () => {});
    await page.getByRole('button', { name: /Faire un don de 25/ }).click();
    const summary = page.locator('.donation .error-summary');
    await expect(summary).toBeFocused();
    await expect(summary).toMatchAriaSnapshot(`
      - heading "Il y a un problème" [level=3]
      - list:
        - listitem: Le service de paiement ne répond pas.
    `);
    expect(await page.title()).toMatch(/^Erreur : /);
    await expect(page.locator('#message-banner')).toHaveText('', { timeout: 6000 });
    await expect(summary).toBeVisible();
    await expectNoAxeViolations(page, '/soutenir after a failed payment');
  });

  // Spec §7 « Embedded checkout init: POST /create-checkout-session, reads clientSecret from the response ».
  test('embedded: one click mounts Stripe’s form with the loading indicator in between', async ({ page, context }) => {
    const { stripeJsLoads } = await stubStripe(context);
    const { cspViolations } = await openDonationPage(page);
    await amounts(page)
      .getByRole('radio', { name: /^100\s€$/ })
      .check();
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/create-checkout-session', async (route) => {
      await held;
      await route.continue();
    });
    const posted = page.waitForRequest('**/create-checkout-session');
    await page.getByRole('button', { name: /Faire un don de 100/ }).click();
    expect((await posted).method()).toBe('POST');
    expect((await posted).postDataJSON()).toEqual({ moyen: 'integre', somme: 3, frequence: 'ponctuel' });
    await expect(page.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    // One size while the request is held: both take longer than the island's 15 s timeout on a loaded machine.
    await page.setViewportSize(VIEWPORTS[0]);
    await expectNoAxeViolations(page, '/soutenir while loading at 375 px');
    answer();
    await expect(page.getByTestId('stripe-embedded')).toContainText('cs_test_', { timeout: 15_000 });
    expect(stripeJsLoads()).toBe(1);
    await expect(page.frameLocator('iframe[title="Paiement sécurisé Stripe"]').locator('body')).toContainText(
      'Formulaire de carte',
    );
    expect(cspViolations).toEqual([]);
    await expectAccessibleOnPhone(page, '/soutenir with the checkout mounted');
  });

  test('monthly, then cancelled: the cancel page keeps the amount and the frequency, one click from retrying', async ({
    page,
    context,
  }) => {
    await stubStripe(context);
    await openDonationPage(page);
    await page.getByRole('radio', { name: 'Don mensuel' }).check();
    await amounts(page)
      .getByRole('radio', { name: /^100\s€$/ })
      .check();
    await expect(page.getByText(/ne vous coûte que/)).toHaveText(
      /Votre don de 100\s€ par mois ne vous coûte que 34\s€ par mois/,
    );
    await expect(page.getByRole('button', { name: /^Donner 100\s€ par mois$/ })).toBeVisible();
    await expectAccessibleOnPhone(page, '/soutenir, monthly');
    const { tab, session } = await payByLink(page, context);
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 10000 });

    // The donor leaves Stripe's page: Stripe sends the tab to the cancel URL.
    const { cspViolations } = await openDonationPage(tab, '/soutenir/annule');
    await expect(tab.getByText('Paiement annulé. Peut-être voulez-vous réessayer ?', { exact: true })).toBeVisible();
    await expect(tab.getByRole('radio', { name: 'Don mensuel' })).toBeChecked();
    expect(await checked(tab)).toBe('100 €');
    await expectAccessibleOnPhone(tab, '/soutenir/annule with the choice restored');
    const again = await payByLink(tab, context);
    expect(again.session).toMatchObject({ mode: 'subscription', amount_total: 10000 });
    expect(cspViolations).toEqual([]);
  });

  test('« Autre montant »: a gift of 37 € creates a Checkout session of 3 700 cents', async ({ page, context }) => {
    await stubStripe(context);
    await openDonationPage(page);
    await amounts(page).getByRole('radio', { name: 'Autre montant' }).check();
    const field = page.getByRole('textbox', { name: 'Votre montant, en euros' });
    await field.fill('0,5');
    await page.getByRole('button', { name: /^Faire un don/ }).click();
    await expect(field).toBeFocused();
    await expect(field).toHaveAccessibleDescription(/Le montant minimum d’un don est de 1 €/);
    await field.fill('37');
    await expect(page.getByText(/ne vous coûte que/)).toHaveText(
      /^Votre don de 37\s€ ne vous coûte que 12,58\s€ après réduction d’impôt$/,
    );
    await expectAccessibleOnPhone(page, '/soutenir with « Autre montant »');
    const { session } = await payByLink(page, context);
    expect(session).toMatchObject({ mode: 'payment', ui_mode: 'hosted_page', amount_total: 3700 });
  });

  test('Stripe’s script blocked: the message names the hosted page’s button, which the banner never covers', async ({
    page,
    context,
  }) => {
    await context.route('https://js.stripe.com/**', (route) => route.abort('blockedbyclient'));
    await page.setViewportSize(VIEWPORTS[0]);
    page.on('console', () => {}); // the island logs the failure
    // The banner's 4 s wait on this clock, paused: a slow machine never sees it gone before the checks.
    await page.clock.install();
    await openDonationPage(page);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.getByRole('button', { name: /^Faire un don de 25/ }).click();
    const summary = page.locator('.donation .error-summary');
    // The session's request, then Stripe's script refused: slow on a loaded machine.
    await expect(summary).toBeFocused({ timeout: 30_000 });
    const link = summary.getByRole('link', { name: /bouton « Payer sur la page sécurisée de Stripe »/ });
    await expect(link).toBeVisible();
    const hosted = page.getByRole('button', { name: /^Payer sur la page sécurisée de Stripe/ });
    const banner = page.locator('#message-banner p');
    /** The element at the middle of the hosted button is the button itself (or inside it), not the banner. */
    const reachable = () =>
      hosted.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return box.height > 0 && top !== null && button.contains(top);
      });
    // The worst place: the button at the bottom of the window, where the banner shows.
    await hosted.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await expect(banner).toBeVisible();
    await expect(hosted).toBeInViewport();
    await expect.poll(reachable).toBe(true);
    await expect(banner).toBeVisible();
    await link.click();
    await expect(hosted).toBeFocused();
    await expect.poll(reachable).toBe(true);
    // axe waits on timers.
    await page.clock.resume();
    await expectNoAxeViolations(page, '/soutenir with Stripe’s script blocked at 375 px');
  });

  test('any other /soutenir/<value> leads to the donation page', async ({ page }) => {
    await page.goto('/soutenir/autre-chose');
    await expect(page).toHaveURL(/\/soutenir\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nous soutenir');
  });
});

test.describe('thank-you page and tax receipt', () => {
  test('says the receipt is being prepared, then offers it once the webhook has recorded the paid gift', async ({
    page,
    context,
    baseURL,
  }) => {
    await stubStripe(context);
    await openDonationPage(page);
    const { tab, session } = await payByLink(page, context);
    await tab.close();

    await page.goto(`/soutenir/valide?session_id=${session.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Merci');
    await expect(page.getByText(/Votre reçu fiscal est en préparation/)).toBeVisible();
    await expectAccessibleOnPhone(page, '/soutenir/valide, receipt being prepared');

    await pay(session, baseURL as string);
    const download = page.getByRole('link', { name: 'Télécharger mon reçu fiscal (PDF)' });
    await expect(download).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Votre reçu fiscal n° \d{4}-\d{5} est prêt/)).toBeVisible();
    await expectAccessibleOnPhone(page, '/soutenir/valide, receipt ready');
    const href = (await download.getAttribute('href')) ?? '';
    expect(href).toBe(`/api/recu?session_id=${session.id}`);
    const pdf = await page.request.get(href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('a test payment: says so and offers a specimen, never a tax receipt', async ({ page, context, baseURL }) => {
    await stubStripe(context);
    await openDonationPage(page);
    const { tab, session } = await payByLink(page, context);
    await tab.close();
    await pay(session, baseURL as string, false);
    await page.goto(`/soutenir/valide?session_id=${session.id}`);
    const download = page.getByRole('link', { name: 'Télécharger le spécimen (PDF)' });
    await expect(download).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByText(/Le document n° TEST-\d{4}-[0-9a-f]{12} est un spécimen sans valeur fiscale/),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Télécharger mon reçu fiscal (PDF)' })).toBeHidden();
    await expectAccessibleOnPhone(page, '/soutenir/valide, test payment');
  });

  test('a refunded gift: says its receipt is cancelled and offers no download', async ({ page, context, baseURL }) => {
    await stubStripe(context);
    await openDonationPage(page);
    const { tab, session } = await payByLink(page, context);
    await tab.close();
    await pay(session, baseURL as string);
    const webhook = `${baseURL}/api/stripe-webhook`;
    const response = await fetch(`${FAKE_STRIPE}/__fake__/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: session.id, webhook, secret: WEBHOOK_SECRET, livemode: true }),
    });
    expect(((await response.json()) as { statuses: number[] }).statuses).toEqual([200]);

    await page.goto(`/soutenir/valide?session_id=${session.id}`);
    const notice = page.getByText(/^Ce don vous a été remboursé : son reçu fiscal n°\s\d{4}-\d{5} est annulé/);
    await expect(notice).toBeVisible({ timeout: 20_000 });
    await expect(notice).toContainText('ne peut plus servir pour votre déclaration de revenus.');
    await expect(page.getByRole('link', { name: /Télécharger/ })).toHaveCount(0);
    await expect(page.getByText(/est prêt/)).toBeHidden();
    const pdf = await page.request.get(`/api/recu?session_id=${session.id}`);
    expect(pdf.status()).toBe(410);
    await expectAccessibleOnPhone(page, '/soutenir/valide, refunded gift');
  });

  test('a monthly gift: how to manage it, and one yearly receipt', async ({ page, context, baseURL }) => {
    await stubStripe(context);
    await openDonationPage(page);
    await page.getByRole('radio', { name: 'Don mensuel' }).check();
    const { tab, session } = await payByLink(page, context);
    await tab.close();
    await pay(session, baseURL as string);
    await page.goto(`/soutenir/valide?session_id=${session.id}`);
    await expect(page.getByText(/un seul reçu fiscal par an/)).toBeVisible({ timeout: 20_000 });
    const manage = page.getByText(/Pour changer le montant, la carte ou arrêter votre don mensuel/);
    await expect(manage).toContainText('contact@petitspas-ensemble.fr');
    await expect(manage.getByRole('link', { name: 'demandez votre lien de gestion' })).toHaveAttribute(
      'href',
      '/soutenir/gerer',
    );
    await expect(page.getByRole('link', { name: 'Télécharger mon reçu fiscal (PDF)' })).toBeHidden();
    await expectAccessibleOnPhone(page, '/soutenir/valide, monthly gift');
  });

  test('without a session id, says the receipt comes by email', async ({ page }) => {
    await page.goto('/soutenir/valide');
    await expect(page.getByText(/Vous recevrez votre reçu fiscal par email/)).toBeVisible();
    await expectAccessibleOnPhone(page, '/soutenir/valide without a session');
  });
});
