/**
 * The newsletter's subscribers and the failed mails in the staff space, on the built site (playwright.config.ts):
 * who sees and who is refused /espace/lettre, its export and its removal; the list newest first; the CSV read back
 * with a CSV parser; a removal that leaves only the proof of consent and is logged; the failed mails on /espace
 * (recipient masked, no content) and « Réessayer », after which a drain sends the mail once. Axe at 375 px on each
 * state (the pages themselves at both widths: espace.spec.ts).
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { subscriptionId } from '../../src/features/newsletter/subscription.server';
import { drainOutbox, MAX_ATTEMPTS } from '../../src/features/mail/drain.server';
import { smtpTransport } from '../../src/features/mail/transport.server';
import { espaceDatabase, post, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';

let db: Firestore;

test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

const DAY = 86_400_000;

/** Stores `email` as a confirmed subscriber, confirmed `daysAgo` days ago, as the double opt-in leaves it; its id. */
async function seedSubscriber(email: string, daysAgo = 0): Promise<string> {
  const id = subscriptionId(email);
  await db
    .collection('newsletter')
    .doc(id)
    .set({
      email,
      statut: 'confirmed',
      consentement: true,
      consentementVersion: 'newsletter-2026-01',
      consentementTexte: 'J’accepte de recevoir la lettre d’information.',
      date: Timestamp.fromMillis(Date.now() - (daysAgo + 1) * DAY),
      confirmeLe: Timestamp.fromMillis(Date.now() - daysAgo * DAY),
      desinscriptionJeton: `${id}.${randomBytes(32).toString('base64url')}`,
    });
  return id;
}

const subscription = async (id: string) => (await db.collection('newsletter').doc(id).get()).data();

/** A mail the relay refused for good, as the drain leaves it; its id and recipient. */
async function seedFailedMail(): Promise<{ id: string; to: string; domain: string }> {
  const domain = `e2e-${unique()}.exemple.fr`;
  const to = `jeanne.martin@${domain}`;
  const id = `inscripitions-${unique()}-parent`;
  await db
    .collection('outbox')
    .doc(id)
    .set({
      kind: 'preinscription-parent',
      to,
      subject: 'Votre demande de préinscription',
      html: '<p>Contenu confidentiel du courriel</p>',
      text: 'Contenu confidentiel du courriel',
      replyTo: '',
      headers: {},
      attachments: [],
      state: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      lastError: `EENVELOPE 550 5.1.1 <${to}>: Recipient address rejected`,
      createdAt: Timestamp.fromMillis(Date.now() - DAY),
    });
  return { id, to, domain };
}

const outbox = async (id: string) => (await db.collection('outbox').doc(id).get()).data();

/** The access log's entries about `objet`, as `action by qui`. */
async function logged(objet: string): Promise<string[]> {
  const snapshot = await db.collection('espaceJournal').where('objet', '==', objet).get();
  return snapshot.docs.map((entry) => `${entry.get('action')} by ${entry.get('qui')}`);
}

const FORBIDDEN = 'Cette page n’est pas accessible avec votre rôle.';

/** Where the « Oui, retirer cette adresse » form posts: the page, with its action. */
const REMOVE = '/espace/lettre?_action=lettre.remove';

test('anonymous: the list, the export and the removal redirect to sign-in or are refused; nothing changes', async ({
  request,
  baseURL,
}) => {
  const email = `anonyme-${unique()}@exemple.fr`;
  const id = await seedSubscriber(email);
  const failed = await seedFailedMail();
  for (const path of ['/espace/lettre', '/espace/lettre/export.csv', `/espace/lettre?retirer=${id}`]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(303);
    expect(response.headers().location, path).toMatch(/^\/espace\/connexion(\?|$)/);
    expect(response.headers()['cache-control'], path).toBe('no-store');
    expect(await response.text(), path).not.toContain(email);
  }
  expect((await post(request, baseURL!, REMOVE, { id, confirmer: 'oui' })).status()).toBe(403);
  expect((await post(request, baseURL!, '/espace?_action=mails.retry', { id: failed.id })).status()).toBe(403);
  expect(await subscription(id)).toMatchObject({ statut: 'confirmed', email });
  expect(await outbox(failed.id)).toMatchObject({ state: 'failed' });
});

