/**
 * Under `npm start`, what an editor changes in the space reaches the site after a publish (POST /api/rebuild re-pulls
 * the embedded database): the association's office hours on /contact, and its object and signatory on the tax receipt
 * the treasurer issues next (its signatory, « Nom, qualité », read as it is stored: receipts/signatory.server.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { DEMO_PASSWORD } from '../../../scripts/lib/auth-emulator';

/** The dev server compiles each page on its first visit: generous on 2 cores (ms). */
const FIRST_VISIT_MS = 60_000;

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/espace/connexion', { timeout: FIRST_VISIT_MS });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bonjour', { timeout: FIRST_VISIT_MS });
}

test('the association’s texts saved in the space are on /contact and on the next receipt after a publish', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const mark = Date.now().toString(36);
  const hours = `Le secrétariat répond le jeudi (${mark}).`;
  const object = `Faire vivre une école inclusive (${mark}).`;
  const signatory = `Camille Roux (${mark}), trésorière`;

  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/association', { timeout: FIRST_VISIT_MS });
  // The demo's texts are the form's starting values.
  await expect(page.getByLabel('Horaires du secrétariat (page Contact)')).toHaveValue(
    'Le secrétariat répond du lundi au vendredi, de 8 h 30 à 17 h, sauf le mercredi après-midi.',
  );
  await page.getByLabel('Horaires du secrétariat (page Contact)').fill(hours);
  await page.getByLabel('Objet de l’association').fill(object);
  await page.getByLabel('Signataire des reçus').fill(signatory);
  await page.getByRole('button', { name: 'Enregistrer les textes' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
    { timeout: FIRST_VISIT_MS },
  );

  // Publish: under `npm start` the rebuild re-pulls the embedded database.
  const publish = await page.request.post('/api/rebuild', {
    headers: { authorization: `Bearer ${['dev', 'smoke', 'secret'].join('-')}`, origin: baseURL! },
    timeout: 120_000,
  });
  expect(publish.status(), await publish.text()).toBeLessThan(300);

  await expect(async () => {
    await page.goto('/contact', { timeout: FIRST_VISIT_MS });
    await expect(page.getByText(hours)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });

  // The treasurer records a cheque; its receipt prints the new object and signatory.
  await page.context().clearCookies();
  await signIn(page, 'tresorerie@demo.test');
  await page.goto('/espace/dons/nouveau', { timeout: FIRST_VISIT_MS });
  const donor = `Jeanne Reçu ${mark}`;
  await page.getByLabel('Prénom').fill('Jeanne');
  await page.getByRole('textbox', { name: /^Nom/ }).fill(`Reçu ${mark}`);
  await page.getByLabel('Montant en euros').fill('40');
  await page.getByLabel('Adresse').fill('1 rue de la Paix');
  await page.getByLabel('Code postal').fill('69001');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page.getByRole('status')).toContainText('Don enregistré', { timeout: FIRST_VISIT_MS });
  const row = page.getByRole('row').filter({ hasText: donor });
  const href = await row.locator('a[href^="/espace/dons/recu/"]').first().getAttribute('href');
  const pdf = await page.request.get(href!, { timeout: FIRST_VISIT_MS });
  expect(pdf.status()).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
  const flat = text.replace(/\s+/g, ' ');
  expect(flat).toContain(object);
  expect(flat).toContain(signatory);
});
