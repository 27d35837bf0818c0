/**
 * The admissions desk on the built site: a request found by the reference a family quotes (with or without its
 * space), its phone shown to the desk, a call added to its dated log (recorded in the access log), and a status change
 * announced to the family by a mail that carries neither the health notes nor the phone. Axe on the states at 375 px
 * (the pages themselves at both widths: espace.spec.ts).
 */
import { expect, test } from '@playwright/test';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { espaceDatabase, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, VIEWPORTS } from './helpers';

const MAILS = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`;
const HEALTH = 'Épilepsie : traitement le midi.';

let db: Firestore;

test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

/** A fresh reference « dddd dddd » (random: requests of other runs stay in the database). */
const freshReference = () => {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  return `${digits.slice(0, 4)} ${digits.slice(4)}`;
};

/** Writes a request as the site's endpoint would, with a phone and a birth date; its id. */
async function seedRequest(reference: string, extra: Record<string, unknown> = {}): Promise<string> {
  const id = `e2e-guichet-${unique()}`;
  await db
    .collection('inscripitions')
    .doc(id)
    .set({
      enfantPrenom: 'Inès',
      enfantNom: `Guichet-${id}`,
      enfantNaissance: '2020-09-14',
      classeSouhaitee: 'GS',
      infos: HEALTH,
      parentPrenom: 'Karim',
      parentNom: 'Benali',
      email: `${id}@exemple.fr`,
      telephone: '+33612345678',
      adresse: '',
      postal: '',
      ville: 'Lyon',
      pays: 'FR',
      consentement: true,
      reference,
      date: Timestamp.now(),
      ...extra,
    });
  return id;
}

/** The mails the test SMTP server received for `email`. */
async function mailsTo(email: string): Promise<{ subject: string; text: string; html: string }[]> {
  const mails = (await (await fetch(MAILS)).json()) as { to: string[]; subject: string; text: string; html: string }[];
  return mails.filter((mail) => mail.to.some((to) => to.includes(email)));
}

test('the desk finds a request by its reference (with or without its space) and logs a call', async ({ page }) => {
  const reference = freshReference();
  const id = await seedRequest(reference, { notes: 'Premier appel : maman rappellera.' });
  const other = await seedRequest(freshReference());
  await signIn(page, 'admissions@demo.test');
  await page.goto('/espace/preinscriptions');

  // As a parent reads it over the phone: digits without the space.
  await page.getByLabel('Rechercher une demande').fill(reference.replace(' ', ''));
  await page.getByRole('button', { name: 'Rechercher' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${reference.replace(' ', '')}$`));
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('columnheader').first()).toHaveText('Référence');
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(reference);
  await expect(page.getByRole('rowheader', { name: `Inès Guichet-${other}` })).toHaveCount(0);
  // With its space, and by the parent's email, too.
  await page.goto(`/espace/preinscriptions?q=${encodeURIComponent(reference)}`);
  await expect(page.getByRole('rowheader', { name: `Inès Guichet-${id}` })).toBeVisible();
  await page.goto(`/espace/preinscriptions?q=${encodeURIComponent(`${id}@EXEMPLE.fr`)}`);
  await expect(page.getByRole('rowheader')).toHaveText([`Inès Guichet-${id}`]);

  await page.getByRole('link', { name: `Inès Guichet-${id}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Préinscription de Inès Guichet-${id}`);
  await expect(page.getByRole('link', { name: '06 12 34 56 78' })).toHaveAttribute('href', 'tel:+33612345678');
  await expect(page.getByText('14 septembre 2020')).toBeVisible();
  await expect(page.getByText('Grande section')).toBeVisible();
  // The former notes box reads as the log's first entry.
  const log = page.getByRole('region', { name: 'Appels et notes' }).getByRole('listitem');
  await expect(log).toHaveCount(1);
  await expect(log.first()).toContainText('Notes d’avant le journal');
  await expect(log.first()).toContainText('Premier appel : maman rappellera.');

  await page.getByRole('radio', { name: 'Appel' }).check();
  await page.getByLabel('Ce qui a été dit ou fait').fill('Appelé la maman : visite mardi 10 h.\nSalle calme.');
  await page.getByRole('button', { name: 'Ajouter au suivi' }).click();
  await expect(page.getByRole('status')).toHaveText('Entrée ajoutée au suivi.');
  await expect(log).toHaveCount(2);
  await expect(log.nth(1)).toContainText(/^Appel · \d{1,2}(er)? \S+ \d{4} à \d{2}:\d{2} · admissions@demo\.test/);
  await expect(log.nth(1)).toContainText('Appelé la maman : visite mardi 10 h.');
  const stored = (await db.collection('inscripitions').doc(id).get()).data();
  expect(stored?.journal).toEqual([
    {
      date: expect.any(Timestamp),
      auteur: 'admissions@demo.test',
      type: 'appel',
      texte: 'Appelé la maman : visite mardi 10 h.\nSalle calme.',
    },
  ]);
  const access = await db.collection('espaceJournal').where('objet', '==', `inscripitions/${id} (suivi : appel)`).get();
  expect(access.docs.map((entry) => entry.get('qui'))).toEqual(['admissions@demo.test']);

  // An empty entry is refused in French, and nothing is added.
  await page.getByRole('button', { name: 'Ajouter au suivi' }).click();
  await expect(page.getByRole('alert')).toHaveText('Merci d’écrire ce qui a été dit ou fait avant d’ajouter l’entrée.');
  await expect(page.getByLabel('Ce qui a été dit ou fait')).toHaveAttribute('aria-invalid', 'true');
  expect((await db.collection('inscripitions').doc(id).get()).get('journal')).toHaveLength(1);
});

