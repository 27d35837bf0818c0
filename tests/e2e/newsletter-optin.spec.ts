/**
 * The newsletter's double opt-in and one-click unsubscription in the browser, with and without JavaScript: the
 * confirmation mail arrives at the test SMTP server (its web view, playwright.config.ts), its link opens a page
 * whose button confirms, its List-Unsubscribe link a page whose button unsubscribes; a mail client's one-click POST
 * unsubscribes at once; a link merely opened changes nothing. Axe on both pages at 375 and 1280 px, on their outcomes
 * at 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { doc, getDocFromServer } from 'firebase/firestore';
import { connectFirestore } from '../../src/lib/firestore.server';
import { subscriptionId } from '../../src/features/newsletter/subscription.server';
import { expectNoAxeViolations, expectNoAxeViolationsNarrow, VIEWPORTS } from './helpers';

const E2E_FIRESTORE = {
  projectId: 'demo-e2e',
  apiKey: 'e2e',
  emulator: { host: '127.0.0.1', port: Number(process.env.E2E_FIRESTORE_PORT) },
  host: `127.0.0.1:${process.env.E2E_FIRESTORE_PORT}`,
};
const MAILS = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`;

/** The subscription document of `email`, read from the server. */
async function subscription(email: string): Promise<Record<string, unknown> | undefined> {
  const connection = connectFirestore(E2E_FIRESTORE);
  try {
    return (await getDocFromServer(doc(connection.db, 'newsletter', subscriptionId(email)))).data();
  } finally {
    await connection.close();
  }
}

/** The confirmation mail sent to `email`: its confirmation and unsubscription paths (`/newsletter/…?jeton=…`). */
async function confirmationMail(email: string) {
  let found: { subject: string; html: string; headers: Record<string, string> } | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await fetch(MAILS)).json()) as { to: string[]; subject: string; html: string }[];
      found = mails.find((mail) => mail.to.includes(email)) as typeof found;
      return Boolean(found);
    })
    .toBe(true);
  const path = (url: string) => new URL(url.replace(/&amp;/g, '&')).pathname + new URL(url).search;
  return {
    subject: found!.subject,
    confirm: path(/href="(https?:\/\/[^"]+\/newsletter\/confirmer\?jeton=[^"]+)"/.exec(found!.html)![1]!),
    unsubscribe: path(/^<(.+)>$/.exec(found!.headers['list-unsubscribe']!)![1]!),
  };
}

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;

async function subscribeFromPopup(page: Page, email: string, hydrated: boolean) {
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'S’inscrire à la lettre d’information' });
  if (hydrated) {
    // The island hydrates at the visitor's first act on it (client:interaction): the pointer over the opener.
    await opener.hover();
    await page.locator('astro-island:has(.newsletter__open):not([ssr])').waitFor({ state: 'attached' });
  }
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
  await dialog.getByLabel(/Votre email/).fill(email);
  await dialog.getByLabel(/J’accepte/).check();
  await dialog.getByRole('button', { name: 'M’inscrire' }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('subscribe, confirm from the mail, then unsubscribe from its link', async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? 'optin' : 'optin-sans-js');
      await subscribeFromPopup(page, email, javaScriptEnabled);
      const said = 'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.';
      await expect(javaScriptEnabled ? page.locator('#message-banner') : page.locator('#newsletter-ok')).toContainText(
        said,
      );
      const mail = await confirmationMail(email);
      expect(mail.subject).toBe('Confirmez votre inscription à la lettre d’information');
      expect(await subscription(email)).toMatchObject({ statut: 'pending', email });

      // Opening the link (as a mail scanner does) confirms nothing.
      await page.goto(mail.confirm);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirmer votre inscription');
      expect(await subscription(email)).toMatchObject({ statut: 'pending' });
      await page.getByRole('button', { name: 'Confirmer mon inscription' }).click();
      await expect(page.getByRole('main').getByRole('status')).toHaveText(
        'Merci ! Votre inscription à la lettre d’information est confirmée. ' +
          'Chaque lettre contiendra un lien pour vous désinscrire en un clic.',
      );
      expect(await subscription(email)).toMatchObject({ statut: 'confirmed', email });

      await page.goto(mail.unsubscribe);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Se désinscrire de la lettre d’information');
      expect(await subscription(email)).toMatchObject({ statut: 'confirmed' });
      await page.getByRole('button', { name: 'Me désinscrire' }).click();
      await expect(page.getByRole('main').getByRole('status')).toHaveText(
        'Vous êtes désinscrit : vous ne recevrez plus notre lettre d’information. ' +
          'Nous ne gardons de votre inscription que la preuve de votre consentement et de son retrait.',
      );
      const left = await subscription(email);
      expect(left).toMatchObject({ statut: 'unsubscribed', email: null });
    });
  });
}

test('a mail client’s one-click POST (RFC 8058) unsubscribes at once, without an Origin', async ({ page, request }) => {
  const email = uniqueEmail('un-clic');
  await subscribeFromPopup(page, email, true);
  const mail = await confirmationMail(email);
  const response = await request.post(mail.unsubscribe, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(response.status()).toBe(200);
  expect(await subscription(email)).toMatchObject({ statut: 'unsubscribed', email: null });
});

test('a cross-site form POST elsewhere is still refused (403, with the security headers)', async ({ request }) => {
  const response = await request.post('/newsletter/confirmer?jeton=x', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://ailleurs.exemple' },
    data: 'jeton=x',
  });
  expect(response.status()).toBe(403);
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
});

test('the confirmation and unsubscription pages pass axe at 375 and 1280 px, their outcomes at 375 px', async ({
  page,
}) => {
  const email = uniqueEmail('axe');
  await subscribeFromPopup(page, email, true);
  const mail = await confirmationMail(email);
  for (const [path, button] of [
    [mail.confirm, 'Confirmer mon inscription'],
    [mail.unsubscribe, 'Me désinscrire'],
  ] as const) {
    const name = path.split('?')[0];
    await page.goto(path);
    // The page as its link opens it, at both widths; what its button leads to, once at 375 px.
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `${name} at ${viewport.width} px`);
    }
    await page.getByRole('button', { name: button }).click();
    await expect(page.getByRole('main').getByRole('status')).not.toBeEmpty();
    await expectNoAxeViolationsNarrow(page, `${name} done`);
  }
  await page.goto('/newsletter/confirmer?jeton=faux');
  await page.getByRole('button', { name: 'Confirmer mon inscription' }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText('Ce lien de confirmation n’est plus valable');
  await expectNoAxeViolationsNarrow(page, 'invalid link');
});
