/**
 * /soutenir in a browser that runs no JavaScript (Chromium against the built site): the donation form posts to
 * POST /api/don, which answers 303 to Stripe's hosted page (the fake Stripe's session holds the amount the server
 * computed), or back to /soutenir with the French message of a refused amount.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolationsNarrow } from './helpers';

/** The fake Stripe API of playwright.config.ts's web server. */
const FAKE_STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;

/** Stripe's hosted page, as the fake Stripe names it. */
const HOSTED_PAGE = /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\w+$/;

interface FakeSession {
  id: string;
  mode: string;
  ui_mode: string;
  amount_total: number;
}

/** checkout.stripe.com is unreachable here: a local stand-in. */
async function stubCheckout(context: BrowserContext): Promise<void> {
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout (bouchon)</title>' }),
  );
}

/** The session of the fake's hosted page at `url`. */
async function sessionAt(url: string): Promise<FakeSession | undefined> {
  const sessions = (await (await fetch(`${FAKE_STRIPE}/__fake__/sessions`)).json()) as FakeSession[];
  return sessions.find((session) => session.id === new URL(url).pathname.split('/').at(-1));
}

const amounts = (page: Page) => page.getByRole('radiogroup', { name: 'Montants proposés' });

test.use({ javaScriptEnabled: false });

test.beforeEach(async ({ context }) => stubCheckout(context));

test('50 € a month, « Payer sur la page sécurisée de Stripe »: Stripe’s page in a new tab, 5 000 cents a month', async ({
  page,
  context,
}) => {
  await page.goto('/soutenir');
  // The stepper cannot move without JavaScript: only the radios show.
  await expect(page.getByRole('button', { name: 'Montant suivant' })).toBeHidden();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await page.getByRole('radio', { name: 'Don mensuel' }).check();
  await amounts(page)
    .getByRole('radio', { name: /^50\s€$/ })
    .check();
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: /^Payer sur la page sécurisée de Stripe/ }).click(),
  ]);
  await tab.waitForURL(HOSTED_PAGE);
  const session = await sessionAt(tab.url());
  expect(session).toMatchObject({ mode: 'subscription', ui_mode: 'hosted_page', amount_total: 5000 });
});

test('« Autre montant » 37, « Faire un don »: Stripe’s page in this tab, 3 700 cents once', async ({ page }) => {
  await page.goto('/soutenir');
  // No amount in the button's label: it would not follow the radios.
  const pay = page.getByRole('button', { name: 'Faire un don', exact: true });
  await expect(pay).toBeVisible();
  await amounts(page).getByRole('radio', { name: 'Autre montant' }).check();
  await page.getByRole('textbox', { name: 'Votre montant, en euros' }).fill('37');
  await pay.click();
  await page.waitForURL(HOSTED_PAGE);
  expect(await sessionAt(page.url())).toMatchObject({ mode: 'payment', ui_mode: 'hosted_page', amount_total: 3700 });
});

test('a refused amount: back on /soutenir with the French message, a fresh form below it', async ({
  page,
  browser,
}) => {
  await page.goto('/soutenir');
  await amounts(page).getByRole('radio', { name: 'Autre montant' }).check();
  // Enter in the field submits the form, as any form without JavaScript.
  await page.getByRole('textbox', { name: 'Votre montant, en euros' }).fill('0,50');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/soutenir#don-montant-minimum$/);
  const message = page.locator('#don-montant-minimum');
  await expect(message).toBeVisible();
  await expect(message).toHaveText(
    'Le montant minimum d’un don est de 1 €. Choisissez « Autre montant » ci-dessous et indiquez de nouveau votre ' +
      'montant.',
  );
  // Only that outcome shows.
  await expect(page.locator('.form-outcome:visible')).toHaveCount(1);
  await expect(amounts(page).getByRole('radio', { name: /^25\s€$/ })).toBeChecked();
  // axe runs in the page: the same address where scripts run (the message is CSS's, the island not yet hydrated).
  const scripted = await browser.newContext({ javaScriptEnabled: true, locale: 'fr-FR' });
  const withScripts = await scripted.newPage();
  try {
    await withScripts.goto(page.url());
    await expect(withScripts.locator('#don-montant-minimum')).toBeVisible();
    await expectNoAxeViolationsNarrow(withScripts, '/soutenir#don-montant-minimum');
  } finally {
    await scripted.close();
  }
});

test('the cancel page does not say the choice is kept: without JavaScript, it is not', async ({ page }) => {
  await page.goto('/soutenir/annule');
  await expect(page.getByText('Paiement annulé. Peut-être voulez-vous réessayer ?', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Aucun montant n’a été débité\./)).toBeVisible();
  await expect(page.getByText('Votre choix est conservé ci-dessous', { exact: false })).toBeHidden();
});
