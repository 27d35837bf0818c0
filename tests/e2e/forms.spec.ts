/**
 * The two forms end to end, as a visitor uses them: the newsletter popup on
 * the home page and the pre-registration form on /ecole, with JavaScript and
 * without, through the real endpoints (the built Netlify function) into the
 * embedded Firestore emulator that the test server started (E2E_FIRESTORE).
 */
import { expect, test, type Page } from '@playwright/test';
import { collection, getDocsFromServer, query, where } from 'firebase/firestore';
import { connectFirestore } from '../../src/lib/firestore.server';
import { newsletterConsent, storedConsent } from '../fixtures/submissions';
import { MESSAGES } from '../../src/features/forms/form-rules';
import { expectNoAxeViolations, openPreRegistration, VIEWPORTS } from './helpers';

/** The emulator of playwright.config.ts's web server. */
const E2E_FIRESTORE = {
  projectId: 'demo-e2e',
  apiKey: 'e2e',
  emulator: { host: '127.0.0.1', port: Number(process.env.E2E_FIRESTORE_PORT) },
  host: `127.0.0.1:${process.env.E2E_FIRESTORE_PORT}`,
};

/** Documents of `name` whose email is `email`, read from the server (one client per read). */
async function documentsWithEmail(name: string, email: string): Promise<Record<string, unknown>[]> {
  const connection = connectFirestore(E2E_FIRESTORE);
  try {
    const snapshot = await getDocsFromServer(query(collection(connection.db, name), where('email', '==', email)));
    return snapshot.docs.map((document) => document.data());
  } finally {
    await connection.close();
  }
}

function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;
}

const banner = (page: Page) => page.locator('#message-banner');

async function openNewsletter(page: Page) {
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'S’inscrire à la lettre d’information' });
  // The island hydrates at the visitor's first act on it (client:interaction): the pointer over the opener.
  await opener.hover();
  await page.locator('astro-island:has(.newsletter__open):not([ssr])').waitFor({ state: 'attached' });
  await opener.click();
  return page.getByRole('dialog', { name: 'Lettre d’information' });
}