for (const role of ['admissions', 'tresorerie', 'edition']) {
  test(`${role}: no newsletter, no failed mails; the list, export, removal and retry refused`, async ({
    page,
    baseURL,
  }) => {
    const email = `${role}-refuse-${unique()}@exemple.fr`;
    const id = await seedSubscriber(email);
    const failed = await seedFailedMail();
    await signIn(page, `${role}@demo.test`);
    await expect(page.getByRole('link', { name: 'Lettre d’information' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Courriels en échec' })).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText(failed.domain);
    for (const path of ['/espace/lettre', '/espace/lettre/export.csv', `/espace/lettre?retirer=${id}`]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      const body = await response.text();
      expect(body, path).toContain(FORBIDDEN);
      expect(body, path).not.toContain(email);
    }
    expect((await post(page.request, baseURL!, REMOVE, { id, confirmer: 'oui' })).status()).toBe(403);
    expect((await post(page.request, baseURL!, '/espace?_action=mails.retry', { id: failed.id })).status()).toBe(403);
    // The action posted where the guard of /espace/lettre does not stand: its own address, a page the role opens.
    const direct = await post(page.request, baseURL!, '/_actions/lettre.remove', { id, confirmer: 'oui' });
    expect(direct.status()).toBe(403);
    expect(await direct.text()).toContain(FORBIDDEN);
    await post(page.request, baseURL!, '/espace?_action=lettre.remove', { id, confirmer: 'oui' });
    expect(await subscription(id)).toMatchObject({ statut: 'confirmed', email });
    expect(await outbox(failed.id)).toMatchObject({ state: 'failed', attempts: 1 });
  });
}

test('admin: confirmed subscribers newest first, the CSV read back, a removal confirmed, persisted and logged', async ({
  page,
  baseURL,
}) => {
  const tag = unique();
  const older = `ancienne-${tag}@exemple.fr`;
  const newer = `élodie-${tag}@exemple.fr`;
  const formula = `+${tag}@exemple.fr`;
  await seedSubscriber(older, 30);
  const newerId = await seedSubscriber(newer, 1);
  await seedSubscriber(formula, 2);
  const pendingEmail = `attente-${tag}@exemple.fr`;
  await db.collection('newsletter').doc(subscriptionId(pendingEmail)).set({ email: pendingEmail, statut: 'pending' });

  await signIn(page, 'admin@demo.test');
  await page
    .getByRole('navigation', { name: 'Espace de l’association' })
    .getByRole('link', { name: 'Lettre d’information' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lettre d’information');
  const emails = await page.getByRole('rowheader').allTextContents();
  expect(emails.indexOf(newer)).toBeGreaterThanOrEqual(0);
  expect(emails.indexOf(newer)).toBeLessThan(emails.indexOf(formula));
  expect(emails.indexOf(formula)).toBeLessThan(emails.indexOf(older));
  expect(emails).not.toContain(pendingEmail);
  const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });
  await expect(page.getByRole('row').filter({ hasText: older })).toContainText(
    day.format(new Date(Date.now() - 30 * DAY)),
  );

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exporter les abonnés en CSV (outil d’envoi, tableur)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^lettre-abonnes-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows: Record<string, string>[] = parse(bytes.toString('utf8'), { bom: true, delimiter: ';', columns: true });
  expect(Object.keys(rows[0]!)).toEqual(['Email', 'Date de confirmation']);
  const short = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' });
  expect(rows.find((row) => row.Email === newer)).toEqual({
    Email: newer,
    'Date de confirmation': short.format(new Date(Date.now() - DAY)),
  });
  expect(rows.map((row) => row.Email)).toContain(`'${formula}`);
  expect(rows.map((row) => row.Email)).not.toContain(pendingEmail);

  // A post without the confirmation changes nothing.
  const unconfirmed = await post(page.request, baseURL!, REMOVE, { id: newerId });
  expect(unconfirmed.status()).toBe(400);
  expect(await unconfirmed.text()).toContain('Merci de confirmer le retrait de l’adresse.');
  expect(await subscription(newerId)).toMatchObject({ statut: 'confirmed', email: newer });

  await page.getByRole('link', { name: `Retirer ${newer}` }).click();
  await expect(page.getByRole('heading', { level: 2, name: `Retirer ${newer} de la lettre ?` })).toBeVisible();
  expect(await subscription(newerId)).toMatchObject({ statut: 'confirmed' });
  await page.getByRole('button', { name: 'Oui, retirer cette adresse' }).click();
  await expect(page).toHaveURL(/\/espace\/lettre\?retiree$/);
  await expect(page.getByRole('status')).toHaveText(
    'L’adresse a été retirée : elle ne recevra plus la lettre. Seule la preuve du consentement est gardée.',
  );
  await expect(page.getByRole('rowheader', { name: newer })).toHaveCount(0);
  const removed = await subscription(newerId);
  expect(removed).toMatchObject({
    statut: 'unsubscribed',
    email: null,
    desinscriptionJeton: null,
    consentement: true,
    consentementVersion: 'newsletter-2026-01',
    consentementTexte: 'J’accepte de recevoir la lettre d’information.',
  });
  expect((removed?.desinscritLe as Timestamp).toMillis()).toBeGreaterThan(Date.now() - 60_000);
  expect((removed?.confirmeLe as Timestamp).toMillis()).toBeLessThan(Date.now() - DAY / 2);
  expect(await logged(`newsletter/${newerId}`)).toEqual(
    expect.arrayContaining(['consultation by admin@demo.test', 'suppression by admin@demo.test']),
  );
  const exports = await db.collection('espaceJournal').where('qui', '==', 'admin@demo.test').get();
  const objets = exports.docs.map((entry) => `${entry.get('action')} ${entry.get('objet')}`);
  expect(objets).toContain('consultation newsletter (liste)');
  expect(objets.some((objet) => /^export newsletter \(\d+ lignes, CSV\)$/.test(objet))).toBe(true);

  // Removing it again: a clear answer, nothing written.
  const again = await post(page.request, baseURL!, REMOVE, { id: newerId, confirmer: 'oui' });
  expect(again.status()).toBe(404);
  expect(await again.text()).toContain('Cette adresse n’est pas (ou plus) inscrite à la lettre.');
});

test('admin: a failed mail on /espace, masked and without content; « Réessayer », then a drain sends it once', async ({
  page,
}) => {
  const failed = await seedFailedMail();
  await signIn(page, 'admin@demo.test');
  const item = page.getByRole('listitem').filter({ hasText: failed.domain });
  await expect(item).toContainText(`Accusé de réception d’une préinscription à j•••@${failed.domain}`);
  await expect(item).toContainText(`Dernière erreur : EENVELOPE 550 5.1.1 <j•••@${failed.domain}>`);
  await expect(page.locator('body')).not.toContainText(failed.to);
  await expect(page.locator('body')).not.toContainText('Contenu confidentiel');

  await item.getByRole('button', { name: /^Réessayer/ }).click();
  await expect(page).toHaveURL(/\/espace\?courriel=remis#courriels-echec$/);
  await expect(page.getByRole('status')).toHaveText(
    'Le courriel est remis dans la file : il partira au prochain envoi, dans les 5 minutes.',
  );
  await expect(page.getByRole('listitem').filter({ hasText: failed.domain })).toHaveCount(0);
  const requeued = await outbox(failed.id);
  expect(requeued).toMatchObject({ state: 'pending', attempts: MAX_ATTEMPTS - 1 });
  expect((requeued?.nextAttemptAt as Timestamp).toMillis()).toBeLessThanOrEqual(Date.now());
  expect(await logged(`outbox/${failed.id}`)).toEqual(['modification by admin@demo.test']);

  const transport = smtpTransport(`smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`, 'Site de test <site@exemple.org>');
  try {
    for (let drain = 0; drain < 2; drain += 1) {
      await drainOutbox({ firestore: db, transport }, { ids: [failed.id], deadlineMs: 20_000 });
    }
  } finally {
    transport.close();
  }
  expect(await outbox(failed.id)).toMatchObject({ state: 'sent', html: '', text: '' });
  const mails = (await (await fetch(`http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`)).json()) as {
    to: string[];
    subject: string;
  }[];
  expect(mails.filter((mail) => mail.to.includes(failed.to))).toEqual([
    expect.objectContaining({ subject: 'Votre demande de préinscription' }),
  ]);
});

/** Axe at 375 px on the page in its current state, and screenshots to look at (lookAt: with SCREENSHOTS_DIR only). */
async function check(page: Page, state: string, name: string) {
  await expectNoAxeViolationsNarrow(page, state);
  await lookAt(page, name, { viewports: VIEWPORTS });
}

test.describe('accessibility', () => {
  test('the failed mails, a retry, the list and its removals pass axe at 375 px', async ({ page }) => {
    // The home and /espace/lettre in their plain state, at both widths: espace.spec.ts.
    await page.setViewportSize(VIEWPORTS[0]);
    const id = await seedSubscriber(`axe-${unique()}@exemple-de-nom-de-domaine-assez-long.fr`, 3);
    const failed = await seedFailedMail();
    await signIn(page, 'admin@demo.test');
    await check(page, 'home with failed mails', 'accueil');
    const item = page.getByRole('listitem').filter({ hasText: failed.domain });
    await item.getByRole('button', { name: /^Réessayer/ }).click();
    await expect(page.getByRole('status')).toContainText('Le courriel est remis dans la file');
    await check(page, 'home after a retry', 'accueil-reessai');
    await page.goto('/espace/lettre');
    await check(page, 'lettre with its subscriber', 'lettre');
    await page.goto(`/espace/lettre?retirer=${id}#retrait-titre`);
    await check(page, 'lettre removal', 'lettre-retrait');
    await page.getByRole('button', { name: 'Oui, retirer cette adresse' }).click();
    await expect(page.getByRole('status')).toContainText('L’adresse a été retirée');
    await check(page, 'lettre removed', 'lettre-retiree');
    await page.goto('/espace/lettre?retirer=inconnu');
    await check(page, 'lettre unknown removal', 'lettre-inconnue');
  });
});
