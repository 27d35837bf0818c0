/**
 * The newsletter sent from the space, on the built site (playwright.config.ts), read in the tests' SMTP catcher: a
 * letter written with the articles' editor, previewed, tested on one's own address, sent to the confirmed
 * subscribers only, each mail with its plain-text part and the subscriber's own link in `List-Unsubscribe` (with
 * `List-Unsubscribe-Post`, RFC 8058), whose one-click POST unsubscribes; a second send reaches nobody twice. Other
 * roles are refused. Axe at 375 px on every screen (the list and the empty form at both widths: espace.spec.ts);
 * screenshots at 375 and 1280 px of every screen, and of the letter as received.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { subscriptionId } from '../../src/features/newsletter/subscription.server';
import { LETTER_MESSAGES } from '../../src/features/newsletter/letters';
import { espaceDatabase, post, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';

let db: Firestore;

test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

const CATCHER = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;

/** A mail as the catcher kept it. */
interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const caught = async () => (await (await fetch(`${CATCHER}/mails.json`)).json()) as CaughtMail[];

/** The mails caught for `email`, in order. */
const mailsTo = async (email: string) => (await caught()).filter((mail) => mail.to.includes(email));

/** Waits for the first mail to `email` and returns it with its place in the catcher's list (its web view). */
async function firstMailTo(email: string): Promise<CaughtMail & { index: number }> {
  await expect.poll(async () => (await mailsTo(email)).length).toBeGreaterThan(0);
  const all = await caught();
  const index = all.findIndex((mail) => mail.to.includes(email));
  return { ...all[index]!, index };
}

/** Stores `email` as a confirmed subscriber, as the double opt-in leaves it; its id and unsubscribe token. */
async function seedSubscriber(email: string, statut = 'confirmed') {
  const id = subscriptionId(email);
  const token = `${id}.${randomBytes(32).toString('base64url')}`;
  await db
    .collection('newsletter')
    .doc(id)
    .set({
      email,
      statut,
      consentement: true,
      consentementVersion: 'newsletter-2026-01',
      consentementTexte: 'J’accepte de recevoir la lettre d’information.',
      date: Timestamp.now(),
      ...(statut === 'confirmed' ? { confirmeLe: Timestamp.now() } : { confirmationEnvoyeeLe: Timestamp.now() }),
      desinscriptionJeton: token,
    });
  return { id, token };
}

const subscription = async (id: string) => (await db.collection('newsletter').doc(id).get()).data();

/** Writes a letter in the form: its subject, then a heading and two paragraphs in the editor. */
async function writeLetter(page: Page, subject: string) {
  await expect(page.getByRole('toolbar', { name: 'Mise en forme : Texte de la lettre' })).toBeVisible();
  await page.getByLabel('Objet').fill(subject);
  const editor = page.getByRole('textbox', { name: 'Texte de la lettre' });
  await editor.click();
  await page.keyboard.type('Bonjour à toutes et à tous,');
  await page.keyboard.press('Enter');
  await page.keyboard.type('La fête de l’école aura lieu samedi 14 juin, de 14 h à 18 h.');
}

