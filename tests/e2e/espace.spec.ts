/**
 * The staff space on the built site (dist/ served as Netlify would, signing in on the Firebase Auth emulator of
 * playwright.config.ts with the demo accounts): what each role sees and is refused, anonymous requests, the
 * pre-registrations' follow-up persisting with its deletion date, the CSV export read back, the session cookie,
 * sign-out and role changes revoking sessions, cross-site posts, and axe on every page of the space at 375 and 1280 px
 * (their further states at 375 px).
 */
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { getAuth } from 'firebase-admin/auth';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { DEMO_PASSWORD } from '../../scripts/lib/auth-emulator';
import { adminApp } from '../../src/lib/firebase-app.server';
import { COOKIE, espaceDatabase, newAccount, post, PROJECT, signIn, unique } from './espace-helpers';
import { expectNoAxeViolations, expectNoAxeViolationsNarrow, VIEWPORTS } from './helpers';

let db: Firestore;

test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

/** Writes a pre-registration as the site's endpoint would (plus `extra`), received `daysAgo` days ago; its id. */
async function seedPreRegistration(extra: Record<string, unknown> = {}, daysAgo = 0): Promise<string> {
  const id = `e2e-${unique()}`;
  await db
    .collection('inscripitions')
    .doc(id)
    .set({
      enfantPrenom: 'Léa',
      enfantNom: `Essai-${id}`,
      infos: 'Elle a besoin d’un peu de calme pour se concentrer.',
      parentPrenom: 'Sophie',
      parentNom: 'Martin',
      email: `${id}@exemple.fr`,
      adresse: '3 rue des Lilas',
      postal: '69007',
      ville: 'Lyon',
      pays: 'FR',
      consentement: true,
      date: Timestamp.fromMillis(Date.now() - daysAgo * 86_400_000),
      ...extra,
    });
  return id;
}

const stored = async (id: string) => (await db.collection('inscripitions').doc(id).get()).data();

test.describe('anonymous', () => {
  test('every page and the export redirect to the sign-in page, never the data; posts are refused', async ({
    request,
    baseURL,
  }) => {
    const id = await seedPreRegistration();
    const paths = [
      '/espace',
      '/espace/',
      '/espace/preinscriptions',
      '/espace/preinscriptions?statut=nouvelle',
      `/espace/preinscriptions/${id}`,
      '/espace/preinscriptions/export.csv',
      '/espace/roles',
      '/espace/journal',
      '/espace/acces-refuse',
      '/espace/lettre',
      '/espace/dons',
      '/espace/dons/recu-annuel/e2e-recu-annuel',
      '/ESPACE/Preinscriptions',
    ];
    for (const path of paths) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(303);
      expect(response.headers().location, path).toMatch(/^\/espace\/connexion(\?|$)/);
      expect(response.headers()['cache-control'], path).toBe('no-store');
      expect(response.headers()['x-robots-tag'], path).toBe('noindex, nofollow');
      expect(await response.text(), path).not.toContain(id);
    }
    const forged = await post(request, baseURL!, `/espace/preinscriptions/${id}?_action=admissions.followUp`, {
      statut: 'refusee',
    });
    expect(forged.status()).toBe(403);
    expect(
      await post(request, baseURL!, '/espace/roles?_action=roles.invite', { email: 'a@b.fr', role: 'admin' }).then(
        (r) => r.status(),
      ),
    ).toBe(403);
    expect((await stored(id))?.statut).toBeUndefined();
  });

  test('the sign-in page: French errors that never say whether the account exists, the email kept', async ({
    page,
  }) => {
    const response = await page.goto('/espace/connexion');
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    for (const [email, password] of [
      ['admissions@demo.test', 'pas-le-bon'],
      ['personne@demo.test', DEMO_PASSWORD],
    ]) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Mot de passe').fill(password);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/espace/connexion') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Se connecter' }).click(),
      ]);
      expect(answer.status()).toBe(401);
      await expect(page.getByRole('alert')).toHaveText('Email ou mot de passe incorrect');
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await expect(page.getByLabel('Mot de passe')).toHaveValue('');
    }
    expect((await page.context().cookies()).filter((cookie) => cookie.name === COOKIE)).toEqual([]);
  });
});