test.describe('newsletter popup', () => {
  // Spec §5 « On newsletter success the message is 'Votre email a bien été enregistré, merci pour votre soutien.' »
  // (beyond §5: the double opt-in's sentence follows); §7 « add to newsletter, payload email, consentement ».
  test('subscribes: the document is in the database, the confirmation stays after the banner has gone', async ({
    page,
  }) => {
    const email = uniqueEmail('lettre');
    const dialog = await openNewsletter(page);
    await expect(dialog).toBeVisible();
    const field = dialog.getByLabel(/Votre email/);
    await expect(field).toBeFocused();
    await field.fill(email);
    await dialog.getByLabel(/J’accepte/).check();
    const label =
      (await dialog.getByLabel(/J’accepte/).evaluate((box) => (box as HTMLInputElement).labels?.[0]?.textContent)) ??
      '';
    await dialog.getByRole('button', { name: 'M’inscrire' }).click();

    const message =
      'Votre email a bien été enregistré, merci pour votre soutien. ' +
      'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.';
    await expect(banner(page)).toHaveText(message);
    // One announcement: the focused confirmation is read; the banner only shows it (its text is aria-hidden).
    const confirmation = dialog.locator('.confirmation');
    await expect(confirmation).toBeFocused();
    await expect(confirmation).toMatchAriaSnapshot(`
      - heading "Plus qu’une étape" [level=3]
      - paragraph: Votre email a bien été enregistré, merci pour votre soutien.
      - paragraph: Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.
      - button "Fermer"
    `);
    await expect(banner(page).locator('p')).toHaveAttribute('aria-hidden', 'true');

    const documents = await documentsWithEmail('newsletter', email);
    expect(documents).toHaveLength(1);
    expect(Object.keys(documents[0] ?? {}).sort()).toEqual([
      'confirmationEnvoyeeLe',
      'confirmationHash',
      'consentement',
      'consentementTexte',
      'consentementVersion',
      'date',
      'desinscriptionJeton',
      'email',
      'statut',
    ]);
    // Proof of consent: the wording the visitor saw next to the box, and its version.
    expect(documents[0]).toMatchObject({ email, ...storedConsent('newsletter') });
    expect(label).toContain(String(documents[0]?.consentementTexte));

    // The banner goes (spec §9's 4 s are measured in tests/e2e/specification.spec.ts); the confirmation stays.
    await expect(banner(page)).toHaveText('', { timeout: 15_000 });
    await expect(confirmation).toBeVisible();
    await confirmation.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'S’inscrire à la lettre d’information' })).toBeFocused();
  });

  // Spec §5 « Otherwise the message is 'L'email ne semble pas correct, pouvez-vous le vérifier ?' », « Otherwise the
  // message is 'Votre consentement est obligatoire pour vous inscrire' », « The form shows 'Merci de saisir un email
  // valide' for an invalid email » (beyond §5: a summary that takes the focus, each problem a link). The button
  // disabled while the form is invalid: tests/components/NewsletterPopup.test.tsx.
  test('sums up what is wrong in the dialog and ties each error to its field', async ({ page }) => {
    const dialog = await openNewsletter(page);
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    const field = dialog.getByLabel(/Votre email/);
    const submit = dialog.getByRole('button', { name: 'M’inscrire' });
    await field.fill('marie@exemple');
    await field.press('Enter');
    await expect(banner(page)).toHaveText("L'email ne semble pas correct, pouvez-vous le vérifier ?");
    const summary = dialog.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary).toMatchAriaSnapshot(`
      - heading "Il y a un problème" [level=3]
      - list:
        - listitem:
          - link "L'email ne semble pas correct, pouvez-vous le vérifier ?"
        - listitem:
          - link "Votre consentement est obligatoire pour vous inscrire"
    `);
    expect(await page.title()).toMatch(/^Erreur : /);
    await expect(field).toHaveAccessibleDescription('Merci de saisir un email valide');
    const consent = dialog.getByLabel(/J’accepte/);
    await expect(consent).toHaveAttribute('aria-invalid', 'true');
    await expect(consent).toHaveAccessibleDescription('Votre consentement est obligatoire pour vous inscrire');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    // A state of the page: once, at 375 px (docs/testing.md, « Browser tests »).
    await page.setViewportSize(VIEWPORTS[0]);
    await expectNoAxeViolations(page, `newsletter popup with its error summary at ${VIEWPORTS[0].width} px`);
    await summary.getByRole('link', { name: /consentement/ }).click();
    await expect(consent).toBeFocused();

    const email = uniqueEmail('sans-consentement');
    await field.fill(email);
    await expect(field).not.toHaveAttribute('aria-invalid');
    // Playwright waits for an aria-disabled button to be enabled: `force` presses it as a person can.
    await submit.click({ force: true });
    await expect(summary.getByRole('link')).toHaveText(['Votre consentement est obligatoire pour vous inscrire']);
    await expect(banner(page)).toHaveText('Votre consentement est obligatoire pour vous inscrire');
    // Past the banner's 4 s the error is still by its box.
    await expect(banner(page)).toHaveText('', { timeout: 6000 });
    await expect(consent).toHaveAccessibleDescription('Votre consentement est obligatoire pour vous inscrire');
    expect(await documentsWithEmail('newsletter', email)).toHaveLength(0);
    expect(posts).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'S’inscrire à la lettre d’information' })).toBeFocused();
    expect(await page.title()).not.toMatch(/^Erreur/);
  });

  test('a tap outside closes the dialog', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const dialog = await openNewsletter(page);
    await expect(dialog).toBeVisible();
    await page.mouse.click(4, 4);
    await expect(dialog).toBeHidden();
  });
});

/** Fills the pre-registration form with a valid entry. */
async function fillPreRegistration(page: Page, email: string) {
  const form = page.locator('#preinscription');
  await form.getByLabel(/Prénom de l’enfant/).fill('Léa');
  await form.getByLabel(/Nom de l’enfant/).fill('Martin');
  await form.getByLabel(/Quelques mots/).fill('Elle adore dessiner et a besoin de pauses calmes.');
  await form.getByLabel(/Votre prénom/).fill('Sophie');
  await form.getByLabel(/Votre nom/).fill('Martin');
  await form.getByLabel(/Votre email/).fill(email);
  await form.getByLabel('Adresse', { exact: true }).fill('3 rue des Lilas');
  await form.getByLabel('Code postal').fill('69007');
  await form.getByLabel('Ville').fill('Lyon');
  await form.getByLabel('Pays').selectOption('BE');
  await form.getByLabel(/J’accepte/).check();
}

