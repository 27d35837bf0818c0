/**
 * Nothing a volunteer types is lost when a session ends, on the built site (playwright.config.ts): an article posted
 * after a sign-out elsewhere gets the « session ended » page, is kept encrypted for its author alone, and comes back
 * in the form once they sign in again (another account in the same browser does not get it); the warning before the
 * end, with « Rester connecté » (the page's clock runs fast: no real waiting); the space's forms say their refusals and
 * saves (focus, title, aria ties); the editor says how to leave a list with Tab.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Firestore } from 'firebase-admin/firestore';
import { DEMO_PASSWORD } from '../../scripts/lib/auth-emulator';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';
import { ESPACE_MESSAGES } from '../../src/features/espace/messages';
import { COOKIE, espaceDatabase, newAccount, signIn, signInThroughForm, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';

let db: Firestore;
test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

/** Signs in as `email` on the sign-in page already open (its `suite` kept). */
async function signInHere(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Ends every session of `email` as « Se déconnecter » on another device does. */
async function signOutElsewhere(browser: Browser, email: string): Promise<void> {
  const other = await browser.newPage();
  await signIn(other, email);
  await other.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(other).toHaveURL(/avis=sortie/);
  await other.close();
}

test('a session ended mid-article gives the text back after signing in again, to its author only', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const author = await newAccount('edition');
  const colleague = await newAccount('edition');
  await signIn(page, author);
  // Revocation counts in whole seconds from the sign-in.
  await page.waitForTimeout(1100);
  await page.goto('/espace/articles/nouveau');
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
  const titre = `Kermesse ${unique()}`;
  await page.getByLabel('Titre').fill(titre);
  await page.getByRole('textbox', { name: 'Texte complet' }).click();
  await page.keyboard.type('Une longue après-midi de jeux.');

  // The editor says how to leave a list with Tab: Tab indents an item; Escape, then Tab goes on.
  const editor = page.getByRole('textbox', { name: 'Texte complet' });
  await expect(editor).toHaveAccessibleDescription(/Pour sortir de la zone de texte, appuyez sur Échap, puis sur Tab/);
  await page
    .getByRole('toolbar', { name: 'Mise en forme : Texte complet' })
    .getByRole('button', { name: 'Liste à puces' })
    .click();
  await expect(editor).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('#texte-contenu-clavier')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Photo ou image')).toBeFocused();

  await signOutElsewhere(browser, author);
  const answer = page.waitForResponse((response) => response.request().method() === 'POST');
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  const ended = await answer;
  expect(ended.status()).toBe(403);
  expect(ended.headers()).toMatchObject({
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'x-content-type-options': 'nosniff',
  });
  expect(ended.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page).toHaveTitle('Session terminée · Espace de l’association');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre session a pris fin');
  await expect(page.getByText(ESPACE_MESSAGES.postKept)).toBeVisible();
  await expectNoAxeViolationsNarrow(page, 'the session-ended page, the post kept');
  await lookAt(page, 'session-terminee', { viewports: VIEWPORTS });

  // Kept encrypted: the document holds no word of the article.
  const kept = await db.collection('espaceReprises').get();
  const mine = kept.docs.filter((document) =>
    JSON.stringify(document.data()).includes('"chemin":"/espace/articles/nouveau"'),
  );
  expect(mine.length).toBeGreaterThan(0);
  expect(JSON.stringify(mine.map((document) => document.data()))).not.toContain('Kermesse');

  // Another account signed in with the same browser gets an empty form.
  await page.getByRole('link', { name: 'Se reconnecter' }).click();
  await expect(page).toHaveURL(/\/espace\/connexion\?suite=%2Fespace%2Farticles%2Fnouveau&avis=expiree$/);
  await signInHere(page, colleague);
  await expect(page).toHaveURL(/\/espace\/articles\/nouveau$/);
  await expect(page.getByLabel('Titre')).toHaveValue('');
  await expect(page.getByText(ESPACE_MESSAGES.postGivenBack)).toHaveCount(0);
  await page.getByRole('button', { name: 'Se déconnecter' }).click();

  // Its author gets it back, on the form, told so first.
  await page.goto('/espace/connexion?suite=%2Fespace%2Farticles%2Fnouveau');
  await signInHere(page, author);
  await expect(page).toHaveURL(/\/espace\/articles\/nouveau$/);
  const told = page.getByRole('alert').filter({ hasText: ESPACE_MESSAGES.postGivenBack });
  await expect(told).toBeFocused();
  await expect(page.getByLabel('Titre')).toHaveValue(titre);
  await expect(editor).toContainText('Une longue après-midi de jeux.');
  await expect(editor.getByRole('listitem')).toHaveCount(1);
  // Given back once: the document is gone.
  expect((await db.collection('espaceReprises').get()).docs.map((document) => document.id)).not.toContain(mine[0]!.id);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText(ARTICLE_MESSAGES.saved);
});

