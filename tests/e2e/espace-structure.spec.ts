/**
 * The site's structure edited in the staff space by `edition`, on the built site (playwright.config.ts): a category's
 * title and description (refused empty, restored from its history); its article order and a menu's links reordered
 * with the keyboard (focus kept, a polite announcement), saved, read back from Firestore and published by the pull;
 * the association's identity and a page text; a partner; a change of each undone from its history; refusals in
 * French with nothing written; other roles refused. Axe at 375 px on each further state (each page in its plain
 * state at both widths: espace.spec.ts).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Firestore } from 'firebase-admin/firestore';
import { pullContent } from '../../scripts/lib/pull';
import { connectFirestore } from '../../src/lib/firestore.server';
import { espaceDatabase, historyRows, PROJECT, restoreNewest, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS } from './helpers';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';

let db: Firestore;

test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

/** The space's navigation. */
const nav = (page: Page) => page.getByRole('navigation', { name: 'Espace de l’association' });

/** Resolves once the reorder lists are enhanced (their custom element defined): before that, Enter posts the form. */
const reorderEnhanced = (page: Page) => page.waitForFunction(() => customElements.get('reorder-list') !== undefined);

/** The accessible name of the focused element. */
const focusedName = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.replace(/\s+/g, ' ').trim());

/** Runs the pull against the built site's Firestore into a temporary root; that root's published `name` JSON. */
async function published(name: string): Promise<Record<string, Record<string, unknown>>> {
  const root = await mkdtemp(join(tmpdir(), 'structure-pull-'));
  try {
    await mkdir(join(root, 'src/data'), { recursive: true });
    const [host, port] = [`127.0.0.1`, Number(process.env.E2E_FIRESTORE_PORT)];
    await pullContent({
      connect: () =>
        connectFirestore({ projectId: PROJECT, apiKey: 'e2e', emulator: { host, port }, host: `${host}:${port}` }),
      host: `${host}:${port}`,
      root,
      log: () => {},
    });
    return JSON.parse(await readFile(join(root, `src/data/${name}.json`), 'utf8'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** What the pull needs to publish anything (menus principal and pied, an article), unless stored already. */
async function ensureMenus(): Promise<void> {
  await db.collection('articles').doc('e2e-structure').set({ cat: 'actualites', titre: 'Une actualité' });
  for (const id of ['principal', 'pied']) {
    const ref = db.collection('menus').doc(id);
    if (!(await ref.get()).exists)
      await ref.set({ liens: [{ titre: 'Accueil', href: '/', statut: true, ordre: '1' }] });
  }
}

test('edition reorders a category’s articles with the keyboard; the order is saved and published', async ({ page }) => {
  const key = unique();
  const ids = ['un', 'deux', 'trois'].map((word) => `e2e-${key}-${word}`);
  const titles = ['Projet pédagogique', 'Une journée', 'L’équipe'];
  for (const [index, id] of ids.entries()) {
    await db
      .collection('articles')
      .doc(id)
      .set({
        slug: id,
        cat: 'ecole',
        titre: titles[index],
        intro: '',
        contenu: '',
        date: String(1_700_000_000 + index),
      });
  }
  await db.collection('categories').doc('ecole').set({ titre: 'L’école', descr: '', articles: ids });
  await ensureMenus();

  await signIn(page, 'edition@demo.test');
  await nav(page).getByRole('link', { name: 'Rubriques' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rubriques');
  await page.getByRole('link', { name: 'L’école' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rubrique : L’école');

  const list = page.getByRole('list', { name: 'Articles de « L’école », dans l’ordre du site' });
  const mine = async () =>
    (await list.getByRole('listitem').allInnerTexts()).flatMap((text) =>
      titles.filter((title) => text.includes(title)),
    );
  await expect.poll(mine).toEqual(titles);

  // « Descendre » on the first, with the keyboard: it moves, the same button keeps the focus, the move is announced.
  await reorderEnhanced(page);
  await page.getByRole('button', { name: 'Descendre « Projet pédagogique »' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(mine).toEqual(['Une journée', 'Projet pédagogique', 'L’équipe']);
  expect(await focusedName(page)).toBe('Descendre « Projet pédagogique »');
  const live = page.locator('[aria-live="polite"]');
  await expect(live).toContainText('« Projet pédagogique » : position 2 sur');
  await expect(live).toContainText('Ordre pas encore enregistré');
  // Then « Monter » on the last with the space bar.
  await page.getByRole('button', { name: 'Monter « L’équipe »' }).focus();
  await page.keyboard.press('Space');
  await expect.poll(mine).toEqual(['Une journée', 'L’équipe', 'Projet pédagogique']);
  expect(await focusedName(page)).toBe('Monter « L’équipe »');
  await expectNoAxeViolationsNarrow(page, '/espace/categories/ecole, moved, not saved');

  await page.getByRole('button', { name: 'Enregistrer l’ordre' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Ordre enregistré. Il sera en ligne à la prochaine publication.');
  await expect.poll(mine).toEqual(['Une journée', 'L’équipe', 'Projet pédagogique']);
  const stored = (await db.collection('categories').doc('ecole').get()).data()!;
  expect((stored.articles as string[]).filter((id) => ids.includes(id))).toEqual([ids[1], ids[2], ids[0]]);
  expect(stored.titre).toBe('L’école');
  // The history records who changed it and the previous order.
  const history = await db.collection('historique').where('objet', '==', 'categories/ecole').get();
  expect(history.docs.some((entry) => entry.get('qui') === 'edition@demo.test')).toBe(true);

  // Published: the pull accepts it whole, in that order.
  const categories = await published('categories');
  expect((categories.ecole!.articles as string[]).filter((id) => ids.includes(id))).toEqual([ids[1], ids[2], ids[0]]);
});

test('edition changes a category’s title and description, is refused an empty title, restores the title', async ({
  page,
}) => {
  await db
    .collection('categories')
    .doc('asso')
    .set({ titre: 'L’association', descr: 'Qui sommes-nous ?', articles: ['e2e-ordre-garde'] });
  await ensureMenus();
  const entries = async () =>
    (await db.collection('historique').where('objet', '==', 'categories/asso').get()).docs.map((entry) => entry.data());
  const before = (await entries()).length;
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/categories/asso');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rubrique : L’association');
  const titre = page.getByRole('textbox', { name: 'Titre' });
  const descr = page.getByRole('textbox', { name: 'Description' });
  await expect(titre).toHaveValue('L’association');
  await expect(descr).toHaveValue('Qui sommes-nous ?');

  // Only spaces (which `required` lets through): the pull's schema refuses it in French, nothing is written.
  await titre.fill('   ');
  await descr.fill('Des parents et des enseignants.');
  await page.getByRole('button', { name: 'Enregistrer le titre et la description' }).click();
  const summary = page.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('La rubrique n’a pas été enregistrée');
  await expect(summary.getByRole('listitem')).toHaveText(['Titre : Son titre est vide']);
  await expect(titre).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#titre-erreur')).toHaveText('Son titre est vide');
  await expect(descr).toHaveValue('Des parents et des enseignants.');
  expect((await db.collection('categories').doc('asso').get()).get('titre')).toBe('L’association');
  expect(await entries()).toHaveLength(before);
  await expectNoAxeViolationsNarrow(page, '/espace/categories/asso, empty title refused');
  await lookAt(page, 'categorie', { viewports: VIEWPORTS });

  await titre.fill('Qui nous sommes');
  await page.getByRole('button', { name: 'Enregistrer le titre et la description' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rubrique : Qui nous sommes');
  // Stored in the console's shape, the order kept; the history holds who and the version before.
  expect((await db.collection('categories').doc('asso').get()).data()).toEqual({
    titre: 'Qui nous sommes',
    descr: 'Des parents et des enseignants.',
    articles: ['e2e-ordre-garde'],
  });
  const change = (await entries()).find(
    (entry) => entry.action === 'modification' && entry.avant?.titre === 'L’association',
  );
  expect(change).toMatchObject({ qui: 'edition@demo.test', avant: { descr: 'Qui sommes-nous ?' } });
  const rows = historyRows(page);
  await expect(rows.nth(1)).toContainText('edition@demo.test');
  await expect(rows.nth(1)).toContainText('Modification');
  await expectNoAxeViolationsNarrow(page, '/espace/categories/asso with its history');

  await restoreNewest(page);
  await expect(titre).toHaveValue('L’association');
  await expect(descr).toHaveValue('Qui sommes-nous ?');
  expect((await db.collection('categories').doc('asso').get()).get('titre')).toBe('L’association');
  expect((await entries()).filter((entry) => entry.action === 'restauration')).not.toHaveLength(0);
  // Published: the pull takes the restored title.
  expect((await published('categories')).asso).toMatchObject({ titre: 'L’association', descr: 'Qui sommes-nous ?' });
});

test('a move without JavaScript shows the list moved, not saved; a list changed meanwhile is refused', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await db.collection('categories').doc('accueil').set({ titre: 'Accueil', descr: '', articles: '' });
  const key = unique();
  for (const [index, word] of ['alpha', 'beta'].entries()) {
    await db
      .collection('articles')
      .doc(`e2e-${key}-${word}`)
      .set({ cat: 'accueil', titre: `Carte ${word} ${key}`, date: 1_700_000_000 + index });
  }
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/categories/accueil');
  const items = page.getByRole('list', { name: /Articles de « Accueil »/ }).getByRole('listitem');
  const order = async () =>
    (await items.allInnerTexts()).flatMap((text) =>
      /Carte (\w+) /.exec(text)?.[1] ? [/Carte (\w+) /.exec(text)![1]] : [],
    );
  await expect.poll(order).toEqual(['beta', 'alpha']);
  await page.getByRole('button', { name: `Descendre « Carte beta ${key} »` }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Ordre modifié, pas encore enregistré : cliquez sur « Enregistrer l’ordre ».',
  );
  await expect.poll(order).toEqual(['alpha', 'beta']);
  // The page comes back at the moved item (its fragment), where the next Tab starts.
  expect(new URL(page.url()).hash).toMatch(/^#ordre-articles-e2e-.+-beta$/);
  // Someone adds an article meanwhile: saving the shown list is refused, nothing written.
  await db
    .collection('articles')
    .doc(`e2e-${key}-gamma`)
    .set({ cat: 'accueil', titre: `Carte gamma ${key}` });
  await page.getByRole('button', { name: 'Enregistrer l’ordre' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'La liste a changé depuis l’ouverture de la page (un article ajouté ou supprimé) : voici la liste à jour, rien ' +
      'n’a été enregistré.',
  );
  expect((await db.collection('categories').doc('accueil').get()).get('articles')).toBe('');
  await context.close();
});

test('a menu’s links and sub-links moved without JavaScript, then saved; a deletion asks for its confirmation', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const link = (titre: string, ordre: string, children: Record<string, unknown>[] = []) => ({
    titre,
    href: `/${titre.toLowerCase()}`,
    statut: true,
    ordre,
    children,
  });
  await db
    .collection('menus')
    .doc('pied')
    .set({
      liens: [
        link('Accueil', '1'),
        link('Contact', '2', [link('Plan', '1'), link('Mentions', '2')]),
        link('Soutenir', '3'),
      ],
    });
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/menus/pied');
  const titles = (name: RegExp) =>
    page
      .getByRole('list', { name })
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.querySelector('.reorder__label')?.textContent));
  await page.getByRole('button', { name: 'Monter « Soutenir »' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Ordre modifié, pas encore enregistré : cliquez sur « Enregistrer l’ordre ».',
  );
  expect(await titles(/^Liens du pied de page/)).toEqual(['Accueil', 'Soutenir', 'Contact']);
  expect(new URL(page.url()).hash).toBe('#ordre-liens-2');
  await page.getByRole('button', { name: 'Enregistrer l’ordre' }).click();
  await expect(page.getByRole('status')).toHaveText('Ordre enregistré. Il sera en ligne à la prochaine publication.');
  const stored = async () => (await db.collection('menus').doc('pied').get()).get('liens') as Record<string, unknown>[];
  expect((await stored()).map((each) => each.titre)).toEqual(['Accueil', 'Soutenir', 'Contact']);

  // A link's sub-links, on its own form (`?lien=2`, Contact's new place): the page stays on that link.
  await page.goto('/espace/menus/pied?lien=2');
  await page.getByRole('button', { name: 'Descendre « Plan »' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Ordre modifié, pas encore enregistré : cliquez sur « Enregistrer l’ordre ».',
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Modifier « Contact »');
  expect(await titles(/^Sous-liens de « Contact »/)).toEqual(['Mentions', 'Plan']);
  await page.getByRole('button', { name: 'Enregistrer l’ordre des sous-liens' }).click();
  await expect(page).toHaveURL(/\/espace\/menus\/pied\?lien=2&enregistre=ordre#sous-liens$/);
  expect(((await stored())[2]!.children as Record<string, unknown>[]).map((each) => [each.titre, each.ordre])).toEqual([
    ['Mentions', '1'],
    ['Plan', '2'],
  ]);

  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByRole('alert')).toHaveText('Merci de confirmer la suppression.');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Modifier « Contact »');
  await page.getByLabel('Je confirme : supprimer ce lien et ses 2 sous-liens').check();
  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByRole('status')).toHaveText('Supprimé. Le site le retirera à la prochaine publication.');
  expect((await stored()).map((each) => each.titre)).toEqual(['Accueil', 'Soutenir']);
  await context.close();
});

test('edition reorders a menu with the keyboard, edits a link, and is refused a smuggled javascript: address', async ({
  page,
}) => {
  await db
    .collection('menus')
    .doc('reseaux')
    .set({
      liens: [
        { titre: 'Facebook', href: 'https://facebook.example', target: '_blank', statut: true, ordre: '1' },
        { titre: 'Instagram', href: 'https://instagram.example', target: '_blank', statut: 'true', ordre: '2' },
        { titre: 'LinkedIn', href: 'https://linkedin.example', target: '', statut: 'false', ordre: '3' },
      ],
    });
  await ensureMenus();
  await signIn(page, 'edition@demo.test');
  await nav(page).getByRole('link', { name: 'Menus', exact: true }).click();
  await page.getByRole('link', { name: 'Réseaux sociaux' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Réseaux sociaux');

  await reorderEnhanced(page);
  await page.getByRole('button', { name: 'Monter « LinkedIn »' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  expect(await focusedName(page)).toBe('Monter « LinkedIn »');
  await expect(page.locator('[aria-live="polite"]')).toContainText('« LinkedIn » : position 1 sur 3.');
  await page.keyboard.press('Enter');
  await expect(page.locator('[aria-live="polite"]')).toHaveText('« LinkedIn » est déjà tout en haut.');
  await page.getByRole('button', { name: 'Enregistrer l’ordre' }).click();
  await expect(page.getByRole('status')).toHaveText('Ordre enregistré. Il sera en ligne à la prochaine publication.');
  const liens = (await db.collection('menus').doc('reseaux').get()).get('liens') as Record<string, unknown>[];
  expect(liens.map((link) => [link.titre, link.ordre])).toEqual([
    ['LinkedIn', '1'],
    ['Facebook', '2'],
    ['Instagram', '3'],
  ]);
  // The console's fields stay as they were (statut "false" as text, target '').
  expect(liens[0]).toMatchObject({ statut: 'false', target: '' });

  // A link's form: make LinkedIn visible and open in a new tab.
  await page.getByRole('link', { name: 'LinkedIn (modifier)' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Modifier « LinkedIn »');
  await expectNoAxeViolationsNarrow(page, 'a link’s form');
  await page.getByLabel('Visible sur le site').check();
  await page.getByLabel('Ouvrir dans un nouvel onglet').check();
  await page.getByRole('button', { name: 'Enregistrer le lien' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  const linkedin = ((await db.collection('menus').doc('reseaux').get()).get('liens') as Record<string, unknown>[])[0];
  expect(linkedin).toMatchObject({ titre: 'LinkedIn', statut: true, target: '_blank', ordre: '1' });

  // Refused: a javascript: address with a tab inside (a browser drops it), in the pull's words, next to the field;
  // nothing written.
  const before = (await db.collection('menus').doc('reseaux').get()).updateTime;
  await page.goto('/espace/menus/reseaux?lien=nouveau');
  await page.getByLabel('Titre').fill('Piège');
  await page.getByLabel('Adresse', { exact: true }).fill('java\tscript:alert(1)');
  await page.getByRole('button', { name: 'Enregistrer le lien' }).click();
  const summary = page.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('Le lien n’a pas été enregistré');
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Adresse' })).toHaveAttribute('href', '#href');
  await expect(page.getByLabel('Adresse', { exact: true })).toHaveAccessibleDescription(
    /Son adresse \(href\) n’est pas un lien autorisé : écrivez une adresse https:\/\/…, mailto:…, tel:… ou \/page/,
  );
  await expect(page.getByLabel('Titre')).toHaveValue('Piège');
  await expectNoAxeViolationsNarrow(page, 'a link refused');
  expect((await db.collection('menus').doc('reseaux').get()).updateTime?.isEqual(before!)).toBe(true);

  const menus = await published('menus');
  expect((menus.reseaux!.liens as { titre: string }[]).map((link) => link.titre)).toEqual([
    'LinkedIn',
    'Facebook',
    'Instagram',
  ]);

  // The link's change undone from the menu's history: LinkedIn hidden again, in its new place.
  await page.goto('/espace/menus/reseaux');
  await restoreNewest(page);
  const restored = (await db.collection('menus').doc('reseaux').get()).get('liens') as Record<string, unknown>[];
  expect(restored[0]).toMatchObject({ titre: 'LinkedIn', statut: 'false', target: '', ordre: '1' });
  await expectNoAxeViolationsNarrow(page, '/espace/menus/reseaux with its history');

  // A pictogram sent from the computer, like an article's picture: stored by the site, its address in the link.
  const icon = await sharp({
    create: { width: 96, height: 96, channels: 4, background: { r: 30, g: 90, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer();
  await page.goto('/espace/menus/reseaux?lien=nouveau');
  await page.getByLabel('Adresse', { exact: true }).fill('https://www.instagram.com/ecole');
  await page
    .getByLabel('Envoyer un pictogramme (facultatif)')
    .setInputFiles({ name: 'instagram.png', mimeType: 'image/png', buffer: icon });
  await page.getByLabel('Description du pictogramme').fill('Instagram');
  await page.getByRole('button', { name: 'Enregistrer le lien' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  const instagram = ((await db.collection('menus').doc('reseaux').get()).get('liens') as Record<string, unknown>[]).at(
    -1,
  );
  expect(instagram).toMatchObject({ href: 'https://www.instagram.com/ecole', picto: { alt: 'Instagram' } });
  expect((instagram?.picto as { src: string }).src).toMatch(/\/medias\/[\w-]+\.png$/);
});

test('edition changes the association’s identity and a page text; both are published', async ({ page }) => {
  await ensureMenus();
  await signIn(page, 'edition@demo.test');
  await nav(page).getByRole('link', { name: 'L’association et ses textes' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('L’association et ses textes');

  const identity = page.getByRole('form', { name: 'Nom et coordonnées' });
  await identity.getByLabel('Nom de l’association').fill('Association E2E des Tilleuls');
  await identity.getByLabel('Adresse postale').fill('Maison des Tilleuls\n3 place du Marché\n69003 Lyon');
  await identity.getByLabel('Téléphones et emails').fill('Accueil : 04 00 00 00 01\nContact : bonjour[at]exemple.org');
  await identity.getByRole('button', { name: 'Enregistrer le nom et les coordonnées' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  const adresse = (await db.collection('articles').doc('adresse').get()).data()!;
  expect(adresse).toMatchObject({
    titre: 'Association E2E des Tilleuls',
    intro: 'Maison des Tilleuls\n3 place du Marché\n69003 Lyon',
    contenu: 'Accueil : 04 00 00 00 01\nContact : bonjour[at]exemple.org',
    slug: 'adresse',
  });

  const texts = page.getByRole('form', { name: 'Reçus fiscaux et textes des pages' });
  await texts.getByLabel('Objet de l’association').fill('Gérer une école inclusive de quartier.');
  await texts.getByLabel('Numéros d’enregistrement').fill('RNA W691234567');
  await texts.getByLabel('Signataire des reçus').fill('Marie Dupont, présidente');
  await texts
    .getByLabel('Horaires du secrétariat (page Contact)')
    .fill('Le secrétariat répond le mardi de 9 h à 12 h.');
  await texts.getByRole('button', { name: 'Enregistrer les textes' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  await expect(page.getByLabel('Horaires du secrétariat (page Contact)')).toHaveValue(
    'Le secrétariat répond le mardi de 9 h à 12 h.',
  );

  // Refused: a text past its limit, in French, what was typed kept, nothing written.
  const site = db.collection('association').doc('site');
  const before = (await site.get()).updateTime!;
  await page.getByLabel('Signataire des reçus').fill('M'.repeat(201));
  await page.getByRole('button', { name: 'Enregistrer les textes' }).click();
  const summary = page.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('Rien n’a été enregistré');
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Signataire des reçus' })).toHaveAttribute('href', '#signataire');
  await expect(page.getByLabel('Signataire des reçus')).toHaveAccessibleDescription(
    /Le nom du signataire des reçus est trop long \(200 caractères au plus\)/,
  );
  await expect(page.getByLabel('Signataire des reçus')).toHaveValue('M'.repeat(201));
  await expectNoAxeViolationsNarrow(page, '/espace/association, refused');
  expect((await site.get()).updateTime!.isEqual(before)).toBe(true);
  // An empty name is refused too.
  await page.goto('/espace/association');
  await page.getByLabel('Nom de l’association').fill(' ');
  await page.getByRole('button', { name: 'Enregistrer le nom et les coordonnées' }).click();
  await expect(page.getByLabel('Nom de l’association')).toHaveAccessibleDescription(/Son titre est vide/);

  // The texts' last change undone from the page's history, which names the form each change was made in.
  await page.goto('/espace/association');
  await page.getByLabel('Horaires du secrétariat (page Contact)').fill('Le secrétariat répond le jeudi.');
  await page.getByRole('button', { name: 'Enregistrer les textes' }).click();
  const history = historyRows(page);
  await expect(history.nth(1)).toContainText('Modification (reçus fiscaux et textes)');
  await restoreNewest(page, /Rétablir la version d’avant \(modification \(reçus fiscaux et textes\)/);
  await expect(page.getByLabel('Horaires du secrétariat (page Contact)')).toHaveValue(
    'Le secrétariat répond le mardi de 9 h à 12 h.',
  );
  await expectNoAxeViolationsNarrow(page, '/espace/association with its history');

  const association = await published('association');
  expect(association.site).toMatchObject({
    objet: 'Gérer une école inclusive de quartier.',
    enregistrement: 'RNA W691234567',
    signataire: 'Marie Dupont, présidente',
    horaires: 'Le secrétariat répond le mardi de 9 h à 12 h.',
  });
  const articles = await published('articles');
  expect(articles.adresse).toMatchObject({ titre: 'Association E2E des Tilleuls' });
});

test('edition adds a partner; a logo without its description is refused; then deletes it', async ({ page }) => {
  const name = `Librairie ${unique()}`;
  await signIn(page, 'edition@demo.test');
  await nav(page).getByRole('link', { name: 'Partenaires' }).click();
  await page.getByRole('link', { name: 'Ajouter un partenaire' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nouveau partenaire');
  await page.getByLabel('Nom').fill(name);
  await page.getByLabel('Quelques mots').fill('Elle offre les livres de la bibliothèque de classe.');
  await page.getByLabel('Partenaire depuis (facultatif)').fill('2025-09-01');
  await page.getByLabel('Adresse du logo').fill('/contenu/partenaires/librairie.svg');
  await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
  await expect(page.getByLabel('Description du logo')).toHaveAccessibleDescription(/Décrivez le logo en quelques mots/);
  await expect(page.getByLabel('Nom')).toHaveValue(name);
  // The refusals summed up above the form, focused, each line leading to its field.
  const summary = page.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('Le partenaire n’a pas été enregistré');
  await expect(summary).toBeFocused();
  await expect(page).toHaveTitle(/^Erreur · Nouveau partenaire/);
  await expect(summary.getByRole('link', { name: 'Description du logo' })).toHaveAttribute('href', '#logoAlt');
  await expectNoAxeViolationsNarrow(page, 'a partner refused');
  const id = name.toLowerCase().replace(/ /g, '-');
  expect((await db.collection('partenaires').doc(id).get()).exists).toBe(false);

  await page.getByLabel('Description du logo').fill(`Logo de la ${name}`);
  await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
  await expect(page).toHaveURL(new RegExp(`/espace/partenaires/${id}\\?enregistre$`));
  expect((await db.collection('partenaires').doc(id).get()).data()).toEqual({
    slug: id,
    cat: 'partenaires',
    titre: name,
    intro: 'Elle offre les livres de la bibliothèque de classe.',
    contenu: '',
    date: Date.UTC(2025, 8, 1) / 1000,
    img: { src: '/contenu/partenaires/librairie.svg', alt: `Logo de la ${name}` },
    imgContenu: { src: '' },
    picto: { src: '', alt: '' },
  });
  // The same identifier again is refused.
  await page.goto('/espace/partenaires/nouveau');
  await page.getByLabel('Nom').fill(name);
  await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
  await expect(page.getByLabel('Identifiant (facultatif)')).toHaveAccessibleDescription(
    /Un partenaire porte déjà cet identifiant/,
  );

  // A change undone from the partner's history.
  await page.goto(`/espace/partenaires/${id}`);
  await page.getByLabel('Nom').fill(`${name} et Fils`);
  await page.getByRole('button', { name: 'Enregistrer le partenaire' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Modifications enregistrées. Elles seront en ligne à la prochaine publication.',
  );
  const history = historyRows(page);
  await expect(history.nth(1)).toContainText('Modification');
  await expect(history.nth(2)).toContainText('Aucune (création)');
  await expectNoAxeViolationsNarrow(page, 'a partner with its history');
  await restoreNewest(page);
  await expect(page.getByLabel('Nom')).toHaveValue(name);
  expect((await db.collection('partenaires').doc(id).get()).get('titre')).toBe(name);

  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByRole('alert')).toHaveText('Merci de confirmer la suppression.');
  await page.getByLabel('Je confirme : supprimer ce partenaire').check();
  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByRole('status')).toHaveText('Supprimé. Le site le retirera à la prochaine publication.');
  expect((await db.collection('partenaires').doc(id).get()).exists).toBe(false);
});

test('a partner’s form under attack: French refusals, nothing written; a post past the size limit said in French', async ({
  page,
  baseURL,
}) => {
  await signIn(page, 'edition@demo.test');
  /** What the page says, without tags, after posting `titre` as a new partner under `id`. */
  const post = async (titre: string, id: string) => {
    const answer = await page.request.post('/espace/partenaires/nouveau?_action=partners.save', {
      headers: { origin: baseURL! },
      form: { id, titre, intro: 'Une boulangerie du quartier.', date: '' },
      maxRedirects: 0,
    });
    const html = await answer.text();
    return { status: answer.status(), html, text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ') };
  };
  for (const [titre, message] of [
    ['x'.repeat(60_000), 'Ce champ est trop long (200 caractères au plus)'],
    ['Boulangerie\u0000Dupont', 'caractère invisible interdit'],
    ['Boulangerie \u202eexe.cod', 'caractère invisible interdit'],
  ]) {
    const id = `attaque-${unique()}`;
    const answer = await post(titre!, id);
    expect(answer.status, message).toBe(400);
    expect(answer.text).toContain(message);
    expect(answer.text).toContain('Le partenaire n’a pas été enregistré');
    expect(answer.html).not.toContain('\u0000');
    expect((await db.collection('partenaires').doc(id).get()).exists).toBe(false);
    expect((await db.collection('historique').where('documentId', '==', id).get()).size).toBe(0);
  }
  const id = `boulangerie-${unique()}`;
  expect((await post('Boulangerie Dupont', id)).status).toBe(303);
  expect((await db.collection('partenaires').doc(id).get()).get('titre')).toBe('Boulangerie Dupont');

  // A 30 MB logo: refused past the limit, before it is read whole, in the articles' words.
  const heavy = await page.request.post('/espace/partenaires/nouveau?_action=partners.save', {
    headers: { origin: baseURL! },
    multipart: {
      titre: 'Trop lourd',
      logoFichier: { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.alloc(30 * 1024 * 1024) },
    },
    maxRedirects: 0,
  });
  expect(heavy.status()).toBe(413);
  expect(await heavy.text()).toContain(ARTICLE_MESSAGES.bodyTooLarge);
  expect((await db.collection('partenaires').doc('trop-lourd').get()).exists).toBe(false);
});

test('other roles: no structure section in the menu, every page refused', async ({ page }) => {
  await signIn(page, 'tresorerie@demo.test');
  await expect(nav(page).getByRole('link', { name: 'Menus', exact: true })).toHaveCount(0);
  for (const path of [
    '/espace/menus/principal',
    '/espace/categories/ecole',
    '/espace/partenaires',
    '/espace/association',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accès refusé');
  }
});

test('a role without the section is refused the structure forms posted from a page it may open', async ({
  page,
  baseURL,
}) => {
  await signIn(page, 'tresorerie@demo.test');
  const adresse = db.collection('articles').doc('adresse');
  const before = (await adresse.get()).updateTime?.toMillis();
  const refusals = async () =>
    (await db.collection('espaceJournal').where('qui', '==', 'tresorerie@demo.test').get()).docs.filter(
      (entry) => entry.get('action') === 'refus' && entry.get('objet') === '/espace',
    ).length;
  const logged = await refusals();
  const partner = `refus-${unique()}`;
  // Every action can be posted to any page: from the space's home, which every role opens, each checks its own section.
  for (const [action, form] of [
    ['association.identity', { nom: 'Détournée', adresse: '', contacts: '', version: '0' }],
    ['partners.save', { titre: 'Détourné', id: partner, version: '0' }],
    ['menus.link', { titre: 'Détourné', href: '/', lien: 'nouveau', version: '0' }],
  ] as const) {
    const answer = await page.request.post(`/espace?_action=${action}`, {
      headers: { origin: baseURL! },
      form,
      maxRedirects: 0,
    });
    expect(answer.status(), action).toBe(403);
  }
  // Straight to Astro's endpoint, the refusal is said in French.
  const direct = await page.request.post('/_actions/partners.save', {
    headers: { origin: baseURL! },
    form: { titre: 'Détourné', id: partner, version: '0' },
  });
  expect(direct.status()).toBe(403);
  expect(await direct.text()).toContain('Cette page n’est pas accessible avec votre rôle.');
  expect((await adresse.get()).updateTime?.toMillis()).toBe(before);
  expect((await db.collection('partenaires').doc(partner).get()).exists).toBe(false);
  expect(await refusals()).toBe(logged + 3);
});

test('a role without the categories is refused their form action, wherever it posts it; nothing is written', async ({
  page,
  baseURL,
}) => {
  await db.collection('categories').doc('actualites').set({ titre: 'Actualités', descr: '', articles: [] });
  await signIn(page, 'admissions@demo.test');
  const post = (path: string) =>
    page.request.post(path, {
      form: { titre: 'Détourné', descr: '', version: '0' },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
  // Posted to a page the role opens (its account page, which then answers as it would): the action refuses it and
  // the access log says who tried.
  const before = await db.collection('espaceJournal').where('qui', '==', 'admissions@demo.test').get();
  await post('/espace/compte?_action=categories.text');
  // Posted to Astro's own action address (no page, no session guard): refused in French.
  const direct = await post('/_actions/categories.text');
  expect(direct.status()).toBe(403);
  expect(await direct.json()).toMatchObject({ message: 'Cette page n’est pas accessible avec votre rôle.' });
  expect((await db.collection('categories').doc('actualites').get()).get('titre')).toBe('Actualités');
  const after = await db.collection('espaceJournal').where('qui', '==', 'admissions@demo.test').get();
  const refusals = after.docs.filter((entry) => !before.docs.some((old) => old.id === entry.id));
  expect(refusals.map((entry) => [entry.get('action'), entry.get('objet')])).toEqual([['refus', '/espace/compte']]);
});
