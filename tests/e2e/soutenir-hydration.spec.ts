/**
 * /soutenir loads no React before the visitor acts on its donation form (client:interaction, src/lib/
 * hydrate-on-interaction.ts): before that it loads the scripts a page without island loads, byte for byte. What the
 * visitor does on the server's form while React loads is not lost: a radio chosen is adopted, a button pressed (the
 * stepper, the payment) is pressed again once the island has hydrated; a tab holding the donor's choice hydrates it at
 * once, to show that choice.
 */
import { expect, test, type Page } from '@playwright/test';
import { holdIsland, loadAndIdle } from './helpers';

const ISLAND = 'astro-island:has(.donation)';

/** The fake Stripe API of playwright.config.ts's web server, and the part of a session these tests read. */
const FAKE_STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;
interface FakeSession {
  id: string;
  ui_mode: string;
  amount_total: number;
}

/** The scripts `path` loads before any act, each with its size in bytes (the body as served, decoded). */
async function scriptsBeforeAnyAct(page: Page, path: string): Promise<Map<string, number>> {
  const scripts = new Map<string, number>();
  const sizes: Promise<void>[] = [];
  const listener = (response: import('@playwright/test').Response) => {
    if (response.request().resourceType() !== 'script') return;
    const url = new URL(response.url()).pathname;
    sizes.push(response.body().then((body) => void scripts.set(url, body.length)));
  };
  page.on('response', listener);
  await loadAndIdle(page, path);
  page.off('response', listener);
  await Promise.all(sizes);
  return scripts;
}

test('before any act: the scripts of a page without island, not a byte more', async ({ page }) => {
  const baseline = await scriptsBeforeAnyAct(page, '/mentions');
  const donation = await scriptsBeforeAnyAct(page, '/soutenir');
  await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);
  const component = (await page.locator(ISLAND).getAttribute('component-url')) as string;
  expect(donation.has(component)).toBe(false);
  expect([...donation.keys()].toSorted()).toEqual([...baseline.keys()].toSorted());
  const bytes = (scripts: Map<string, number>) => [...scripts.values()].reduce((sum, size) => sum + size, 0);
  expect(bytes(donation)).toBe(bytes(baseline));
});

test('a radio chosen and the stepper pressed before React has loaded: both count once it has', async ({ page }) => {
  await loadAndIdle(page, '/soutenir');
  const release = await holdIsland(page, ISLAND);
  const amounts = page.getByRole('radiogroup', { name: 'Montants proposés' });
  await amounts.getByRole('radio', { name: /^50\s€$/ }).check();
  await page.getByRole('button', { name: 'Montant suivant' }).click();
  await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);

  release();
  await expect(page.locator(`${ISLAND}:not([ssr])`)).toHaveCount(1);
  // From the 50 € chosen on the server's form, the next amount: 100 €, said once and shown everywhere.
  await expect(amounts.getByRole('radio', { name: /^100\s€$/ })).toBeChecked();
  await expect(page.locator('.donation__stepper [role="status"]')).toHaveText(/^100\s€$/);
  await expect(page.locator('.donation__amount')).toHaveText(/^100\s€$/);
  await expect(page.getByRole('button', { name: /^Faire un don de 100\s€$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Montant suivant' })).toBeFocused();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });

  test('a tap on « Faire un don » before React has loaded pays, with the loading indicator', async ({ page }) => {
    await loadAndIdle(page, '/soutenir');
    const release = await holdIsland(page, ISLAND);
    await page.getByRole('radio', { name: 'Don mensuel' }).tap();
    // The payment request is held too: the loading indicator stays on screen to be seen.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/create-checkout-session', async (route) => {
      await answered;
      await route.abort();
    });
    const posted = page.waitForRequest('**/create-checkout-session');
    // The server's label has no amount: a radio chosen before hydration would make it wrong.
    await page.getByRole('button', { name: 'Faire un don', exact: true }).tap();
    await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);

    release();
    expect((await posted).postDataJSON()).toEqual({ moyen: 'integre', somme: 1, frequence: 'mensuel' });
    await expect(page.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Donner 25\s€ par mois$/ })).toHaveAttribute('aria-busy', 'true');
    answer();
  });
});

test('the island’s script fails to load: a payment button pressed meanwhile posts the form, as without JavaScript', async ({
  page,
  context,
}) => {
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout (bouchon)</title>' }),
  );
  await loadAndIdle(page, '/soutenir');
  const component = (await page.locator(ISLAND).getAttribute('component-url')) as string;
  await page.route(
    (url) => url.pathname === component,
    (route) => route.abort(),
  );
  await page.getByRole('radio', { name: /^100\s€$/ }).check();
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: /^Payer sur la page sécurisée de Stripe/ }).click(),
  ]);
  await tab.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
  const id = new URL(tab.url()).pathname.split('/').at(-1);
  const sessions = (await (await fetch(`${FAKE_STRIPE}/__fake__/sessions`)).json()) as FakeSession[];
  expect(sessions.find((session) => session.id === id)).toMatchObject({ ui_mode: 'hosted_page', amount_total: 10000 });
  await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);
});

test('a click alone, as a screen reader activates a button, hydrates the form and is not lost', async ({ page }) => {
  await loadAndIdle(page, '/soutenir');
  // No pointer, no focus: only the click event.
  await page.getByRole('button', { name: 'Montant précédent' }).dispatchEvent('click');
  await expect(page.locator(`${ISLAND}:not([ssr])`)).toHaveCount(1);
  await expect(page.getByRole('radio', { name: /^10\s€$/ })).toBeChecked();
});

test('a tab holding the donor’s choice hydrates the form at once and shows that choice', async ({ page }) => {
  await loadAndIdle(page, '/soutenir');
  await page.evaluate(() => sessionStorage.setItem('don:choix', JSON.stringify({ somme: 4, frequence: 'mensuel' })));
  await page.goto('/soutenir/annule');
  await expect(page.locator(`${ISLAND}:not([ssr])`)).toHaveCount(1);
  await expect(page.getByRole('radio', { name: /^250\s€$/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Don mensuel' })).toBeChecked();
});