test('the space warns before the session ends; « Rester connecté » renews it', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.clock.install();
  // A session opened now, on the page's clock.
  await signInThroughForm(page, 'tresorerie@demo.test');
  await page.goto('/espace/dons/nouveau');
  await page.getByRole('textbox', { name: /^Nom/ }).fill('Claire Martin');
  const dialog = page.getByRole('dialog', { name: 'Votre session va bientôt prendre fin' });
  await expect(dialog).toBeHidden();

  // Five minutes before the end of the 8 hours.
  await page.clock.fastForward('07:55:30');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/votre session se termine à \d\d:\d\d\. Restez connecté pour continuer/);
  await expect(dialog.getByRole('button', { name: 'Rester connecté' })).toBeFocused();
  await lookAt(page, 'avertissement', { viewports: VIEWPORTS });
  await expectNoAxeViolationsNarrow(page, 'the warning');
  const before = (await context.cookies()).find((cookie) => cookie.name === COOKIE)?.value;
  await dialog.getByRole('button', { name: 'Rester connecté' }).click();
  await expect(dialog).toBeHidden();
  const after = (await context.cookies()).find((cookie) => cookie.name === COOKIE)?.value;
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
  await expect(page.getByRole('textbox', { name: /^Nom/ })).toHaveValue('Claire Martin');

  // Eight hours from the renewal: warned again at 7 h 55, then told at the end.
  await page.clock.fastForward('07:00:00');
  await expect(dialog).toBeHidden();
  await page.clock.fastForward('00:55:30');
  await expect(dialog).toBeVisible();
  await page.clock.fastForward('00:05:00');
  const over = page.getByRole('dialog', { name: 'Votre session a pris fin' });
  await expect(over).toContainText('Ce que vous avez saisi reste sur cette page. Enregistrez-le');
  await expect(over.getByRole('link', { name: 'Se reconnecter dans un autre onglet' })).toBeFocused();
  await expect(over.getByRole('button', { name: 'Rester connecté' })).toBeHidden();
  // The renewed session works.
  await page.goto('/espace/dons/nouveau');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enregistrer un chèque ou un virement');
});

test('the space’s forms say their refusals and their saves: focus, title, aria ties', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, await newAccount('tresorerie'));
  await page.goto('/espace/dons/nouveau');
  await expect(page.getByText('Les champs marqués (obligatoire) doivent être remplis.')).toBeVisible();
  const amount = page.getByLabel('Montant en euros (obligatoire)');
  await expect(amount).toBeVisible();
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page).toHaveTitle(/^Erreur · Enregistrer un chèque ou un virement/);
  const summary = page.getByRole('alert').filter({ hasText: 'Le don n’a pas été enregistré' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Montant en euros' })).toHaveAttribute('href', '#montant');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toHaveAccessibleDescription(/Par exemple 150 ou 150,50\. Merci de saisir le montant en euros/);
  const donor = page.getByRole('textbox', { name: /^Nom/ });
  await expect(donor).toHaveAttribute('aria-invalid', 'true');
  await expect(donor).toHaveAccessibleDescription(/Merci de saisir le nom du donateur/);
  await expect(page.getByLabel('Email du donateur (facultatif)')).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolationsNarrow(page, 'the refused cheque');

  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await signIn(page, await newAccount('edition'));
  await page.goto('/espace/articles/nouveau');
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page).toHaveTitle(/^Erreur · Nouvel article/);
  await expect(page.getByRole('alert').filter({ hasText: 'L’article n’a pas été enregistré' })).toBeFocused();
  const title = page.getByLabel('Titre (obligatoire)');
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(title).toHaveAccessibleDescription(ARTICLE_MESSAGES.titleEmpty);

  const titre = `Fête des voisins ${unique()}`;
  await title.fill(titre);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page).toHaveTitle(`L’article est enregistré · Modifier « ${titre} » · Espace de l’association`);
  const saved = page.getByRole('status').getByText(ARTICLE_MESSAGES.saved);
  await expect(saved).toBeFocused();
});

test('any form of the space posted after the session ended comes back filled (the cheque entry)', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const treasurer = await newAccount('tresorerie');
  await signIn(page, treasurer);
  await page.waitForTimeout(1100);
  await page.goto('/espace/dons/nouveau');
  const nom = `Donateur ${unique()}`;
  await page.getByLabel('Virement').check();
  await page.getByRole('textbox', { name: /^Nom/ }).fill(nom);
  await page.getByLabel(/^Montant en euros/).fill('75');
  await signOutElsewhere(browser, treasurer);
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre session a pris fin');
  await page.getByRole('link', { name: 'Se reconnecter' }).click();
  await signInHere(page, treasurer);
  await expect(page).toHaveURL(/\/espace\/dons\/nouveau$/);
  await expect(page.getByRole('alert').filter({ hasText: ESPACE_MESSAGES.postGivenBack })).toBeFocused();
  await expect(page.getByRole('textbox', { name: /^Nom/ })).toHaveValue(nom);
  await expect(page.getByLabel(/^Montant en euros/)).toHaveValue('75');
  await expect(page.getByLabel('Virement')).toBeChecked();
});

test('an article typed and not saved is kept in the browser, offered back after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/articles/nouveau');
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
  const titre = `Brocante ${unique()}`;
  await page.getByLabel('Titre').fill(titre);
  const editor = page.getByRole('textbox', { name: 'Texte complet' });
  await editor.click();
  await page.keyboard.type('Des stands toute la journée.');
  // The editor's field follows its text a moment later; the draft is kept then.
  await expect
    .poll(() => page.evaluate(() => sessionStorage.getItem('espace-article-nouveau') ?? ''))
    .toContain('Des stands toute la journée.');

  await page.reload();
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
  const note = page.getByRole('region', { name: 'Texte non enregistré' });
  await expect(note).toContainText('Un texte non enregistré de cet article est gardé dans ce navigateur');
  await note.getByRole('button', { name: 'Reprendre ce texte' }).click();
  await expect(page.getByLabel('Titre')).toHaveValue(titre);
  await expect(editor).toHaveText('Des stands toute la journée.');
  await expect(note).toHaveCount(0);

  // Saved: the draft ends, nothing is offered again.
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByRole('status').getByText(ARTICLE_MESSAGES.saved)).toBeFocused();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Texte non enregistré' })).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('espace-article-nouveau'))).toBeNull();
});
