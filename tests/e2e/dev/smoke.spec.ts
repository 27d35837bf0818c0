/**
 * `npm start` as a newcomer gets it (scripts/dev.ts: the embedded demo database and astro dev, started by
 * playwright.config.ts): no Content-Security-Policy, every island of /, /ecole and /soutenir hydrates, the
 * console stays clean, the two forms write their documents into the dev server's embedded Firestore, and the
 * project's caches, env files and credentials are never served.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { collection, getDocsFromServer, query, where } from 'firebase/firestore';
import { connectFirestore } from '../../../src/lib/firestore.server';
import { EMBEDDED_PROJECT_ID } from '../../../scripts/lib/embedded-firestore';
import { validPreRegistration } from '../../fixtures/submissions';
import { watchPage, type PageWatch } from '../helpers';

/** The dev server's embedded emulator (`--firestore-port` in playwright.config.ts). */
const DEV_FIRESTORE = {
  projectId: EMBEDDED_PROJECT_ID,
  apiKey: 'dev-smoke',
  emulator: { host: '127.0.0.1', port: Number(process.env.E2E_DEV_FIRESTORE_PORT) },
  host: `127.0.0.1:${process.env.E2E_DEV_FIRESTORE_PORT}`,
};

/** Documents of `name` whose email is `email`, read from the dev server's database. */
async function documentsWithEmail(name: string, email: string): Promise<Record<string, unknown>[]> {
  const connection = connectFirestore(DEV_FIRESTORE);
  try {
    const snapshot = await getDocsFromServer(query(collection(connection.db, name), where('email', '==', email)));
    return snapshot.docs.map((document) => document.data());
  } finally {
    await connection.close();
  }
}

/** The dev server compiles an endpoint (and the Firestore SDK) on its first request: generous on 2 cores (ms). */
const FIRST_POST_MS = 30_000;

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;

/**
 * watchPage's problems, less requests the browser cancelled (net::ERR_ABORTED): Vite reloads a page
 * once while it finishes bundling dependencies after start-up, cancelling what that page was loading.
 */
function problems(watch: PageWatch): string[] {
  return watch.problems.filter((problem) => !/^request failed: .* net::ERR_ABORTED$/.test(problem));
}

/**
 * Opens `route`, scrolls every island into view (client:visible ones hydrate when seen), acts on each (a pointer over
 * it: client:interaction ones hydrate then) and waits until all have hydrated: no `ssr` attribute left within 10 s.
 */
async function openHydrated(page: Page, route: string): Promise<void> {
  const response = await page.goto(route);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toBeUndefined();
  const islands = await page.locator('astro-island').all();
  expect(islands.length).toBeGreaterThan(0);
  for (const island of islands) {
    await island.scrollIntoViewIfNeeded();
    await island.dispatchEvent('pointerover');
  }
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 10_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

for (const route of ['/', '/ecole', '/soutenir']) {
  test(`${route}: every island hydrates, no Content-Security-Policy, no console error`, async ({ page, baseURL }) => {
    const watch = watchPage(page, baseURL!);
    await openHydrated(page, route);
    expect(problems(watch)).toEqual([]);
  });
}

test('the newsletter popup writes its document', async ({ page, baseURL }) => {
  const watch = watchPage(page, baseURL!);
  const email = uniqueEmail('dev-lettre');
  await openHydrated(page, '/');
  await page.getByRole('button', { name: 'S’inscrire à la lettre d’information' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
  await dialog.getByLabel(/Votre email/).fill(email);
  await dialog.getByLabel(/J’accepte/).check();
  await dialog.getByRole('button', { name: 'M’inscrire' }).click();
  await expect(page.locator('#message-banner')).toHaveText(
    'Votre email a bien été enregistré, merci pour votre soutien. ' +
      'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.',
    { timeout: FIRST_POST_MS },
  );
  const documents = await documentsWithEmail('newsletter', email);
  expect(documents).toHaveLength(1);
  expect(documents[0]).toMatchObject({ email, consentement: true });
  expect(problems(watch)).toEqual([]);
});

test('the pre-registration form writes its document', async ({ page, baseURL }) => {
  const watch = watchPage(page, baseURL!);
  const entry = { ...validPreRegistration, email: uniqueEmail('dev-inscription') };
  await openHydrated(page, '/ecole');
  const form = page.locator('#preinscription');
  await form.getByLabel(/Prénom de l’enfant/).fill(entry.enfantPrenom);
  await form.getByLabel(/Nom de l’enfant/).fill(entry.enfantNom);
  await form.getByLabel(/Quelques mots/).fill(entry.infos);
  await form.getByLabel(/Date de naissance de l’enfant/).fill(entry.enfantNaissance);
  await form.getByLabel(/Classe souhaitée/).selectOption(entry.classeSouhaitee);
  await form.getByLabel(/Votre prénom/).fill(entry.parentPrenom);
  await form.getByLabel(/Votre nom/).fill(entry.parentNom);
  await form.getByLabel(/Votre email/).fill(entry.email);
  await form.getByLabel(/Votre numéro de téléphone/).fill('06 12 34 56 78');
  await form.getByLabel('Adresse', { exact: true }).fill(entry.adresse);
  await form.getByLabel('Code postal').fill(entry.postal);
  await form.getByLabel('Ville').fill(entry.ville);
  await form.getByLabel('Pays').selectOption(entry.pays);
  await form.getByLabel(/J’accepte/).check();
  await page.getByRole('button', { name: 'Inscrire mon enfant' }).click();
  await expect(page.locator('#message-banner')).toHaveText('Vous avez été inscrit', { timeout: FIRST_POST_MS });
  const documents = await documentsWithEmail('inscripitions', entry.email);
  expect(documents).toHaveLength(1);
  expect(documents[0]).toMatchObject(entry);
  expect(problems(watch)).toEqual([]);
});

test('never serves .astro/, env files or credentials from the project', async ({ request }) => {
  // Files that exist while the dev server runs (a service account is written for the test, then removed).
  const credentials = '.astro-smoke-service-account.json';
  writeFileSync(credentials, '{"private_key":"not-a-real-key"}');
  try {
    for (const path of ['/.astro/data-store.json', '/.env.example', `/${credentials}`]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(403);
      expect(await response.text(), path).not.toContain(readFileSync(path.slice(1), 'utf8').slice(0, 40));
    }
  } finally {
    rmSync(credentials, { force: true });
  }
});
