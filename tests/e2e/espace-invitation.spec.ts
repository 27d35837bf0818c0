/**
 * The bureau's accounts on the built site: an admin invites an address with the role « Édition »; the invitation mail
 * (HTML and text) arrives with a sign-in link; the person follows it, lands on « Mon compte », chooses a password and
 * reaches only what the role opens (articles, not the pre-registrations: that refusal is in the access log, in words,
 * found with the log's filters); « Retirer », once confirmed, ends their access. Axe on the states at 375 px (the
 * pages themselves at both widths: espace.spec.ts); screenshots to SCREENSHOTS_DIR when it is set.
 */
import { expect, test, type Page } from '@playwright/test';
import { espaceDatabase, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';

const MAILS = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`;
const PASSWORD = 'une phrase de passe 2026';

/** The mails the test SMTP server received for `email`. */
async function mailsTo(email: string): Promise<{ subject: string; html: string; text: string }[]> {
  const mails = (await (await fetch(MAILS)).json()) as { to: string[]; subject: string; html: string; text: string }[];
  return mails.filter((mail) => mail.to.some((to) => to.includes(email)));
}

/** Invites `email` as « Léa Martin » with `role` from the roles page, and waits for the page's word. */
async function invite(page: Page, email: string, role: string): Promise<void> {
  await page.goto('/espace/roles');
  await page.getByLabel(/^Email de la personne/).fill(email);
  await page.getByLabel('Son nom (facultatif)').fill('Léa Martin');
  await page.getByLabel(/^Rôle/).selectOption({ label: role });
  await page.getByRole('button', { name: 'Inviter' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Invitation envoyée à ${email} avec le rôle « ${role} ». Son lien sert une seule fois, pendant une heure ; ` +
      'ensuite, la personne demande un nouveau lien sur la page de connexion avec cette adresse.',
  );
}

test.beforeAll(async () => {
  await espaceDatabase();
});

test('the bureau invites an editor, who signs in by the mailed link and opens only what « Édition » opens, until « Retirer »', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const email = `invitee-${unique()}@exemple.fr`;
  await signIn(page, 'admin@demo.test');
  await invite(page, email, 'Édition');
  const account = page.getByRole('listitem').filter({ hasText: email });
  await expect(account).toContainText('Léa Martin');
  await expect(account).toContainText('Rôles : Édition');
  await expect(account).toContainText('Pas encore de connexion');

  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await mailsTo(email);
  expect(mail!.subject).toBe('Votre invitation à l’espace de l’association');
  // The plain-text part, its no-break spaces (before « : », inside « ») read as spaces.
  const text = mail!.text.replace(/\u00a0/g, ' ');
  expect(text).toContain('Bonjour Léa Martin,');
  expect(text).toContain('avec le rôle « Édition » : le contenu du site, sans aucune donnée personnelle.');
  expect(text).toContain('Le lien sert une seule fois et reste valable une heure.');
  const href = /href="(https?:\/\/[^"]+\/espace\/connexion\/lien\?[^"]+)"/.exec(mail!.html)![1]!.replace(/&amp;/g, '&');
  const link = new URL(href).pathname + new URL(href).search;

  const invitee = await browser.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Confirmez votre email');
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByRole('button', { name: 'Me connecter' }).click();
  await expect(invitee).toHaveURL(/\/espace\/compte\?bienvenue=1$/);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Mon compte');
  await expect(invitee.getByText('Bienvenue dans l’espace.')).toBeVisible();

  // A password too short is refused in French; then one is chosen, and the session goes on.
  await invitee.getByLabel(/^Nouveau mot de passe/).fill('court');
  await invitee.getByLabel(/^Le même, une seconde fois/).fill('court');
  await invitee.getByRole('button', { name: 'Enregistrer ce mot de passe' }).click();
  await expect(invitee.getByRole('alert')).toHaveText('Le mot de passe doit compter au moins 10 caractères.');
  await invitee.getByLabel(/^Nouveau mot de passe/).fill(PASSWORD);
  await invitee.getByLabel(/^Le même, une seconde fois/).fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Enregistrer ce mot de passe' }).click();
  await expect(invitee.getByRole('status')).toContainText('Mot de passe enregistré.');

  await invitee.goto('/espace/articles');
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Articles');
  const refused = await invitee.goto('/espace/preinscriptions');
  expect(refused?.status()).toBe(403);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Accès refusé');

  // The bureau sees the refusal in the log, with the person's name and the section in words, by person and kind.
  await page.goto('/espace/journal');
  await page.getByLabel('Personne', { exact: true }).selectOption({ label: `Léa Martin (${email})` });
  await page.getByLabel('Type d’accès').selectOption({ label: 'Accès refusé' });
  await page.getByRole('button', { name: 'Filtrer' }).click();
  const rows = page.getByRole('row').filter({ hasText: 'Accès refusé' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`Léa Martin (${email})`);
  await expect(rows).toContainText('Préinscriptions (/espace/preinscriptions)');
  // A day before any entry: nothing.
  await page.getByLabel('Au (inclus)').fill('2020-01-01');
  await page.getByRole('button', { name: 'Filtrer' }).click();
  await expect(page.getByText('Aucun accès ne correspond à ces filtres.')).toBeVisible();

  // The account now shows its last sign-in; « Retirer » asks first, then ends the access.
  await page.goto('/espace/roles');
  await expect(account).toContainText('Dernière connexion :');
  await account.getByRole('button', { name: `Retirer l’accès de ${email}` }).click();
  await expect(page.getByRole('heading', { name: `Retirer l’accès de ${email} ?` })).toBeFocused();
  await page.getByRole('button', { name: 'Oui, retirer son accès' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Accès retiré à ${email} : ses sessions ouvertes sont fermées. Une nouvelle invitation le lui rendra.`,
  );
  await expect(page.getByRole('listitem').filter({ hasText: email })).toHaveCount(0);

  await invitee.goto('/espace/articles');
  await expect(invitee).toHaveURL(/\/espace\/connexion\?suite=%2Fespace%2Farticles/);
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel('Mot de passe').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Se connecter' }).click();
  await expect(invitee.getByRole('alert')).toContainText('Votre compte n’a encore accès à aucune partie de l’espace');
  await invitee.close();
});

test('the roles after an invitation and a removal to confirm, the roles’ journal: axe at 375 px; the mail arrives', async ({
  page,
}) => {
  // Three axe runs and a mail on a busy machine. The pages in their plain state, at both widths: espace.spec.ts.
  test.setTimeout(120_000);
  await page.setViewportSize(VIEWPORTS[0]);
  await signIn(page, 'admin@demo.test');
  const email = `vue-${unique()}@exemple.fr`;
  await invite(page, email, 'Trésorerie');
  await expectNoAxeViolationsNarrow(page, 'roles after an invitation');
  await lookAt(page, 'roles');
  const account = page.getByRole('listitem').filter({ hasText: email });
  await account.getByRole('button', { name: `Retirer l’accès de ${email}` }).click();
  await expectNoAxeViolationsNarrow(page, 'roles confirming');
  await lookAt(page, 'roles-retirer');
  await page.goto('/espace/journal?action=role');
  await expectNoAxeViolationsNarrow(page, 'journal of the roles');
  await lookAt(page, 'journal');
  await page.goto('/espace/compte');
  await lookAt(page, 'compte');
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 30_000 }).toBe(1);
  await page.setContent((await mailsTo(email))[0]!.html);
  await lookAt(page, 'invitation', { viewports: VIEWPORTS });
});