test('a status change the desk chooses to announce reaches the family, without health data nor phone', async ({
  page,
}) => {
  // The mail leaves through the outbox: the page's first try, then the catcher's answer.
  test.setTimeout(120_000);
  const reference = freshReference();
  const id = await seedRequest(reference);
  await signIn(page, 'admissions@demo.test');
  await page.goto(`/espace/preinscriptions/${id}`);
  await page.getByLabel('Statut').selectOption({ label: 'Liste d’attente' });
  await page.getByLabel('Prévenir la famille par email').check();
  await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
  await expect(page.getByRole('status')).toHaveText('Modifications enregistrées. La famille est prévenue par email.');
  await expect.poll(async () => (await mailsTo(`${id}@exemple.fr`)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await mailsTo(`${id}@exemple.fr`);
  expect(mail?.subject).toBe(`La demande d’Inès est sur liste d’attente (référence ${reference})`);
  expect(mail?.text).toContain('Bonjour Karim,');
  expect(mail?.text).toContain('Nous vous recontactons dès qu’une place se libère.');
  expect(mail?.text).toContain(`Votre numéro de référence\u00a0: ${reference.replace(' ', '\u00a0')}`);
  for (const body of [mail?.text ?? '', mail?.html ?? '']) {
    expect(body).not.toContain('Épilepsie');
    expect(body.replace(/\D/g, '')).not.toContain('612345678');
  }
  // Saving again without a change of status sends nothing more.
  await page.getByLabel('Prévenir la famille par email').check();
  await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
  await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
  expect(await mailsTo(`${id}@exemple.fr`)).toHaveLength(1);
});

test('a role without the admissions section posting the log’s action directly is refused, nothing written', async ({
  page,
  baseURL,
}) => {
  const id = await seedRequest(freshReference());
  await signIn(page, 'edition@demo.test');
  const post = (path: string) =>
    page.request.post(path, {
      form: { type: 'note', texte: 'Écrit par qui n’a pas le rôle.' },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
  // To a page the role opens (the action runs in its context), then to Astro's own route of actions.
  expect((await post('/espace?_action=admissions.journal')).status()).toBe(403);
  const direct = await post('/_actions/admissions.journal');
  expect(direct.status()).toBe(403);
  expect(((await direct.json()) as { message: string }).message).toBe(
    'Cette page n’est pas accessible avec votre rôle.',
  );
  expect((await db.collection('inscripitions').doc(id).get()).get('journal')).toBeUndefined();
});

test("the desk's search and a refused log entry pass axe at 375 px", async ({ page }) => {
  const reference = freshReference();
  const id = await seedRequest(reference, {
    journal: [{ date: Timestamp.now(), auteur: 'admissions@demo.test', type: 'note', texte: 'Dossier complet.' }],
  });
  await page.setViewportSize(VIEWPORTS[0]);
  await signIn(page, 'admissions@demo.test');
  await page.goto(`/espace/preinscriptions?q=${encodeURIComponent(reference)}`);
  await expectNoAxeViolationsNarrow(page, 'search');
  await page.goto(`/espace/preinscriptions/${id}`);
  await page.getByRole('button', { name: 'Ajouter au suivi' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoAxeViolationsNarrow(page, 'log refused');
});