test.describe('signed in', () => {
  test('the session cookie: HttpOnly, Secure, SameSite=Strict, 8 hours; back to the page asked for', async ({
    page,
  }) => {
    await page.goto('/espace/preinscriptions?statut=nouvelle');
    await expect(page).toHaveURL(/\/espace\/connexion\?suite=/);
    await page.getByLabel('Email').fill('admissions@demo.test');
    await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/espace\/preinscriptions\?statut=nouvelle$/);
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    const hours = (cookie!.expires - Date.now() / 1000) / 3600;
    expect(hours).toBeGreaterThan(7.9);
    expect(hours).toBeLessThanOrEqual(8);
  });

  test(
    'admissions: the list newest first, a filter, the detail, ' + 'a follow-up that persists with its deletion date',
    async ({ page }) => {
      const older = await seedPreRegistration({}, 3);
      const newer = await seedPreRegistration({}, 1);
      await signIn(page, 'admissions@demo.test');
      await page
        .getByRole('navigation', { name: 'Espace de l’association' })
        .getByRole('link', { name: 'Préinscriptions' })
        .click();
      const names = await page.getByRole('rowheader').allTextContents();
      expect(names.indexOf(`Léa Essai-${newer}`)).toBeGreaterThanOrEqual(0);
      expect(names.indexOf(`Léa Essai-${newer}`)).toBeLessThan(names.indexOf(`Léa Essai-${older}`));
      await expect(page.getByText('Une préinscription est supprimée automatiquement 12 mois après')).toBeVisible();

      await page.getByRole('link', { name: `Léa Essai-${older}` }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Préinscription de Léa Essai-${older}`);
      await expect(page.getByText('Elle a besoin d’un peu de calme pour se concentrer.')).toBeVisible();
      await page.getByLabel('Statut').selectOption({ label: 'Visite prévue' });
      await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
      await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
      expect(await stored(older)).toMatchObject({ statut: 'visite-prevue', modifiePar: 'admissions@demo.test' });
      expect(await stored(older)).toMatchObject({ dateDecision: null, dateSuppression: null });

      await page.reload();
      await expect(page.getByLabel('Statut')).toHaveValue('visite-prevue');

      await page.getByLabel('Statut').selectOption({ label: 'Acceptée' });
      await page.getByLabel('Date de la décision').fill('2026-01-31');
      await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
      await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
      await expect(page.getByText('31 janvier 2027')).toBeVisible();
      const decided = await stored(older);
      expect(decided?.statut).toBe('acceptee');
      expect((decided?.dateDecision as Timestamp).toDate().toISOString()).toBe('2026-01-31T12:00:00.000Z');
      expect((decided?.dateSuppression as Timestamp).toDate().toISOString()).toBe('2027-01-31T12:00:00.000Z');

      await page.goto('/espace/preinscriptions?statut=acceptee');
      await expect(page.getByRole('link', { name: 'Acceptée', exact: false }).first()).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(page.getByRole('rowheader', { name: `Léa Essai-${older}` })).toBeVisible();
      await expect(page.getByRole('rowheader', { name: `Léa Essai-${newer}` })).toHaveCount(0);

      // Another decision with the date field as shown (the acceptance's): decided today, deleted 12 months from today.
      await page.goto(`/espace/preinscriptions/${older}`);
      await expect(page.locator('#dateDecision-aide')).toHaveText(
        'Pour « Acceptée », « Liste d’attente » et « Refusée » : la date du jour si vous la laissez vide, ou si ' +
          'vous passez à une autre décision sans changer la date affichée. Ignorée pour les autres statuts.',
      );
      await expect(page.getByLabel('Date de la décision')).toHaveValue('2026-01-31');
      await page.getByLabel('Statut').selectOption({ label: 'Refusée' });
      await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
      await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
      await expect(page.getByLabel('Date de la décision')).toHaveValue(today);
      const redecided = await stored(older);
      expect(redecided?.statut).toBe('refusee');
      const decidedAt = (redecided?.dateDecision as Timestamp).toMillis();
      expect(Math.abs(decidedAt - Date.now())).toBeLessThan(120_000);
      const deletion = new Date(decidedAt);
      deletion.setUTCFullYear(deletion.getUTCFullYear() + 1);
      expect((redecided?.dateSuppression as Timestamp).toMillis()).toBe(deletion.getTime());

      // Back to a status without a decision: no deletion date any more.
      await page.goto(`/espace/preinscriptions/${older}`);
      await page.getByLabel('Statut').selectOption({ label: 'Contactée' });
      await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
      await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
      expect(await stored(older)).toMatchObject({ statut: 'contactee', dateDecision: null, dateSuppression: null });
    },
  );

  test('a date of decision in the future is refused in French, and nothing is written', async ({ page }) => {
    const id = await seedPreRegistration();
    await signIn(page, 'admissions@demo.test');
    await page.goto(`/espace/preinscriptions/${id}`);
    await page.getByLabel('Statut').selectOption({ label: 'Refusée' });
    await page.getByLabel('Date de la décision').evaluate((input: HTMLInputElement) => input.removeAttribute('max'));
    await page.getByLabel('Date de la décision').fill('2999-01-01');
    await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Merci de saisir une date valide (jj/mm/aaaa), au plus tard aujourd’hui',
    );
    await expect(page.getByLabel('Statut')).toHaveValue('refusee');
    expect((await stored(id))?.statut).toBeUndefined();
  });

  test('the CSV export, read back with a CSV parser: BOM, « ; », formulas neutralised, accents, line breaks', async ({
    page,
  }) => {
    const id = await seedPreRegistration({
      enfantPrenom: '=HYPERLINK("http://x.example","clic")',
      parentPrenom: '@SUM(A1:A2)',
      parentNom: '-2+3',
      adresse: '12 rue de l’Église\nBâtiment B; 2e étage',
      ville: 'Saint-Étienne',
      notes: '+33 6 12 34 56 78\t"rappeler"',
      telephone: '+33698765432',
      infos: 'Information de santé : ne doit pas sortir de l’espace',
    });
    // A request the site mailed a reference for: staff find it under that reference, not the document id.
    await seedPreRegistration({ enfantPrenom: 'Noé', reference: '4829 1375' });
    await signIn(page, 'admissions@demo.test');
    await page.goto('/espace/preinscriptions');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exporter tout en CSV (tableur)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^preinscriptions-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).not.toContain('Information de santé');
    expect(text).not.toContain('rappeler');
    // The phone stays in the space: the desk calls from there.
    expect(text).not.toContain('98765432');
    const rows: Record<string, string>[] = parse(text, { bom: true, delimiter: ';', columns: true });
    const row = rows.find((candidate) => candidate['Référence'] === id);
    expect(row).toMatchObject({
      'Prénom de l’enfant': '\'=HYPERLINK("http://x.example","clic")',
      'Prénom du parent': "'@SUM(A1:A2)",
      'Nom du parent': "'-2+3",
      Adresse: '12 rue de l’Église\nBâtiment B; 2e étage',
      Ville: 'Saint-Étienne',
      Statut: 'Nouvelle',
    });
    expect(Object.keys(row!)).not.toContain('Quelques mots');
    expect(Object.keys(row!)).not.toContain('Notes de l’équipe');
    await expect(page.getByText('L’export ne contient ni ce que les parents disent de leur enfant')).toHaveText(
      'L’export ne contient ni ce que les parents disent de leur enfant, ni leur téléphone, ni les appels et notes ' +
        'de l’équipe : ces informations, parfois de santé, restent dans l’espace.',
    );
    expect(rows.find((candidate) => candidate['Référence'] === '4829 1375')).toMatchObject({
      'Prénom de l’enfant': 'Noé',
    });
  });

  // The treasurer's yearly receipt of a monthly donor (a PDF with the donor's name and address).
  const YEARLY_RECEIPT = '/espace/dons/recu-annuel/e2e-recu-annuel';

  /** Each path answers the 403 page to the signed-in `page`, never the data of pre-registration `id`. */
  async function expectRefused(page: Page, id: string, paths: string[]): Promise<void> {
    for (const path of paths) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      const body = await response.text();
      expect(body, path).toContain('Cette page n’est pas accessible avec votre rôle.');
      expect(body, path).not.toContain(id);
      expect(body, path).not.toContain('Sophie');
    }
  }

  test('admissions: roles, the access log and the yearly receipts refused', async ({ page }) => {
    const id = await seedPreRegistration();
    await signIn(page, 'admissions@demo.test');
    await expectRefused(page, id, ['/espace/roles', '/espace/journal', YEARLY_RECEIPT]);
  });

  for (const email of ['edition@demo.test', 'tresorerie@demo.test']) {
    test(
      `${email.split('@')[0]}: the home without personal data; ` + 'pre-registrations, export, roles and log refused',
      async ({ page, baseURL }) => {
        const id = await seedPreRegistration();
        await signIn(page, email);
        await expect(page.locator('body')).not.toContainText('Essai-');
        await expect(page.getByRole('link', { name: 'Préinscriptions' })).toHaveCount(0);
        await expectRefused(page, id, [
          '/espace/preinscriptions',
          `/espace/preinscriptions/${id}`,
          '/espace/preinscriptions/export.csv',
          '/espace/roles',
          '/espace/journal',
          ...(email.startsWith('edition') ? [YEARLY_RECEIPT] : []),
        ]);
        const forged = await post(page.request, baseURL!, `/espace/preinscriptions/${id}?_action=admissions.followUp`, {
          statut: 'refusee',
        });
        expect(forged.status()).toBe(403);
        expect((await stored(id))?.statut).toBeUndefined();
        // The roles' action posted to a page the role opens refuses itself: nobody is invited.
        const invited = `intrus-${unique()}@exemple.fr`;
        const invite = await post(page.request, baseURL!, '/espace?_action=roles.invite', {
          email: invited,
          role: 'admin',
        });
        expect(invite.status()).toBe(403);
        const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: PROJECT }, { emulated: true }));
        await expect(auth.getUserByEmail(invited)).rejects.toMatchObject({ code: 'auth/user-not-found' });
      },
    );
  }

  test('admin: the pre-registrations, the roles and the access log, which names who viewed what', async ({
    browser,
    page,
  }) => {
    const id = await seedPreRegistration({ enfantPrenom: 'Maëlys', enfantNom: `Zed-${unique()}` });
    const admissions = await browser.newPage();
    await signIn(admissions, 'admissions@demo.test');
    await admissions.goto(`/espace/preinscriptions/${id}`);
    await admissions.close();

    await signIn(page, 'admin@demo.test');
    const menu = page.getByRole('navigation', { name: 'Espace de l’association' });
    await expect(menu.getByRole('link')).toHaveText([
      'Accueil',
      'Préinscriptions',
      'Lettre d’information',
      'Dons',
      'Articles',
      'Partenaires',
      'Rubriques',
      'Menus',
      'L’association et ses textes',
      'Publier le site',
      'Rôles',
      'Journal des accès',
    ]);
    await menu.getByRole('link', { name: 'Journal des accès' }).click();
    // The request in words (the child's first name and initial), never its id nor what the family wrote.
    await page.getByLabel('Personne', { exact: true }).selectOption('admissions@demo.test');
    await page.getByLabel('Type d’accès').selectOption({ label: 'Consultation' });
    await page.getByRole('button', { name: 'Filtrer' }).click();
    const rows = page.getByRole('row').filter({ hasText: 'Préinscription de Maëlys Z.' });
    await expect(rows.first()).toContainText('admissions@demo.test');
    await expect(rows.first()).toContainText('Consultation');
    await expect(page.getByRole('table')).not.toContainText(id);
    await expect(page.getByRole('table')).not.toContainText('calme');
    await menu.getByRole('link', { name: 'Rôles' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: 'edition@demo.test' })).toContainText('Rôles : Édition');
  });

  test('admin: the access log page by page, each entry once, back to the newest', async ({ page }) => {
    test.setTimeout(120_000);
    // 150 entries older than any other test's (2020), each a second apart: the log's last pages.
    const key = unique();
    const batch = db.batch();
    for (let index = 0; index < 150; index++) {
      batch.set(db.collection('espaceJournal').doc(), {
        ...{ uid: 'pagination', qui: `pagination-${key}@exemple.org`, action: 'consultation' },
        ...{
          objet: `essai/${String(index).padStart(3, '0')}`,
          date: Timestamp.fromMillis(Date.UTC(2020, 0, 1) + index * 1000),
        },
      });
    }
    await batch.commit();

    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/journal');
    await expect(page.getByRole('link', { name: 'Les accès les plus récents' })).toHaveCount(0);
    const seen: string[] = [];
    for (let pages = 1; ; pages++) {
      const rows = page.getByRole('row').filter({ hasText: `pagination-${key}` });
      seen.push(...(await rows.locator('td:last-child').allTextContents()));
      expect(await page.getByRole('row').count()).toBeLessThanOrEqual(101);
      const older = page.getByRole('link', { name: 'Accès plus anciens' });
      if ((await older.count()) === 0) break;
      expect(pages).toBeLessThan(50);
      await older.click();
      await expect(page.getByRole('link', { name: 'Les accès les plus récents' })).toBeVisible();
    }
    // Newest first, every entry once, none skipped at a page's edge.
    expect(seen).toEqual(Array.from({ length: 150 }, (_, index) => `essai/${String(149 - index).padStart(3, '0')}`));
    await page.getByRole('link', { name: 'Les accès les plus récents' }).click();
    await expect(page.getByRole('table')).toHaveAccessibleName(/^Accès aux données personnelles/);
  });

  test('on a phone the menu is folded under the current section’s name, the page first; Enter unfolds it', async ({
    browser,
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/dons');
    const menu = page.getByRole('navigation', { name: 'Espace de l’association' });
    const fold = menu.locator('summary');
    await expect(fold).toHaveText(/^Menu de l’espace\s:\sDons$/);
    await expect(menu.getByRole('link', { name: 'Articles' })).toBeHidden();
    // Twelve sections unfolded would push the page's title some 250 px further down.
    expect((await page.getByRole('heading', { level: 1 }).boundingBox())?.y).toBeLessThan(300);
    await fold.focus();
    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: 'Articles' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles');
    await expect(fold).toHaveText(/^Menu de l’espace\s:\sArticles$/);

    // The treasurer's two sections fit in a row: never folded.
    const treasurer = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await signIn(treasurer, 'tresorerie@demo.test');
    const few = treasurer.getByRole('navigation', { name: 'Espace de l’association' });
    await expect(few.getByRole('link')).toHaveText(['Accueil', 'Dons']);
    await expect(few.getByRole('link', { name: 'Dons' })).toBeVisible();
    await expect(few.locator('summary')).toBeHidden();
    await treasurer.close();
  });

  test('a role given by an admin applies at once: the person’s session ends, the new role opens its section', async ({
    browser,
    page,
  }) => {
    const email = `benevole-${unique()}@demo.test`;
    const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: PROJECT }, { emulated: true }));
    const user = await auth.createUser({ email, password: DEMO_PASSWORD });
    await auth.setCustomUserClaims(user.uid, { roles: ['edition'] });
    const volunteer = await browser.newPage();
    await signIn(volunteer, email);
    // Revocation counts in whole seconds from the sign-in.
    await volunteer.waitForTimeout(1100);

    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/roles');
    await page.getByLabel(/^Email de la personne/).fill(email);
    await page.getByLabel(/^Rôle/).selectOption({ label: 'Admissions' });
    await page.getByRole('button', { name: 'Inviter' }).click();
    await expect(page.getByRole('status')).toContainText(`Rôle « Admissions » donné à ${email}.`);
    await expect(page.getByRole('listitem').filter({ hasText: email })).toContainText('Rôles : Admissions, Édition');

    await volunteer.goto('/espace/preinscriptions');
    await expect(volunteer).toHaveURL(/\/espace\/connexion\?suite=%2Fespace%2Fpreinscriptions&avis=expiree$/);
    await expect(volunteer.getByRole('status')).toHaveText('Votre session a pris fin. Merci de vous reconnecter.');
    await volunteer.getByLabel('Email').fill(email);
    await volunteer.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
    await volunteer.getByRole('button', { name: 'Se connecter' }).click();
    await expect(volunteer.getByRole('heading', { level: 1 })).toHaveText('Préinscriptions');
    await volunteer.close();
  });

  test('sign-out revokes the session: the old cookie opens nothing any more', async ({ page, playwright, baseURL }) => {
    // Not a demo account: signing out ends every session of the account, the other tests' included.
    await signIn(page, await newAccount('admissions'));
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === COOKIE);
    await page.waitForTimeout(1100);
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page).toHaveURL(/\/espace\/connexion\?avis=sortie$/);
    await expect(page.getByRole('status')).toHaveText('Vous êtes déconnecté.');
    expect((await page.context().cookies()).filter((c) => c.name === COOKIE)).toEqual([]);
    // The stolen copy of the cookie, replayed.
    const replay = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { cookie: `${COOKIE}=${cookie!.value}` },
    });
    const response = await replay.get('/espace/preinscriptions', { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(response.headers().location).toContain('/espace/connexion');
    await replay.dispose();
  });

  test('a cross-site form post changes nothing (Origin check; SameSite=Strict keeps the cookie home)', async ({
    page,
    baseURL,
  }) => {
    const id = await seedPreRegistration();
    await signIn(page, 'admissions@demo.test');
    // A page of another site posting to ours, in the signed-in browser.
    await page.goto('about:blank');
    await page.setContent(
      `<form method="post" action="${baseURL}/espace/preinscriptions/${id}?_action=admissions.followUp">` +
        '<input name="statut" value="refusee"><input name="notes" value="piégé"><button>Envoyer</button></form>',
    );
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/espace/preinscriptions/${id}?_action=admissions.followUp`)),
      page.getByRole('button', { name: 'Envoyer' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    // The same with the cookie forced in, from another origin.
    const [cookie] = (await page.context().cookies(baseURL)).filter((c) => c.name === COOKIE);
    const forged = await page.request.post(`/espace/preinscriptions/${id}?_action=admissions.followUp`, {
      form: { statut: 'refusee', notes: 'piégé' },
      headers: { origin: 'https://malveillant.example', cookie: `${COOKIE}=${cookie!.value}` },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await stored(id)).not.toHaveProperty('statut');
  });
});

test.describe('accessibility', () => {
  // Each page of the space (a template) in its plain state at both widths; each further state once, at 375 px, here
  // and in the specs that reach it (docs/testing.md, « Browser tests »).
  // The pages by subject, so that the two workers share them: each group signs in as the bureau (`admin`), which
  // opens every page, after writing the pre-registration and the article its pages may show.
  const groups: { subject: string; paths: (seed: { id: string; article: string }) => string[] }[] = [
    {
      subject: 'sign-in, home, pre-registrations, roles, journal, account',
      paths: ({ id }) => [
        '/espace',
        '/espace/preinscriptions',
        `/espace/preinscriptions/${id}`,
        '/espace/roles',
        '/espace/journal',
        '/espace/compte',
      ],
    },
    {
      subject: 'newsletter and donations',
      paths: () => [
        '/espace/lettre',
        '/espace/lettre/nouvelle',
        '/espace/dons',
        '/espace/dons/nouveau',
        '/espace/dons/signataire',
      ],
    },
    {
      subject: 'articles, partners, categories',
      paths: ({ article }) => [
        '/espace/articles',
        '/espace/articles/nouveau',
        `/espace/articles/${article}/apercu`,
        '/espace/partenaires',
        '/espace/partenaires/nouveau',
        '/espace/categories',
        '/espace/categories/actualites',
      ],
    },
    {
      subject: 'menus, association, publication',
      paths: () => ['/espace/menus', '/espace/menus/principal', '/espace/association', '/espace/publication'],
    },
  ];
  for (const viewport of VIEWPORTS) {
    for (const [index, { subject, paths }] of groups.entries()) {
      test(`every page of the space passes axe at ${viewport.width} px: ${subject}`, async ({ page }) => {
        test.setTimeout(180_000);
        await page.setViewportSize(viewport);
        const id = await seedPreRegistration({ notes: 'Première visite faite.' });
        const article = `e2e-axe-${unique()}`;
        // Complete, as the pull accepts it: another spec publishes the whole collection meanwhile.
        await db.collection('articles').doc(article).set({
          slug: article,
          cat: 'actualites',
          titre: 'Une sortie au parc',
          date: 1_795_000_000,
          intro: '<p>Une belle journée.</p>',
          contenu: '<p>Pique-nique puis jeux.</p>',
          img: '',
        });
        // A menu with a link to list (its page shows its links), unless stored already.
        const menu = db.collection('menus').doc('principal');
        if (!(await menu.get()).exists)
          await menu.set({ liens: [{ titre: 'Accueil', href: '/', statut: true, ordre: '1' }] });
        // The editors' forms once their editor has loaded, as a volunteer uses them.
        const editors: Record<string, string> = {
          '/espace/articles/nouveau': 'Mise en forme : Texte complet',
          '/espace/lettre/nouvelle': 'Mise en forme : Texte de la lettre',
        };
        const check = async (path: string) => {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          if (editors[path]) await expect(page.getByRole('toolbar', { name: editors[path] })).toBeVisible();
          await expectNoAxeViolations(page, `${path} at ${viewport.width} px`);
        };
        if (index === 0) {
          for (const path of ['/espace/connexion', '/espace/connexion/lien', '/espace/session-terminee']) {
            await check(path);
          }
        }
        await signIn(page, 'admin@demo.test');
        for (const path of paths({ id, article })) await check(path);
        if (index === 0) {
          // The refusal page, as another account in this browser sees it (sign-out is tested above).
          await page.context().clearCookies();
          await signIn(page, 'edition@demo.test');
          await check('/espace/preinscriptions');
        }
      });
    }
  }

  test('the sign-in error, a filtered list, a saved follow-up, a refused invitation, edition’s home at 375 px', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(VIEWPORTS[0]);
    const id = await seedPreRegistration({ notes: 'Première visite faite.' });
    await page.goto('/espace/connexion');
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByLabel('Mot de passe').fill('faux');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoAxeViolationsNarrow(page, 'connexion error');
    await signIn(page, 'admin@demo.test');
    await page.goto('/espace/preinscriptions?statut=refusee');
    await expectNoAxeViolationsNarrow(page, 'the pre-registrations refused');
    await page.goto(`/espace/preinscriptions/${id}`);
    await page.getByRole('button', { name: 'Enregistrer le suivi' }).click();
    await expect(page.getByRole('status')).toHaveText('Modifications enregistrées.');
    await expectNoAxeViolationsNarrow(page, 'detail saved');
    await page.goto('/espace/roles');
    await page.getByLabel(/^Email de la personne/).fill('pas-une-adresse');
    await page.getByLabel(/^Rôle/).selectOption({ label: 'Trésorerie' });
    await page.getByRole('button', { name: 'Inviter' }).click();
    await expect(page.getByRole('alert')).toHaveText('Merci de saisir une adresse email valide');
    await expectNoAxeViolationsNarrow(page, 'roles error');
    // Another account in this browser: the home shows each role only its own news.
    await page.context().clearCookies();
    await signIn(page, 'edition@demo.test');
    await expectNoAxeViolationsNarrow(page, 'edition home');
  });
});