test.describe('pre-registration form', () => {
  // Spec §7 « add to inscripitions (spelled so) »: the fields of §3, success shows 'Vous avez été inscrit'.
  test("registers: 'Vous avez été inscrit' and the document in inscripitions", async ({ page }) => {
    const email = uniqueEmail('inscription');
    await openPreRegistration(page);
    await fillPreRegistration(page, email);
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(banner(page)).toHaveText('Vous avez été inscrit');
    const documents = await documentsWithEmail('inscripitions', email);
    expect(documents).toHaveLength(1);
    // The confirmation stays, focused, with the reference the acknowledgement mail carries.
    const panel = page.locator('#preinscription astro-island .confirmation');
    await expect(panel).toBeFocused();
    await expect(panel).toMatchAriaSnapshot(`
      - heading "Pré-inscription reçue" [level=3]
      - paragraph:
        - text: "Votre numéro de référence :"
        - strong: "${String(documents[0]?.reference)}"
      - paragraph:
        - strong: Vous avez été inscrit.
        - text: "${MESSAGES.preRegistrationIsRequest} Nous vous recontactons sous quinze jours."
      - heading "Et maintenant ?" [level=4]
      - list:
        - listitem: Nous vous envoyons un email avec votre numéro de référence.
        - listitem: L’équipe des admissions lit votre demande.
        - listitem: Elle vous recontacte pour convenir d’une rencontre avec vous et votre enfant.
        - listitem: Après cette rencontre, elle vous dit si une place peut vous être proposée.
      - button "Pré-inscrire un autre enfant"
    `);
    await expect(banner(page)).toHaveText('', { timeout: 6000 });
    await expect(panel).toBeVisible();
    expect(documents[0]).toMatchObject({
      enfantPrenom: 'Léa',
      enfantNom: 'Martin',
      infos: 'Elle adore dessiner et a besoin de pauses calmes.',
      parentPrenom: 'Sophie',
      parentNom: 'Martin',
      email,
      adresse: '3 rue des Lilas',
      postal: '69007',
      ville: 'Lyon',
      pays: 'BE',
      ...storedConsent('preinscription'),
    });
    expect(Object.keys(documents[0] ?? {})).toContain('date');
  });

  test('takes a 60-letter first name (characters, not UTF-16 units), refuses 61 and an emoji', async ({ page }) => {
    const email = uniqueEmail('emoji');
    // U+20000, a CJK ideograph: one letter, two UTF-16 units.
    const letter = '\u{20000}';
    const notAName =
      'Écrivez seulement un nom : des lettres, des espaces, des traits d’union ou des apostrophes ' +
      '(60 caractères au plus)';
    await openPreRegistration(page);
    await fillPreRegistration(page, email);
    const child = page.getByLabel(/Prénom de l’enfant/);
    for (const refused of [letter.repeat(61), 'Léa 🙂']) {
      await child.fill(refused);
      await expect(child).toHaveValue(refused);
      await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
      await expect(child).toHaveAccessibleDescription(notAName);
    }
    await child.fill(letter.repeat(60));
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(banner(page)).toHaveText('Vous avez été inscrit');
    const documents = await documentsWithEmail('inscripitions', email);
    expect(documents.map((document) => document.enfantPrenom)).toEqual([letter.repeat(60)]);
  });

  // Spec §5 « Pre-registration: the consent checkbox is required ».
  test('sums up every error in a focused summary, shows each next to its field, passes axe in that state', async ({
    page,
  }) => {
    await openPreRegistration(page);
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    const summary = page.locator('#preinscription .error-summary');
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('heading', { level: 3 })).toHaveText('Il y a un problème');
    await expect(summary.getByRole('link')).toHaveText([
      'Merci d’indiquer le prénom de votre enfant',
      'Merci d’indiquer le nom de votre enfant',
      'Merci d’indiquer votre prénom',
      'Merci d’indiquer votre nom',
      'Merci de saisir un email valide',
      'Votre consentement est obligatoire pour pré-inscrire votre enfant',
    ]);
    expect(await page.title()).toMatch(/^Erreur : /);
    const child = page.getByLabel(/Prénom de l’enfant/);
    await summary.getByRole('link', { name: 'Merci d’indiquer le prénom de votre enfant' }).click();
    await expect(child).toBeFocused();
    await expect(child).toHaveAccessibleDescription('Merci d’indiquer le prénom de votre enfant');
    await expect(page.getByLabel(/J’accepte/)).toHaveAccessibleDescription(
      'Votre consentement est obligatoire pour pré-inscrire votre enfant',
    );
    await expect(page.getByLabel(/J’accepte/)).toHaveAttribute('aria-invalid', 'true');
    await expect(banner(page)).toHaveText('Merci d’indiquer le prénom de votre enfant');
    await expectNoAxeViolations(page, '/ecole with every error shown');
  });

  test('a server failure shows its message and every field keeps what the parent typed', async ({ page }) => {
    await page.route('**/api/preinscription', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ ok: false, message: 'Le service est momentanément indisponible.' }),
      }),
    );
    await openPreRegistration(page);
    await fillPreRegistration(page, 'garde@exemple.fr');
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(banner(page)).toHaveText('Le service est momentanément indisponible.');
    await expect(page.locator('#preinscription .error-summary')).toBeFocused();
    await expect(page.locator('#preinscription .error-summary')).toContainText(
      'Le service est momentanément indisponible.',
    );
    await expect(page.getByLabel(/Prénom de l’enfant/)).toHaveValue('Léa');
    await expect(page.getByLabel(/Quelques mots/)).toHaveValue('Elle adore dessiner et a besoin de pauses calmes.');
    await expect(page.getByLabel('Pays')).toHaveValue('BE');
    await expect(page.getByLabel(/J’accepte/)).toBeChecked();
    // Even a reload of the tab keeps the draft.
    await page.reload();
    await expect(page.getByLabel(/Prénom de l’enfant/)).toHaveValue('Léa');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  // Spec §5's rules are checked by the endpoint too: without JavaScript, 'L'email ne semble pas correct, pouvez-vous
  // le vérifier ?' for a bad email, then the success.
  test('the newsletter form posts and the page shows the error, then the success', async ({ page }) => {
    const email = uniqueEmail('sans-js');
    await page.goto('/');
    await page.getByRole('button', { name: 'S’inscrire à la lettre d’information' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
    await expect(dialog.getByRole('button', { name: 'M’inscrire' })).not.toHaveAttribute('aria-disabled');
    await dialog.getByLabel(/Votre email/).fill('a@b');
    await dialog.getByLabel(/J’accepte/).check();
    await dialog.getByRole('button', { name: 'M’inscrire' }).click();
    await expect(page).toHaveURL(/\/#newsletter-email$/);
    await expect(page.locator('#newsletter-email')).toContainText(
      "L'email ne semble pas correct, pouvez-vous le vérifier ?",
    );

    await page.getByRole('button', { name: 'S’inscrire à la lettre d’information' }).click();
    await dialog.getByLabel(/Votre email/).fill(email);
    await dialog.getByLabel(/J’accepte/).check();
    await dialog.getByRole('button', { name: 'M’inscrire' }).click();
    await expect(page).toHaveURL(/\/#newsletter-ok$/);
    await expect(page.locator('#newsletter-ok')).toHaveText(
      'Votre email a bien été enregistré, merci pour votre soutien. ' +
        'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.',
    );
    await expect(page.locator('#newsletter-consentement')).toBeHidden();
    expect(await documentsWithEmail('newsletter', email)).toHaveLength(1);
  });

  test('the pre-registration form posts and the page shows the success', async ({ page }) => {
    const email = uniqueEmail('sans-js-inscription');
    await page.goto('/ecole');
    await fillPreRegistration(page, email);
    await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
    await expect(page).toHaveURL(/\/ecole#preinscription-ok$/);
    await expect(page.locator('#preinscription-ok')).toBeVisible();
    await expect(page.locator('#preinscription-ok h3')).toHaveText('Pré-inscription reçue');
    await expect(page.locator('#preinscription-ok')).toContainText(
      'Vous avez été inscrit. Votre demande de pré-inscription est enregistrée et ne vous engage à rien.',
    );
    const documents = await documentsWithEmail('inscripitions', email);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject(storedConsent('preinscription'));
  });
});

test.describe('the built function', () => {
  test.use({ javaScriptEnabled: false });

  for (const path of ['/api/newsletter/', '/api/%6Eewsletter', '/api//newsletter']) {
    test(`answers 404 to another spelling of the route (${path}) and writes nothing`, async ({ request }) => {
      const email = uniqueEmail('chemin');
      const response = await request.post(path, {
        data: { email, ...newsletterConsent },
      });
      expect(response.status()).toBe(404);
      expect(await documentsWithEmail('newsletter', email)).toEqual([]);
    });
  }
});