test('admin: a letter written, previewed, tested, sent once to the confirmed only; one click unsubscribes', async ({
  page,
  baseURL,
}) => {
  // Sign-in, the editor, three sends and the catcher, on a busy machine.
  test.setTimeout(180_000);
  const domain = `lettre-${unique()}.exemple.fr`;
  const awa = `awa@${domain}`;
  const paul = `paul@${domain}`;
  const late = `arrivee-apres@${domain}`;
  const pending = `en-attente@${domain}`;
  const awaSubscription = await seedSubscriber(awa);
  await seedSubscriber(paul);
  await seedSubscriber(pending, 'pending');
  const subject = `Nouvelles de juin ${unique()}`;

  await signIn(page, 'admin@demo.test');
  await page.goto('/espace/lettre');
  await page.getByRole('link', { name: 'Écrire une lettre' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nouvelle lettre');
  // Nothing typed: refused in words, nothing stored.
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText(`Objet : ${LETTER_MESSAGES.subjectEmpty}`);
  await expect(refusal).toContainText(`Texte de la lettre : ${LETTER_MESSAGES.bodyEmpty}`);

  await writeLetter(page, subject);
  // A page of the site found by its title in the link dialog (an address inside the site, absolute in the mail).
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Lien' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lien' });
  await dialog.getByRole('searchbox', { name: 'Chercher une page ou un article du site' }).fill('préinscription');
  await dialog.getByRole('button', { name: 'Préinscription à l’école Page · /ecole#preinscription' }).click();
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
  await expect(page.getByRole('status')).toHaveText(LETTER_MESSAGES.saved);
  const id = /\/espace\/lettre\/([A-Za-z0-9]{20})\?/.exec(page.url())![1]!;
  const stored = (await db.collection('lettres').doc(id).get()).data();
  expect(stored).toMatchObject({
    objet: subject,
    contenu:
      '<p>Bonjour à toutes et à tous,</p><p>La fête de l’école aura lieu samedi 14 juin, de 14 h à 18 h.</p>' +
      '<p><a href="/ecole#preinscription">Préinscription à l’école</a></p>',
    statut: 'brouillon',
  });
  const preview = page.getByRole('region', { name: 'Aperçu de la lettre' });
  await expect(preview).toContainText('La fête de l’école aura lieu samedi 14 juin');

  // The test, to the signed-in person only.
  await expect(page.getByRole('region', { name: 'Tester, puis envoyer' })).toContainText(
    'Le test part à votre adresse, admin@demo.test, et à personne d’autre.',
  );
  await page.getByRole('button', { name: 'M’envoyer un test' }).click();
  await expect(page.getByRole('status')).toHaveText(LETTER_MESSAGES.testSent('admin@demo.test'));
  await expect
    .poll(async () => (await mailsTo('admin@demo.test')).filter((mail) => mail.subject === `[Test] ${subject}`).length)
    .toBe(1);
  expect(await mailsTo(awa)).toEqual([]);

  // The send, confirmed in a second step.
  await page.getByRole('link', { name: /^Envoyer aux \d+ abonnés confirmés…$/ }).click();
  await expect(page.getByRole('heading', { name: /^Envoyer « .+ » à \d+ abonnés confirmés \?$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Oui, envoyer la lettre' }).click();
  await expect(page.getByRole('status')).toContainText('La lettre part vers');

  const received = await firstMailTo(awa);
  const link = /^<(https?:\/\/[^>]+\/newsletter\/desinscription\?jeton=([^>]+))>$/.exec(
    received.headers['list-unsubscribe']!,
  );
  expect(link?.[2]).toBe(awaSubscription.token);
  expect(received.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  expect(received.subject).toBe(subject);
  expect(received.text).toContain('La fête de l’école aura lieu samedi 14 juin');
  expect(received.text).toContain(link![1]);
  expect(received.html.replace(/&amp;/g, '&')).toContain(`href="${link![1]}"`);
  expect(received.html).toContain(`href="${new URL(link![1]!).origin}/ecole#preinscription"`);
  const paulsMail = await firstMailTo(paul);
  expect(paulsMail.headers['list-unsubscribe']).not.toContain(awaSubscription.token);
  // Never to an address that has not confirmed.
  expect(await mailsTo(pending)).toEqual([]);

  // A second « Envoyer », and a retried post: nobody twice; only a subscriber confirmed since gets it, once.
  await seedSubscriber(late);
  await page.goto(`/espace/lettre/${id}?envoyer`);
  await page.getByRole('button', { name: 'Oui, envoyer la lettre' }).click();
  await expect(page.getByRole('status')).toHaveText(LETTER_MESSAGES.queued(1));
  const retried = await post(page.request, baseURL!, `/espace/lettre/${id}?_action=lettre.send`, { confirmer: 'oui' });
  expect(retried.headers().location).toBe(`/espace/lettre/${id}?envoyee=0`);
  await page.goto(retried.headers().location!);
  await expect(page.getByRole('status')).toHaveText(LETTER_MESSAGES.nobodyNew);
  await firstMailTo(late);
  for (const email of [awa, paul, late]) expect(await mailsTo(email), email).toHaveLength(1);
  expect(await mailsTo(pending)).toEqual([]);

  // The subscriber's mail client posts the one-click unsubscription to their own link: done, no further step.
  const url = new URL(link![1]!);
  const oneClick = await page.request.post(`${url.pathname}${url.search}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status()).toBe(200);
  expect(await subscription(awaSubscription.id)).toMatchObject({ statut: 'unsubscribed', email: null });

  // The counts, on the letter and in the archive.
  await page.goto(`/espace/lettre/${id}`);
  const letter = (await db.collection('lettres').doc(id).get()).data()!;
  expect(letter).toMatchObject({ statut: 'envoyee' });
  const counts = page.getByRole('region', { name: /^Envoyée le / });
  await expect(counts).toContainText(`Destinataires${letter.destinataires}`);
  await expect(counts).toContainText(`Envoyés${letter.envoyes}`);
  expect(letter.envoyes).toBeGreaterThanOrEqual(3);
  await expect(page.getByLabel('Objet')).toHaveCount(0);
  // A sent letter is not changed, even by a post.
  const edit = await post(page.request, baseURL!, `/espace/lettre/${id}?_action=lettre.save`, {
    objet: 'Autre',
    contenu: '<p>Autre</p>',
  });
  expect(edit.status()).toBe(409);
  expect(await edit.text()).toContain(LETTER_MESSAGES.alreadySent);
  await page.goto('/espace/lettre');
  const row = page.getByRole('row').filter({ hasText: subject });
  await expect(row.getByRole('cell').first()).toHaveText(/^Envoyée le /);
  await expect(row.getByRole('cell').nth(1)).toContainText(
    `${letter.destinataires} destinataires, ${letter.envoyes} envoyés`,
  );
});

for (const role of ['admissions', 'tresorerie', 'edition']) {
  test(`${role}: no letter written, tested nor sent`, async ({ page, baseURL }) => {
    await signIn(page, `${role}@demo.test`);
    const response = await page.request.get('/espace/lettre/nouvelle', { maxRedirects: 0 });
    expect(response.status()).toBe(403);
    const posted = await post(page.request, baseURL!, '/espace/lettre/nouvelle?_action=lettre.save', {
      objet: `Interdit ${role}`,
      contenu: '<p>Non</p>',
    });
    expect(posted.status()).toBe(403);
    expect((await db.collection('lettres').where('objet', '==', `Interdit ${role}`).get()).size).toBe(0);
  });
}

test.describe('accessibility', () => {
  test("the letter's screens pass axe at 375 px", async ({ page }) => {
    // The list and the empty form in their plain state, at both widths: espace.spec.ts.
    test.setTimeout(120_000);
    await page.setViewportSize(VIEWPORTS[0]);
    const shot = async (state: string) => {
      await expectNoAxeViolationsNarrow(page, state);
      await lookAt(page, state, { viewports: VIEWPORTS });
    };
    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/lettre/nouvelle');
    await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await shot('lettre-refusee');
    await writeLetter(page, 'Lettre de juin');
    await shot('lettre-redaction');
    await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
    await expect(page.getByRole('status')).toHaveText(LETTER_MESSAGES.saved);
    await shot('lettre-apercu');
    const id = /\/espace\/lettre\/([A-Za-z0-9]{20})\?/.exec(page.url())![1]!;
    await page.goto(`/espace/lettre/${id}?envoyer#confirmer-envoi`);
    await shot('lettre-confirmer');
    // Sent (as a send leaves it), without mailing every subscriber of the tests' database once more.
    await db
      .collection('lettres')
      .doc(id)
      .update({ statut: 'envoyee', envoyeeLe: Timestamp.now(), destinataires: 12, envoyes: 11, echecs: 1 });
    await page.goto(`/espace/lettre/${id}`);
    await shot('lettre-envoyee');
    await page.goto('/espace/lettre');
    await shot('lettre-archive');
  });

  test('the letter as received, at 375 and 1280 px', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/lettre/nouvelle');
    await writeLetter(page, 'Lettre de juin, telle que reçue');
    await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
    await page.getByRole('button', { name: 'M’envoyer un test' }).click();
    await expect(page.getByRole('status')).toContainText('Le test est parti');
    await expect
      .poll(async () => (await caught()).findIndex((mail) => mail.subject === '[Test] Lettre de juin, telle que reçue'))
      .toBeGreaterThanOrEqual(0);
    const index = (await caught()).findIndex((mail) => mail.subject === '[Test] Lettre de juin, telle que reçue');
    await page.goto(`${CATCHER}/mails/${index}`);
    await lookAt(page, 'lettre-recue', { viewports: VIEWPORTS });
  });
});
