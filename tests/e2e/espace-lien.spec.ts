/**
 * Sign-in by email link on the built site: the same answer for an account and for an unknown address (a mail only to
 * the account), one mail per address and interval, the link's page signs in only once the email is confirmed (a
 * POST), a used link is refused in French. Axe on its confirmation step at 375 px (the page asking for a link at
 * both widths: espace.spec.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/lib/firebase-app.server';
import { espaceDatabase, PROJECT, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, VIEWPORTS } from './helpers';

const MAILS = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`;
const SENT =
  'Si cette adresse a accès à l’espace, un lien de connexion vient d’y être envoyé. Il sert une seule fois, pendant ' +
  'une heure. Pensez à regarder dans les indésirables.';
const INVALID =
  'Ce lien de connexion n’est plus valable : il sert une seule fois, pendant une heure, avec l’email qui l’a reçu. ' +
  'Demandez-en un nouveau.';

test.beforeAll(async () => {
  await espaceDatabase();
});

/** A new account with the `edition` role (a fresh address: one link per address and 10 minutes). */
async function volunteer(): Promise<string> {
  const email = `lien-${unique()}@demo.test`;
  const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: PROJECT }, { emulated: true }));
  const user = await auth.createUser({ email });
  await auth.setCustomUserClaims(user.uid, { roles: ['edition'] });
  return email;
}

/** The mails the test SMTP server received for `email`. */
async function mailsTo(email: string): Promise<{ subject: string; html: string }[]> {
  const mails = (await (await fetch(MAILS)).json()) as { to: string[]; subject: string; html: string }[];
  return mails.filter((mail) => mail.to.some((to) => to.includes(email)));
}

async function askForLink(page: Page, email: string) {
  await page.goto('/espace/connexion');
  // Both sign-in forms say which fields are required, in the label a screen reader reads.
  await expect(page.getByLabel('Mot de passe')).toHaveAccessibleName('Mot de passe (obligatoire)');
  await page.getByRole('link', { name: 'Recevoir un lien de connexion par email' }).click();
  await expect(page.getByLabel('Email')).toHaveAccessibleName('Email (obligatoire)');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Recevoir le lien' }).click();
  await expect(page.getByRole('status')).toHaveText(SENT);
}

test('a link signs in once its email is confirmed, once; an unknown address reads the same and gets nothing', async ({
  page,
}) => {
  const unknown = `inconnu-${unique()}@exemple.fr`;
  const email = await volunteer();
  await askForLink(page, unknown);
  await askForLink(page, email);
  await askForLink(page, email);

  await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
  expect(await mailsTo(unknown)).toEqual([]);
  const [mail] = await mailsTo(email);
  expect(mail!.subject).toBe('Votre lien de connexion à l’espace de l’association');
  const href = /href="(https?:\/\/[^"]+\/espace\/connexion\/lien\?[^"]+)"/.exec(mail!.html)![1]!.replace(/&amp;/g, '&');
  const link = new URL(href).pathname + new URL(href).search;

  // Opening the link signs nobody in: the page asks for the email first.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirmez votre email');
  await page.goto('/espace');
  await expect(page).toHaveURL(/\/espace\/connexion$/);

  await page.goto(link);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Me connecter' }).click();
  await expect(page).toHaveURL(/\/espace$/);
  await expect(page.getByText(`Connecté : ${email} (Édition)`)).toBeVisible();

  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Me connecter' }).click();
  await expect(page.getByRole('alert')).toHaveText(INVALID);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recevoir un lien de connexion');
});

test('a link past its hour is refused before Firebase is asked', async ({ page }) => {
  const issued = Math.floor(Date.now() / 1000) - 3601;
  const response = await page.goto(`/espace/connexion/lien?code=abc&emis=${issued}`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('alert')).toHaveText(INVALID);
});

test('the link page confirming the email passes axe at 375 px', async ({ page }) => {
  // Asking for a link, the page's plain state, at both widths: espace.spec.ts.
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto(`/espace/connexion/lien?code=abc&emis=${Math.floor(Date.now() / 1000)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirmez votre email');
  await expectNoAxeViolationsNarrow(page, 'confirming the email');
});
