/**
 * A monthly donor manages their gift alone, in Chromium against the built site: /soutenir links to /soutenir/gerer,
 * which answers any address alike, without JavaScript; the mailed link opens a page whose button leads to the fake
 * Stripe's customer portal for the donor's customer, once. And the « Don d’entreprise » choice on /soutenir. axe at
 * 375 and 1280 px on the two pages as their links open them, at 375 px on each further state.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectNoAxeViolationsNarrow, openDonationForm, VIEWPORTS } from './helpers';

const FAKE_STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;
const WEBHOOK_SECRET = ['whsec', 'e2e-fake'].join('_');
const MAILS = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`;
const ANSWER =
  'Si cette adresse correspond à un don mensuel, vous allez recevoir un lien pour le gérer dans quelques minutes. ' +
  'Ce lien est valable une heure et ne sert qu’une fois. Pensez à regarder dans vos courriers indésirables.';

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;

/** axe at both viewports on a page in its plain state, leaving the page at the first one. */
async function expectAccessibleAtBothSizes(page: Page, state: string): Promise<void> {
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `${state} at ${viewport.width} px`);
  }
}

/** A monthly gift of 25 € paid by `email` through the site's session route and the fake's signed webhook. */
async function monthlyDonor(baseURL: string, email: string): Promise<string> {
  const created = await fetch(`${baseURL}/api/don`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({ moyen: 'lien', somme: 1, frequence: 'mensuel' }),
  });
  expect(created.status).toBe(200);
  const { url } = (await created.json()) as { url: string };
  const session = url.split('/').at(-1);
  const paid = await fetch(`${FAKE_STRIPE}/__fake__/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session, webhook: `${baseURL}/api/stripe-webhook`, secret: WEBHOOK_SECRET, email }),
  });
  expect(((await paid.json()) as { statuses: number[] }).statuses).toEqual([200, 200]);
  const sessions = (await (await fetch(`${FAKE_STRIPE}/__fake__/sessions`)).json()) as {
    id: string;
    customer: string;
  }[];
  return sessions.find((candidate) => candidate.id === session)!.customer;
}

interface Mail {
  to: string[];
  subject: string;
  html: string;
}

/** The mails sent to `email` whose subject is `subject`. */
async function mailsTo(email: string, subject: string): Promise<Mail[]> {
  const mails = (await (await fetch(MAILS)).json()) as Mail[];
  return mails.filter((mail) => mail.to.includes(email) && mail.subject === subject);
}

const LINK_SUBJECT = 'Votre lien pour gérer votre don mensuel';

/** Asks for a link on /soutenir/gerer with `email`, as typed into the form. */
async function askForLink(page: Page, email: string): Promise<void> {
  await page.goto('/soutenir/gerer');
  await page.getByLabel(/Votre email/).fill(email);
  await page.getByRole('button', { name: 'Recevoir le lien par email' }).click();
  await expect(outcome(page, ANSWER)).toBeVisible({ timeout: 15_000 });
}

/** The outcome the page announces (its status region, not the site's message banner). */
const outcome = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the request form works as a plain POST', async ({ page }) => {
    await askForLink(page, uniqueEmail('sans-js'));
    await expect(page.getByLabel(/Votre email/)).toHaveCount(0);
  });
});

test.describe('managing a monthly gift', () => {
  test('any address gets the same answer; a monthly donor gets the link, which opens the portal once', async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail('mensuel');
    const customer = await monthlyDonor(baseURL as string, email);
    // The monthly gift's confirmation links to the page.
    await expect.poll(async () => (await mailsTo(email, 'Merci pour votre don mensuel de 25 €')).length).toBe(1);
    const [confirmation] = await mailsTo(email, 'Merci pour votre don mensuel de 25 €');
    expect(confirmation!.html).toMatch(/href="https?:\/\/[^"]+\/soutenir\/gerer"/);

    await page.goto('/soutenir');
    await page.getByRole('link', { name: 'Gérer mon don mensuel' }).click();
    await expect(page).toHaveURL(/\/soutenir\/gerer$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gérer mon don mensuel');
    await expectAccessibleAtBothSizes(page, '/soutenir/gerer');

    // An unknown address: the same answer, no mail.
    const stranger = uniqueEmail('inconnu');
    await askForLink(page, stranger);
    await expectNoAxeViolationsNarrow(page, '/soutenir/gerer, answered');

    await askForLink(page, email);
    await expect.poll(async () => (await mailsTo(email, LINK_SUBJECT)).length, { timeout: 20_000 }).toBe(1);
    expect(await mailsTo(stranger, LINK_SUBJECT)).toHaveLength(0);

    const [mail] = await mailsTo(email, LINK_SUBJECT);
    const link = /href="(https?:\/\/[^"]+\/soutenir\/gerer\/lien\?jeton=[^"]+)"/.exec(mail!.html)![1]!;
    const path = new URL(link.replace(/&amp;/g, '&')).pathname + new URL(link.replace(/&amp;/g, '&')).search;
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Ouvrir mon espace de gestion' })).toBeVisible();
    await expectAccessibleAtBothSizes(page, 'the link page');
    await page.getByRole('button', { name: 'Ouvrir l’espace de gestion sécurisé' }).click();
    await expect(page).toHaveURL(new RegExp(`^${FAKE_STRIPE}/__fake__/portal/bps_test_`));
    await expect(page.locator('[data-customer]')).toHaveText(customer);

    // Used: the page says so, and offers a new link.
    await page.goto(path);
    await expect(
      outcome(page, 'Ce lien a déjà servi : chaque lien n’ouvre l’espace de gestion qu’une fois.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ouvrir l’espace de gestion sécurisé' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Recevoir un nouveau lien' })).toHaveAttribute(
      'href',
      '/soutenir/gerer',
    );
    await expectNoAxeViolationsNarrow(page, 'a used link');
  });

  test('an address that is not one: the error beside the field, what was typed kept', async ({ page }) => {
    await page.goto('/soutenir/gerer');
    const field = page.getByLabel(/Votre email/);
    // The browser's own check is skipped to show the server's.
    await page.locator('form').evaluate((form) => form.setAttribute('novalidate', ''));
    await field.fill('jeanne@exemple');
    await page.getByRole('button', { name: 'Recevoir le lien par email' }).click();
    await expect(page.getByText('Merci de saisir un email valide')).toBeVisible();
    await expect(page.getByLabel(/Votre email/)).toHaveValue('jeanne@exemple');
    await expect(page.getByLabel(/Votre email/)).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolationsNarrow(page, '/soutenir/gerer, invalid address');
  });

  test('a link that matches nothing says so', async ({ page }) => {
    await page.goto(`/soutenir/gerer/lien?jeton=${'a'.repeat(64)}.${'b'.repeat(43)}`);
    await expect(
      outcome(page, 'Ce lien n’est pas valable : il est incomplet, ou un lien plus récent l’a remplacé.'),
    ).toBeVisible();
    await expectNoAxeViolationsNarrow(page, 'an invalid link');
  });
});

test.describe('a company’s gift', () => {
  test('« Don d’entreprise » is a radio: the 60 % line, and the session asks for the business', async ({ page }) => {
    await openDonationForm(page);
    const company = page.getByRole('radio', { name: 'Don d’entreprise' });
    await page.getByRole('radio', { name: 'Don personnel' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(company).toBeChecked();
    await expect(page.getByText(/ne coûte à votre entreprise que/)).toHaveText(
      /Votre don de 25\s€ ne coûte à votre entreprise que 10\s€ après réduction d’impôt/,
    );
    await expect(page.getByText(/Mécénat d’entreprise : réduction d’impôt de 60 %/)).toBeVisible();
    await expectNoAxeViolationsNarrow(page, '/soutenir, company gift');
    const posted = page.waitForRequest('**/create-checkout-session');
    await page.context().route('https://js.stripe.com/**', (route) => route.abort());
    await page.getByRole('button', { name: /^Faire un don de 25/ }).click();
    expect((await posted).postDataJSON()).toEqual({
      moyen: 'integre',
      somme: 1,
      frequence: 'ponctuel',
      donateur: 'entreprise',
    });
  });
});
