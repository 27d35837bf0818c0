/**
 * The treasurer's ledger on the built site (dist/ as Netlify serves it, the Auth emulator's demo accounts): what each
 * role sees and is refused, the year's ledger with test gifts apart, the CSV export read back, a cheque recorded with
 * the next receipt number and its PDF, bad input refused in French with nothing written, a receipt sent again, the
 * home's news, and axe at 375 px on each state (the pages themselves at both widths: espace.spec.ts; screenshots to
 * look at with SCREENSHOTS_DIR: helpers.ts, lookAt).
 */
import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { createDemoAccounts, DEMO_PASSWORD } from '../../scripts/lib/auth-emulator';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';
import { mailsOfOutbox } from './espace-helpers';

const PROJECT = 'demo-e2e';
let db: Firestore;
const year = Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Paris' }).format(new Date()));

test.beforeAll(async () => {
  await createDemoAccounts(PROJECT, `127.0.0.1:${process.env.E2E_AUTH_PORT}`);
  db ??= adminFirestoreOf({
    FIREBASE_PROJECT_ID: PROJECT,
    FIRESTORE_EMULATOR_HOST: `127.0.0.1:${process.env.E2E_FIRESTORE_PORT}`,
  });
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Writes a paid card gift as the webhook would (plus `extra`); its id and donor name. */
async function seedGift(extra: Record<string, unknown> = {}): Promise<{ id: string; nom: string }> {
  const id = `cs_test_e2e${unique()}`;
  const nom = `Donatrice ${unique()}`;
  const now = Timestamp.now();
  const gift = {
    ...{ montant: 5000, devise: 'eur', prenom: '', nom, email: `${id}@exemple.fr`, adresse: '8 quai Rambaud' },
    ...{ postal: '69002', ville: 'Lyon', pays: 'FR', statut: 'paid', nature: 'don', livemode: true },
    ...{ evenement: 'checkout.session.completed', session: id, abonnement: '', datePaiement: now, date: now },
    recu: `${year}-9${String(Math.floor(Math.random() * 9999)).padStart(4, '0')}`,
    ...extra,
  };
  // `recu: undefined` in `extra`: a gift without a receipt (Firestore refuses undefined values).
  await db
    .collection('dons')
    .doc(id)
    .set(Object.fromEntries(Object.entries(gift).filter(([, value]) => value !== undefined)));
  return { id, nom };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/espace/connexion');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/espace$/);
}

function post(request: APIRequestContext, baseURL: string, path: string, fields: Record<string, string>) {
  return request.post(path, { form: fields, headers: { origin: baseURL }, maxRedirects: 0 });
}

const giftsNamed = async (nom: string) => (await db.collection('dons').where('nom', '==', nom).get()).size;

test('anonymous: every page, export and receipt redirect to the sign-in page; posts are refused', async ({
  request,
  baseURL,
}) => {
  const { id, nom } = await seedGift();
  for (const path of [
    '/espace/dons',
    `/espace/dons?annee=${year}`,
    '/espace/dons/nouveau',
    '/espace/dons/signataire',
    '/espace/dons/export.csv',
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(303);
    expect(response.headers().location, path).toMatch(/^\/espace\/connexion(\?|$)/);
    expect(await response.text(), path).not.toContain(nom);
  }
  expect((await request.get(`/espace/dons/recu/${id}`, { maxRedirects: 0 })).status()).toBe(303);
  expect((await post(request, baseURL!, '/espace/dons?_action=donations.resend', { renvoyer: id })).status()).toBe(403);
  const forged = { moyen: 'cheque', date: '2026-01-02', montant: '10', nom: 'Anonyme', adresse: 'a', postal: '1' };
  expect(
    (
      await post(request, baseURL!, '/espace/dons/nouveau?_action=donations.record', { ...forged, ville: 'x' })
    ).status(),
  ).toBe(403);
  expect(await giftsNamed('Anonyme')).toBe(0);
});

for (const email of ['admissions@demo.test', 'edition@demo.test']) {
  test(`${email.split('@')[0]}: no Dons in the menu; the ledger, export, receipt and posts refused`, async ({
    page,
    baseURL,
  }) => {
    const { id, nom } = await seedGift();
    await signIn(page, email);
    await expect(page.getByRole('link', { name: 'Dons' })).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText(nom);
    for (const path of [
      '/espace/dons',
      '/espace/dons/nouveau',
      '/espace/dons/signataire',
      '/espace/dons/export.csv',
      `/espace/dons/recu/${id}`,
    ]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      const body = await response.text();
      expect(body, path).toContain('Cette page n’est pas accessible avec votre rôle.');
      expect(body, path).not.toContain(nom);
    }
    const forged = await post(page.request, baseURL!, '/espace/dons/nouveau?_action=donations.record', {
      ...{ cle: crypto.randomUUID(), moyen: 'cheque', date: '2026-01-02', montant: '10', nom: `Refus ${id}` },
      ...{ adresse: '1 rue', postal: '69002', ville: 'Lyon', email: '' },
    });
    expect(forged.status()).toBe(403);
    // Posted to a page the role opens, the action refuses itself.
    const direct = await post(page.request, baseURL!, '/espace?_action=donations.record', {
      ...{ cle: crypto.randomUUID(), moyen: 'cheque', date: '2026-01-02', montant: '10', nom: `Refus ${id}` },
      ...{ adresse: '1 rue', postal: '69002', ville: 'Lyon', email: '' },
    });
    expect(direct.status()).toBe(403);
    expect(await giftsNamed(`Refus ${id}`)).toBe(0);
  });
}

test('tresorerie: the year, test gifts apart, the CSV export read back, a receipt’s PDF', async ({ page }) => {
  const live = await seedGift({ montant: 12345, nom: '=HYPERLINK("http://x")' });
  const monthly = await seedGift({ nature: 'mensualite', montant: 2500, recu: undefined });
  const test = await seedGift({ livemode: false, montant: 999900 });
  await signIn(page, 'tresorerie@demo.test');
  await expect(page.getByRole('region', { name: 'Dons' })).toBeVisible();
  await page.getByRole('link', { name: 'Dons', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Dons ${year}`);
  const registre = page.getByRole('region', { name: /dons? en \d{4}/ });
  await expect(registre).toContainText('=HYPERLINK("http://x")');
  await expect(registre).toContainText('123,45 €');
  await expect(registre).toContainText('mensualité');
  await expect(registre).not.toContainText(test.nom);
  await expect(page.getByRole('region', { name: /paiements? de test \(Stripe\)/ })).toContainText(test.nom);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Exporter ${year} en CSV (tableur)` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`dons-${year}.csv`);
  const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows: Record<string, string>[] = parse(bytes.toString('utf8'), { bom: true, delimiter: ';', columns: true });
  expect(rows.find((row) => row.nom === '\'=HYPERLINK("http://x")')).toMatchObject({
    'montant en euros': '123,45',
    nature: 'don',
    moyen: 'Carte bancaire',
    statut: 'payé',
  });
  expect(rows.find((row) => row.nom === monthly.nom)).toMatchObject({ nature: 'mensualité', reçu: '' });
  expect(rows.some((row) => row.nom === test.nom)).toBe(false);

  const pdf = await page.request.get(`/espace/dons/recu/${live.id}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['cache-control']).toBe('no-store');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
});

test('tresorerie: refunds, disputes and cancelled numbers in the ledger and its CSV', async ({ page }) => {
  const cancelled = `${year}-8${String(Math.floor(Math.random() * 9999)).padStart(4, '0')}`;
  const at = Timestamp.now();
  const refunded = await seedGift({
    rembourse: 2000,
    recusAnnules: [{ numero: cancelled, date: at, motif: 'remboursement' }],
  });
  const disputed = await seedGift({ litige: 'perdu', recu: undefined, recusAnnules: [] });
  const waiting = await seedGift({ recu: undefined, aNumeroter: true });
  await signIn(page, 'tresorerie@demo.test');
  await page.goto(`/espace/dons?annee=${year}`);
  const row = (nom: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: nom }) });
  await expect(row(refunded.nom)).toContainText('remboursé 20,00 €');
  await expect(row(refunded.nom)).toContainText(`n° ${cancelled} annulé`);
  await expect(row(disputed.nom)).toContainText('litige perdu');
  await expect(row(waiting.nom).getByRole('cell').nth(-1)).toHaveText(
    'en préparation : le numéro sera attribué et le reçu envoyé sous peu',
  );
  await expectNoAxeViolationsNarrow(page, '/espace/dons with refunds');
  await lookAt(page, 'dons-rembourses', { viewports: [VIEWPORTS[0]] });

  const csv = await page.request.get(`/espace/dons/export.csv?annee=${year}`);
  const rows: Record<string, string>[] = parse(await csv.text(), { bom: true, delimiter: ';', columns: true });
  expect(rows.find((line) => line.nom === refunded.nom)).toMatchObject({
    'montant en euros': '50,00',
    'remboursé en euros': '20,00',
    litige: '',
    'reçus annulés': cancelled,
  });
  expect(rows.find((line) => line.nom === disputed.nom)).toMatchObject({ litige: 'litige perdu', reçu: '' });
});

test('tresorerie: a cheque recorded gets the next number; bad input is refused in French, nothing written', async ({
  page,
}) => {
  await signIn(page, 'tresorerie@demo.test');
  await page.goto('/espace/dons/nouveau');
  const nom = `Chèque ${unique()}`;
  await page.getByLabel('Prénom').fill('Paul');
  await page.getByRole('textbox', { name: /^Nom/ }).fill(nom);
  await page.getByLabel('Montant en euros').fill('cent euros');
  await page.getByLabel('Adresse').fill('12 rue Victor Hugo');
  await page.getByLabel('Code postal').fill('69002');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page.getByRole('alert').getByRole('listitem')).toHaveText(
    'Montant en euros : Merci de saisir le montant en euros, par exemple 150,00',
  );
  await expect(page.getByRole('textbox', { name: /^Nom/ })).toHaveValue(nom);
  await expectNoAxeViolationsNarrow(page, 'a refused cheque');
  await lookAt(page, 'nouveau-erreur', { viewports: VIEWPORTS });
  expect(await giftsNamed(nom)).toBe(0);
  const before = Number((await db.collection('compteurs').doc(`recus-${year}`).get()).data()?.dernier ?? 0);
  await page.getByLabel('Montant en euros').fill('150,50');
  await page.getByLabel('Virement').check();
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  const number = `${year}-${String(before + 1).padStart(5, '0')}`;
  await expect(page.getByRole('status')).toHaveText(`Don enregistré : reçu n° ${number}.`);
  await expect(page.getByRole('region', { name: /dons? en/ })).toContainText(nom);
  const [stored] = (await db.collection('dons').where('nom', '==', nom).get()).docs;
  expect(stored!.data()).toMatchObject({
    montant: 15050,
    moyen: 'virement',
    prenom: 'Paul',
    nom,
    recu: number,
    enregistrePar: 'tresorerie@demo.test',
  });
});

test('tresorerie: a company’s cheque gets a company’s receipt (article 238 bis, 60 %), signed', async ({ page }) => {
  await signIn(page, 'tresorerie@demo.test');
  await page.goto('/espace/dons/nouveau');
  // A person's gift first: the company's fields are not shown.
  await expect(page.getByLabel('Dénomination de l’entreprise')).toBeHidden();
  await page.getByLabel('D’une entreprise').check();
  const company = `Boulangerie ${unique()} SARL`;
  await page.getByLabel('Dénomination de l’entreprise').fill(company);
  await page.getByLabel('Numéro SIREN').fill('732 829 321');
  await page.getByLabel('Montant en euros').fill('500');
  await page.getByLabel('Adresse').fill('8 quai Rambaud');
  await page.getByLabel('Code postal').fill('69002');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page.getByRole('alert').getByRole('listitem')).toHaveText(
    'Numéro SIREN : Ce numéro SIREN n’existe pas : vérifiez ses 9 chiffres (ou laissez le champ vide)',
  );
  await expect(page.getByLabel('Dénomination de l’entreprise')).toHaveValue(company);
  await page.getByLabel('Numéro SIREN').fill('732 829 320');
  await page.getByRole('button', { name: 'Enregistrer et émettre le reçu' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Don enregistré : reçu n° \d{4}-\d{5}\.$/);
  const row = page.getByRole('row', { name: new RegExp(company) });
  await expect(row).toContainText('500,00 €');
  const [stored] = (await db.collection('dons').where('entreprise', '==', company).get()).docs;
  expect(stored!.data()).toMatchObject({ siren: '732829320', prenom: '', nom: '', moyen: 'cheque' });
  const pdf = await page.request.get(`/espace/dons/recu/${stored!.id}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const { extractText, getDocumentProxy } = await import('unpdf');
  const text = (await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true })).text;
  const flat = text.replace(/\s+/g, ' ');
  for (const line of [
    'Reçu des dons et versements effectués par les entreprises',
    'Article 238 bis du code général des impôts',
    `Dénomination et numéro SIREN ${company} — SIREN 732 829 320`,
    'Réduction d’impôt pour l’entreprise : 60 % du don, soit 300 €',
    'Pour l’association : Claire Martin, présidente',
  ]) {
    expect(flat).toContain(line);
  }
  expect(flat).not.toContain('66 %');
});

test('tresorerie: a monthly gift’s start is shown as set up, per month, not as money paid', async ({ page }) => {
  const { nom } = await seedGift({
    ...{ nature: 'abonnement', montant: 2500, abonnement: `sub_${unique()}`, recu: undefined },
    abonnementStatut: 'active',
  });
  await signIn(page, 'tresorerie@demo.test');
  await page.goto(`/espace/dons?annee=${year}`);
  const row = page.getByRole('row', { name: new RegExp(nom) });
  await expect(row.getByRole('cell')).toHaveText([/./, '25,00 €/mois', 'Don mensuel mis en place', 'en cours', '—']);
  await expect(row).not.toContainText('payé');
});

test('admin: a receipt sent again, the news on the home page', async ({ page }) => {
  const { id } = await seedGift();
  await signIn(page, 'admin@demo.test');
  // The counts depend on the other tests' gifts; the sentence around them is exact, singular or plural.
  const news = page.getByRole('region', { name: 'Dons' }).getByText(/ payés?, /);
  const sentence = (await news.textContent())!.trim();
  const [gifts, receipts] = (sentence.match(/\d+/g) ?? []).map(Number);
  expect(gifts).toBeGreaterThan(0);
  expect(sentence).toBe(
    `${gifts} ${gifts! > 1 ? 'nouveaux dons payés' : 'nouveau don payé'}, ` +
      `${receipts} ${receipts! > 1 ? 'reçus fiscaux' : 'reçu fiscal'} émis.`,
  );
  await page.goto(`/espace/dons?annee=${year}`);
  const recu = (await db.collection('dons').doc(id).get()).data()!.recu as string;
  await page.getByRole('button', { name: `Renvoyer le reçu ${recu} par email` }).click();
  await expect(page.getByRole('status')).toHaveText(`Le reçu n° ${recu} a été renvoyé.`);
  // Outbox ids name a gift by 12 hex digits of its id's SHA-256 (the outbox logs them).
  const prefix = `dons-${createHash('sha256').update(id).digest('hex').slice(0, 12)}-renvoi-`;
  const queued = (await db.collection('outbox').get()).docs.filter((doc) => doc.id.startsWith(prefix));
  expect(queued).toHaveLength(1);
  // Sent once, as the relay received it (the outbox keeps no content once sent: docs/mail.md).
  expect(queued[0]!.data()).toMatchObject({ kind: 'don-merci' });
  await expect
    .poll(async () => (await mailsOfOutbox(queued[0]!.id)).map((mail) => mail.subject))
    .toEqual([`Merci pour votre don : votre reçu fiscal n° ${recu}`]);
});

test('tresorerie: the yearly receipts of last year issued with the button, once; the PDF downloads', async ({
  page,
}) => {
  const last = year - 1;
  const customer = `cus_e2e${unique()}`;
  const nom = `Mensuelle ${unique()}`;
  const at = (month: number) => Timestamp.fromDate(new Date(Date.UTC(last, month, 10, 10)));
  const instalment = { nature: 'mensualite', recu: undefined, montant: 2500, nom, client: customer };
  await seedGift({ ...instalment, datePaiement: at(0), abonnement: 'sub_e2e' });
  await seedGift({ ...instalment, datePaiement: at(1), rembourse: 500 });
  await seedGift({ ...instalment, datePaiement: at(2), statut: 'failed' });
  await signIn(page, 'tresorerie@demo.test');
  await page.goto(`/espace/dons?annee=${year}`);
  await expect(page.getByText(`L’année ${year} n’est pas finie`)).toBeVisible();
  await expect(page.getByRole('button', { name: /Émettre les reçus annuels/ })).toHaveCount(0);

  await page.goto(`/espace/dons?annee=${last}`);
  await page.getByRole('button', { name: `Émettre les reçus annuels ${last}` }).click();
  await expect(page.getByText(new RegExp(`^\\d+ reçus? annuels? émis pour ${last}`))).toBeVisible();
  const receipt = (await db.collection('recusAnnuels').doc(`${customer}-${last}`).get()).data()!;
  expect(receipt).toMatchObject({ annee: last, montant: 4500, donateur: customer, nom });
  const table = page.getByRole('region', { name: /reçus? annuels?, par numéro/ });
  const row = table.getByRole('row', { name: new RegExp(nom) });
  await expect(row).toContainText('45,00 €');
  await expect(row.getByRole('link', { name: `n° ${receipt.numero} de ${nom} (PDF)` })).toBeVisible();

  // Again: nothing new is issued, numbered or sent.
  await page.getByRole('button', { name: `Émettre les reçus annuels ${last}` }).click();
  await expect(page.getByText(`Aucun nouveau reçu annuel à émettre pour ${last}.`)).toBeVisible();
  const hash = createHash('sha256').update(`${customer}-${last}`).digest('hex').slice(0, 12);
  await expect
    .poll(async () => (await mailsOfOutbox(`recus-annuels-${hash}`)).map((mail) => mail.subject))
    .toEqual([`Votre reçu fiscal ${last} pour vos dons mensuels : n° ${receipt.numero}`]);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: `n° ${receipt.numero} de ${nom} (PDF)` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`recu-fiscal-${receipt.numero}.pdf`);
  const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await expectNoAxeViolationsNarrow(page, 'yearly receipts');
  await lookAt(page, 'recus-annuels', { viewports: VIEWPORTS });
});

test('tresorerie: a corrected yearly receipt’s old number struck through; a cancelled one never served', async ({
  page,
}) => {
  // Two years back: the button of the test above (last year) never corrects these seeded receipts.
  const old = year - 2;
  const nom = `Rectifiée ${unique()}`;
  const cancelledName = `Annulée ${unique()}`;
  const seeded = {
    annee: old,
    prenom: '',
    nom,
    email: `${unique()}@exemple.fr`,
    adresse: '3 rue de la République',
    postal: '69001',
    ville: 'Lyon',
    pays: 'FR',
    date: Timestamp.now(),
    aEnvoyer: false,
  };
  const cancelledOn = Timestamp.now();
  const corrected = `cus_e2e${unique()}-${old}`;
  const cancelled = `cus_e2e${unique()}-${old}`;
  await db
    .collection('recusAnnuels')
    .doc(corrected)
    .set({
      ...seeded,
      donateur: corrected.slice(0, -5),
      numero: `${old}-00007`,
      montant: 6500,
      mensualites: ['in_a', 'in_b', 'in_c'],
      annule: `${old}-00003`,
      recusAnnules: [{ numero: `${old}-00003`, date: cancelledOn, motif: 'remboursement' }],
    });
  await db
    .collection('recusAnnuels')
    .doc(cancelled)
    .set({
      ...seeded,
      nom: cancelledName,
      donateur: cancelled.slice(0, -5),
      numero: '',
      montant: 0,
      mensualites: [],
      annule: `${old}-00004`,
      recusAnnules: [{ numero: `${old}-00004`, date: cancelledOn, motif: 'litige' }],
    });
  await signIn(page, 'tresorerie@demo.test');
  await page.goto(`/espace/dons?annee=${old}`);
  const table = page.getByRole('region', { name: /reçus annuels, par numéro/ });
  const correctedRow = table.getByRole('row', { name: new RegExp(nom) });
  await expect(correctedRow.getByRole('link', { name: `n° ${old}-00007 de ${nom} (PDF)` })).toBeVisible();
  await expect(correctedRow.locator('s')).toHaveText(`${old}-00003`);
  await expect(correctedRow).toContainText(`n° ${old}-00003 annulé`);
  const cancelledRow = table.getByRole('row', { name: new RegExp(cancelledName) });
  await expect(cancelledRow).toContainText('annulé, sans remplacement');
  await expect(cancelledRow.locator('s')).toHaveText(`${old}-00004`);
  await expect(cancelledRow.getByRole('link')).toHaveCount(0);
  // Declared: the valid receipt for what it certifies; the two cancelled numbers counted apart.
  const totals = page.getByRole('region', { name: `Totaux ${old} pour la déclaration des reçus` });
  await expect(totals.locator('dt:has-text("Reçus fiscaux émis") + dd')).toHaveText('1');
  await expect(totals.locator('dt:has-text("Montant des reçus émis") + dd')).toHaveText(/^65,00\s€$/);
  await expect(totals.locator('dt:has-text("Reçus annulés") + dd')).toHaveText('2');

  const gone = await page.request.get(`/espace/dons/recu-annuel/${cancelled}`);
  expect(gone.status()).toBe(410);
  expect(await gone.text()).toBe(
    `Le paiement des dons mensuels de ${old} a été contesté et rendu par la banque : le reçu annuel n° ` +
      `${old}-00004 est annulé.`,
  );
  const served = await page.request.get(`/espace/dons/recu-annuel/${corrected}`);
  expect(served.status()).toBe(200);
  expect((await served.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expectNoAxeViolationsNarrow(page, 'corrected yearly receipts');
  await lookAt(page, 'recus-annuels-rectifies', { target: table, viewports: VIEWPORTS });
});

test('the treasurer’s home and a ledger with a test gift pass axe at 375 px (a refused cheque: above)', async ({
  page,
}) => {
  // The pages in their plain state, at both widths: espace.spec.ts.
  await page.setViewportSize(VIEWPORTS[0]);
  await seedGift({ livemode: false });
  await signIn(page, 'tresorerie@demo.test');
  await expectNoAxeViolationsNarrow(page, 'the treasurer’s home');
  await lookAt(page, 'espace-tresorerie', { viewports: VIEWPORTS });
  await page.goto(`/espace/dons?annee=${year}`);
  await expectNoAxeViolationsNarrow(page, 'the ledger with a test gift');
  await lookAt(page, 'espace-dons', { viewports: VIEWPORTS });
  await page.goto('/espace/dons/signataire');
  await lookAt(page, 'espace-dons-signataire', { viewports: VIEWPORTS });
  await page.goto('/espace/dons/nouveau');
  await lookAt(page, 'espace-dons-nouveau', { viewports: VIEWPORTS });
});
