/**
 * Articles in the staff space on the built site (playwright.config.ts), as `edition`: a news article written with the
 * rich-text editor (keyboard toolbar), a date and a phone photo, previewed with the site's components, stored in the
 * original admin's shape; its history and a restore; the refusals (script HTML, a 30 MB file, a file that is not an
 * image, a HEIC photo, a slug already taken), each in French, writing nothing; the publish page's report; the
 * role still refused every personal data; an article the editor cannot hold (a picture, a video) kept in HTML through
 * a save. Axe at 375 px on each state (the pages themselves at both widths: espace.spec.ts). Publishing for real
 * and the article online: tests/e2e/dev/articles.spec.ts (npm start).
 */
import { expect, test, type Page } from '@playwright/test';
import type { Firestore } from 'firebase-admin/firestore';
import { truncate, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { fixturePicture } from '../../scripts/lib/picture-server';
import { ARTICLE_MESSAGES, slugify } from '../../src/features/content/articles/articles';
import { GLOSSARY } from '../../src/features/content/falc/glossary';
import { CONTENT_FILE_POLICY } from '../../src/lib/security-headers';
import { espaceDatabase, historyRows, restoreNewest, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow, lookAt, VIEWPORTS, watchPage } from './helpers';

let db: Firestore;
test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

const article = async (id: string) => (await db.collection('articles').doc(id).get()).data();
const history = async (id: string) =>
  (await db.collection('historique').where('objet', '==', `articles/${id}`).get()).docs.map((entry) => entry.data());

/** Opens the new article's form with its editors loaded. */
async function openNewForm(page: Page): Promise<void> {
  await page.goto('/espace/articles/nouveau');
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
}

test('edition writes a news article with a photo, a date and formatted text, previews it, restores a version', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const watch = watchPage(page, baseURL!);
  await signIn(page, 'edition@demo.test');
  await expect(page.getByRole('navigation', { name: 'Espace de l’association' }).getByRole('link')).toHaveText([
    'Accueil',
    'Articles',
    'Partenaires',
    'Rubriques',
    'Menus',
    'L’association et ses textes',
    'Publier le site',
  ]);
  await page.goto('/espace/articles');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles');
  await page.getByRole('link', { name: 'Écrire un nouvel article' }).click();
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
  // The empty form, like every page of the space in its plain state: espace.spec.ts, at both widths.
  const titre = `Sortie au parc ${unique()}`;
  await page.getByLabel('Titre').fill(titre);
  // The slug follows the title while it was not changed by hand.
  await expect(page.getByLabel('Lien de la page')).toHaveValue(slugify(titre));
  await page.getByLabel('Date de publication').fill('2026-11-20');
  await page.getByRole('textbox', { name: 'Introduction' }).click();
  await page.keyboard.type('Une belle journée ');
  const toolbar = page.getByRole('toolbar', { name: 'Mise en forme : Introduction' });
  await toolbar.getByRole('button', { name: 'Gras' }).click();
  await expect(toolbar.getByRole('button', { name: 'Gras' })).toHaveAttribute('aria-pressed', 'true');
  // TipTap gives the focus back to the text a frame after the click: typing before that would lose letters.
  await expect(page.getByRole('textbox', { name: 'Introduction' })).toBeFocused();
  await page.keyboard.type('au soleil');
  // The toolbar by keyboard: one Tab stop, arrows between its buttons.
  await toolbar.getByRole('button', { name: 'Gras' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(toolbar.getByRole('button', { name: 'Italique' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(toolbar.getByRole('button', { name: 'Refaire' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Texte complet' }).click();
  const textToolbar = page.getByRole('toolbar', { name: 'Mise en forme : Texte complet' });
  await textToolbar.getByRole('button', { name: 'Intertitre', exact: true }).click();
  await expect(textToolbar.getByRole('button', { name: 'Intertitre', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('textbox', { name: 'Texte complet' })).toBeFocused();
  await page.keyboard.type('Le programme');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Pique-nique puis jeux.');
  const photo = await fixturePicture('photo-sortie.jpg');
  const upload = { name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo };
  await page.getByLabel('Photo ou image').setInputFiles(upload);
  await page.getByLabel('Description de l’image').fill('Les enfants devant le lac du parc');
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();

  const id = slugify(titre);
  await expect(page).toHaveURL(new RegExp(`/espace/articles/${id}/apercu\\?enregistre$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titre);
  await expect(page.getByText('Publié le 20 novembre 2026')).toBeVisible();
  await expect(page.locator('.news-article__intro strong')).toHaveText('au soleil');
  await expect(page.getByRole('heading', { level: 2, name: 'Le programme' })).toBeVisible();
  const cover = page.locator('.news-article').getByRole('img', { name: 'Les enfants devant le lac du parc' });
  await expect(cover).toHaveAttribute('src', /^\/medias\/[0-9a-f]{32}\.jpg$/);
  await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  // Its card (home, news list) shows the same picture as its cover.
  await expect(
    page.getByRole('region', { name: 'La carte de l’article' }).getByRole('img', { name: 'Les enfants devant le lac' }),
  ).toHaveClass('cover');
  await expectNoAxeViolationsNarrow(page, 'the preview');

  // Stored in the original admin's shape: seconds, sanitised HTML, the picture's address and its description.
  const stored = await article(id);
  expect(stored).toMatchObject({
    titre,
    slug: id,
    cat: 'actualites',
    date: Date.UTC(2026, 10, 20, 12) / 1000,
    intro: '<p>Une belle journée <strong>au soleil</strong></p>',
    contenu: '<h3>Le programme</h3><p>Pique-nique puis jeux.</p>',
    img: { alt: 'Les enfants devant le lac du parc' },
  });
  expect(stored?.brouillon).toBeUndefined();
  expect(stored?.img.src).toMatch(/^https?:\/\/[^/]+\/medias\/[0-9a-f]{32}\.jpg$/);
  // The picture as served: a JPEG no wider than 2,560 px, without the phone's metadata.
  const served = await page.request.get(new URL(stored?.img.src).pathname);
  expect(served.headers()['content-type']).toBe('image/jpeg');
  expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // Opened by itself, it runs nothing and its type is never guessed.
  expect(served.headers()['content-security-policy']).toBe(CONTENT_FILE_POLICY);
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  const metadata = await sharp(await served.body()).metadata();
  expect([metadata.format, metadata.width! <= 2560, metadata.exif]).toEqual(['jpeg', true, undefined]);

  // A change, then the version before it restored.
  await page.getByRole('link', { name: 'Revenir au formulaire' }).click();
  await page.getByLabel('Titre').fill(`${titre} (modifié)`);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText(ARTICLE_MESSAGES.saved);
  const rows = historyRows(page);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('edition@demo.test');
  await expect(rows.nth(1)).toContainText('Modification');
  await expect(rows.nth(2)).toContainText('Création');
  await expectNoAxeViolationsNarrow(page, 'the saved form with its history');
  await restoreNewest(page);
  await expect(page.getByLabel('Titre')).toHaveValue(titre);
  expect((await article(id))?.titre).toBe(titre);
  expect((await history(id)).map((entry) => entry.action).toSorted()).toEqual([
    'creation',
    'modification',
    'restauration',
  ]);
  // The list: under its category, with its date.
  await page.goto('/espace/articles');
  const news = page.getByRole('region', { name: 'Actualités' });
  await expect(news.getByRole('listitem').filter({ hasText: titre })).toContainText('20 novembre 2026');
  await expectNoAxeViolationsNarrow(page, 'the articles list');
  expect(watch.problems).toEqual([]);
});

test('a pictogram and a picture of the text: what was sent kept through a refusal, then stored and previewed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const pictogram = await sharp({
    create: { width: 160, height: 160, channels: 4, background: { r: 240, g: 170, b: 30, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const inside = await sharp({
    create: { width: 900, height: 600, channels: 3, background: { r: 40, g: 120, b: 140 } },
  })
    .jpeg()
    .toBuffer();
  await signIn(page, 'edition@demo.test');
  await openNewForm(page);
  const titre = `Nos valeurs ${unique()}`;
  const id = slugify(titre);
  await page.getByLabel('Titre').fill(titre);
  await page.getByLabel('Rubrique').selectOption('asso');
  await page.getByRole('textbox', { name: 'Introduction' }).click();
  await page.keyboard.type('Ce qui nous guide.');
  await page.getByRole('textbox', { name: 'Texte complet' }).click();
  await page.keyboard.type('Chaque enfant a sa place dans la classe.');
  const others = page.getByRole('group', { name: 'Autres images (facultatif)' });
  // Two pictures heavier together than one post may carry (Netlify's limit): the heaviest is taken out, nothing sent.
  const padded = (bytes: number) => Buffer.concat([inside, Buffer.alloc(bytes - inside.length)]);
  await page
    .getByLabel('Photo ou image')
    .setInputFiles({ name: 'grande.jpg', mimeType: 'image/jpeg', buffer: padded(3 * 1024 * 1024) });
  await others
    .getByLabel('Image du texte complet')
    .setInputFiles({ name: 'moyenne.jpg', mimeType: 'image/jpeg', buffer: padded(2 * 1024 * 1024) });
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.locator('#image-erreur')).toHaveText(
    ARTICLE_MESSAGES.tooMuchAtOnce(5 * 1024 * 1024, 4 * 1024 * 1024),
  );
  expect(ARTICLE_MESSAGES.tooMuchAtOnce(5 * 1024 * 1024, 4 * 1024 * 1024)).toContain('pèsent ensemble 5 Mo');
  await expect(page.getByLabel('Photo ou image')).toBeFocused();
  await expect(page.getByLabel('Photo ou image')).toHaveValue('');
  await expect(page).toHaveURL(/\/espace\/articles\/nouveau$/);
  await expectNoAxeViolationsNarrow(page, 'the form with pictures too heavy together');
  await others
    .getByLabel('Pictogramme', { exact: true })
    .setInputFiles({ name: 'mains.png', mimeType: 'image/png', buffer: pictogram });
  await others
    .getByLabel('Image du texte complet')
    .setInputFiles({ name: 'classe.jpg', mimeType: 'image/jpeg', buffer: inside });

  // A link already taken: refused in French, nothing written, the pictures sent kept in the form.
  const taken = `deja-pris-${unique()}`;
  await db.collection('articles').doc(taken).set({ titre: 'Article déjà là', slug: '', cat: 'asso', intro: '' });
  await page.getByLabel('Lien de la page').fill(taken);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  const summary = page.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('L’article n’a pas été enregistré');
  await expect(summary.getByRole('listitem')).toHaveText([
    `Lien de la page : ${ARTICLE_MESSAGES.slugTaken('Article déjà là')}`,
  ]);
  await expect(others.getByRole('checkbox', { name: 'Retirer ce pictogramme' })).not.toBeChecked();
  await expect(others.getByRole('checkbox', { name: 'Retirer l’image du texte complet' })).not.toBeChecked();
  expect(await article(id)).toBeUndefined();
  expect(await history(id)).toEqual([]);
  await expectNoAxeViolationsNarrow(page, 'the form refused with its pictures kept');
  await lookAt(page, 'autres-images', { target: others, viewports: VIEWPORTS });

  await page.getByLabel('Lien de la page').fill(id);
  // Optional, as in the content schema: left empty, the pictogram is decorative.
  const description = others.getByLabel('Description du pictogramme');
  await description.fill('Deux mains qui se tiennent');
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
  await expect(page).toHaveURL(new RegExp(`/espace/articles/${id}/apercu\\?enregistre$`));
  // Read back in the original admin's shape: `picto {src, alt}`, `imgContenu {src}`, no cover.
  const stored = await article(id);
  expect(stored).toMatchObject({ titre, cat: 'asso', img: '', picto: { alt: 'Deux mains qui se tiennent' } });
  expect(Object.keys(stored?.picto).toSorted()).toEqual(['alt', 'src']);
  expect(Object.keys(stored?.imgContenu)).toEqual(['src']);
  expect(stored?.picto.src).toMatch(/^https?:\/\/[^/]+\/medias\/[0-9a-f]{32}\.png$/);
  expect(stored?.imgContenu.src).toMatch(/^https?:\/\/[^/]+\/medias\/[0-9a-f]{32}\.jpg$/);

  // The preview: the page's picture (the text's, without a cover), the card's pictogram, the « En savoir plus » window.
  const path = (src: string) => new URL(src).pathname;
  // /asso shows its articles as cards only: so does the preview, without a news page.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('La carte de l’article');
  await expect(page.getByText('Telle que la montre la page L’association.')).toBeVisible();
  await expect(page.getByText(/^Publié le/)).toHaveCount(0);
  const card = page.getByRole('region', { name: 'La carte de l’article' });
  const picto = card.getByRole('img', { name: 'Deux mains qui se tiennent' });
  await expect(picto).toHaveAttribute('src', path(stored?.picto.src));
  await expect(picto).toHaveClass('card__picto');
  await expect.poll(() => picto.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expectNoAxeViolationsNarrow(page, 'the preview with a pictogram');
  await lookAt(page, 'apercu-carte', { target: card, viewports: VIEWPORTS });
  await card.getByRole('button', { name: /^En savoir plus/ }).click();
  const dialog = page.getByRole('dialog', { name: titre });
  await expect(dialog.locator('img.cover')).toHaveAttribute('src', path(stored?.imgContenu.src));
  await expect(dialog).toContainText('Chaque enfant a sa place dans la classe.');
  await expectNoAxeViolationsNarrow(page, 'the preview’s « En savoir plus » window');

  // « Retirer » empties both, in the same shape.
  await page.goto(`/espace/articles/${id}`);
  await others.getByRole('checkbox', { name: 'Retirer ce pictogramme' }).check();
  await others.getByRole('checkbox', { name: 'Retirer l’image du texte complet' }).check();
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText(ARTICLE_MESSAGES.saved);
  expect(await article(id)).toMatchObject({ picto: { src: '', alt: '' }, imgContenu: { src: '' } });
  await expect(others.getByLabel('Pictogramme', { exact: true })).toBeVisible();
});

test('a phone photo over 4 MB is made lighter in the browser, under what Netlify accepts, then stored', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // A 12-megapixel photo as phones take them, of noise so that it stays heavy: about 8 MB.
  const heavy = await sharp({
    create: {
      width: 4032,
      height: 3024,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
  expect(heavy.length).toBeGreaterThan(6 * 1024 * 1024);
  await signIn(page, 'edition@demo.test');
  await openNewForm(page);
  const titre = `Photo de téléphone ${unique()}`;
  await page.getByLabel('Titre').fill(titre);
  await page.getByLabel('Date de publication').fill('2026-11-21');
  await page.getByRole('textbox', { name: 'Introduction' }).click();
  await page.keyboard.type('La kermesse en images.');
  await page
    .getByLabel('Photo ou image')
    .setInputFiles({ name: 'IMG_3001.jpg', mimeType: 'image/jpeg', buffer: heavy });
  await expect(page.locator('#image-etat')).toHaveText(/^Photo allégée pour l’envoi, de 8(,\d)? Mo à \d(,\d)? Mo\.$/);
  await page.getByLabel('Description de l’image').fill('Le stand des crêpes');
  await page.setViewportSize({ width: 375, height: 800 });
  await lookAt(page, 'photo-allegee', { target: page.getByRole('group', { name: 'Image', exact: true }) });
  // What the form will send: Netlify refuses a function body past 6 MB base64-encoded, about 4.5 MB of file.
  const chosen = await page
    .getByLabel('Photo ou image')
    .evaluate((input: HTMLInputElement) => ({ size: input.files![0]!.size, type: input.files![0]!.type }));
  expect(chosen.size).toBeLessThan(4 * 1024 * 1024);
  expect(chosen.type).toBe('image/jpeg');
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
  await expect(page).toHaveURL(new RegExp(`/espace/articles/${slugify(titre)}/apercu\\?enregistre$`));
  const stored = await article(slugify(titre));
  const served = await page.request.get(new URL(stored?.img.src).pathname);
  const metadata = await sharp(await served.body()).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 2560, 1920]);
});

test('refusals: script HTML, a 30 MB file, a file that is not an image, a HEIC photo, a slug already taken', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'edition@demo.test');

  // With JavaScript: a heavy file or one that is not an image is refused at once, before any upload.
  await openNewForm(page);
  const picture = page.getByLabel('Photo ou image');
  const pictureError = page.locator('#image-erreur');
  // A sparse file in the test's output folder, which Chromium reads itself, rather than 30 MB sent through the
  // DevTools protocol.
  const heavyFile = test.info().outputPath('video.jpg');
  await writeFile(heavyFile, '');
  await truncate(heavyFile, 30 * 1024 * 1024);
  await picture.setInputFiles(heavyFile);
  await expect(pictureError).toHaveText(ARTICLE_MESSAGES.tooLarge(30 * 1024 * 1024));
  expect(ARTICLE_MESSAGES.tooLarge(30 * 1024 * 1024)).toContain('Ce fichier pèse 30 Mo');
  await expect(picture).toHaveValue('');
  await picture.setInputFiles({
    name: 'compte-rendu.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7'),
  });
  await expect(pictureError).toHaveText(ARTICLE_MESSAGES.notImage);
  await expectNoAxeViolationsNarrow(page, 'the form with a refused file');

  // A duplicate slug, and on the server what a browser without JavaScript would send.
  const taken = `doublon-${unique()}`;
  await db.collection('articles').doc(taken).set({
    titre: 'Article déjà là',
    slug: '',
    cat: 'actualites',
    intro: '',
    contenu: '',
    date: '1760000000',
    img: '',
  });
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await context.newPage();
  await signIn(plain, 'edition@demo.test');
  await plain.goto('/espace/articles/nouveau');
  await expect(plain.locator('textarea[name="contenu"]')).toBeVisible();
  await plain.getByLabel('Titre').fill('Article avec un script');
  await plain.getByLabel('Lien de la page').fill(taken);
  await plain.locator('textarea[name="contenu"]').fill('<p>Bonjour</p><script>alert(1)</script>');
  await plain.getByLabel('Photo ou image').setInputFiles({
    name: 'IMG_0001.HEIC',
    mimeType: 'image/heic',
    buffer: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]),
  });
  await plain.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  const summary = plain.getByRole('alert');
  await expect(summary.getByRole('heading')).toHaveText('L’article n’a pas été enregistré');
  await expect(summary.getByRole('listitem')).toHaveText([
    `Lien de la page : ${ARTICLE_MESSAGES.slugTaken('Article déjà là')}`,
    `Texte complet : ${ARTICLE_MESSAGES.script}`,
    `Photo ou image : ${ARTICLE_MESSAGES.heic}`,
  ]);
  // What was typed is kept.
  await expect(plain.getByLabel('Titre')).toHaveValue('Article avec un script');
  await expect(plain.locator('textarea[name="contenu"]')).toHaveValue('<p>Bonjour</p><script>alert(1)</script>');

  await plain.getByLabel('Lien de la page').fill('');
  await plain.locator('textarea[name="contenu"]').fill('<p>Bonjour</p>');
  await plain.getByLabel('Photo ou image').setInputFiles({
    name: 'photo.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('ceci n’est pas une image'),
  });
  await plain.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(plain.getByRole('alert').getByRole('listitem')).toHaveText([
    `Photo ou image : ${ARTICLE_MESSAGES.notImage}`,
  ]);
  await context.close();

  // The same summary with JavaScript, for axe (which needs it).
  await openNewForm(page);
  await page.getByLabel('Titre').fill('Article en double');
  await page.getByLabel('Lien de la page').fill(taken);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByRole('alert').getByRole('listitem')).toHaveText([
    `Lien de la page : ${ARTICLE_MESSAGES.slugTaken('Article déjà là')}`,
  ]);
  await page.getByRole('alert').getByRole('link', { name: 'Lien de la page' }).click();
  await expect(page.getByLabel('Lien de la page')).toBeFocused();
  await expectNoAxeViolationsNarrow(page, 'the form with its errors');

  // A 30 MB post without JavaScript: refused past the limit, before it is read whole.
  const origin = { origin: baseURL! };
  const heavy = await page.request.post('/espace/articles/nouveau?_action=articles.save', {
    headers: origin,
    multipart: {
      titre: 'Trop lourd',
      image: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(30 * 1024 * 1024) },
    },
    maxRedirects: 0,
  });
  expect(heavy.status()).toBe(413);
  expect(await heavy.text()).toContain(ARTICLE_MESSAGES.bodyTooLarge);

  expect(await article(slugify('Article avec un script'))).toBeUndefined();
  expect(await article(slugify('Trop lourd'))).toBeUndefined();
  // Other tests write history meanwhile (two workers): only these documents' entries are counted.
  for (const refused of ['Article avec un script', 'Trop lourd', 'Article en double', taken]) {
    expect(await history(slugify(refused)), refused).toEqual([]);
  }
});

test('« Publier le site » shows the online version’s report; /publier and its password are gone', async ({ page }) => {
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/publication');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Publier le site');
  await expect(page.getByText('Version préparée le')).toBeVisible();
  // The demo's editors wrote the three legal pages: none is written by the site.
  await expect(
    page.getByRole('heading', { name: 'Pages légales' }).locator('xpath=following-sibling::p[1]'),
  ).toHaveText(
    'Les mentions légales, la page Données personnelles et la déclaration d’accessibilité sont vos articles.',
  );
  // Its button's outcomes: tests/e2e/espace-publier.spec.ts (the build hook's minute is shared by the whole run).
  expect((await page.goto('/publier'))?.status()).toBe(404);
  const form = await page.request.post('/api/rebuild', {
    form: { motdepasse: ['e2e', 'publish', 'secret'].join('-') },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(form.status()).toBe(401);
});

test('edition still reads no personal data: pre-registrations, gifts and subscribers refused', async ({ page }) => {
  await signIn(page, 'edition@demo.test');
  for (const path of ['/espace/preinscriptions', '/espace/dons', '/espace/lettre', '/espace/journal']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accès refusé');
  }
  for (const path of ['/espace/preinscriptions/export.csv', '/espace/lettre/export.csv', '/espace/dons/export.csv']) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(403);
  }
});

test('a role without the articles posts their form’s action from a page it opens: refused, logged, nothing written', async ({
  page,
  baseURL,
}) => {
  await signIn(page, 'admissions@demo.test');
  const titre = `Interdit ${unique()}`;
  // An action runs on any page it is posted to: here one whose `id` would name a new article.
  const path = '/espace/preinscriptions/nouveau';
  const posted = await page.request.post(`${path}?_action=articles.save`, {
    headers: { origin: baseURL! },
    multipart: { titre, cat: 'asso', intro: '<p>Non</p>', suite: 'fiche' },
    maxRedirects: 0,
  });
  expect(posted.status()).not.toBe(303);
  expect(await article(slugify(titre))).toBeUndefined();
  const refusals = await db
    .collection('espaceJournal')
    .where('qui', '==', 'admissions@demo.test')
    .where('objet', '==', path)
    .get();
  expect(refusals.docs.map((entry) => entry.get('action'))).toContain('refus');
});

test('the address opens the association’s form; a « Facile à lire » article shows and keeps its category', async ({
  page,
}) => {
  const id = `facile-essai-${unique()}`;
  await db.collection('articles').doc(id).set({ slug: id, cat: 'facile', titre: 'L’école, facile à lire', intro: '' });
  // The address other tests read (receipts, mails): created only when missing, never replaced.
  const address = db.collection('articles').doc('adresse');
  await address.create({ cat: 'divers', titre: 'Asso', intro: '1 rue X\n69000 Lyon' }).catch(() => undefined);
  const addressTitle = String((await address.get()).data()?.titre || 'adresse');
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/articles');
  await expect(page.getByRole('heading', { level: 2, name: 'Facile à lire' })).toBeVisible();
  const online = page.getByRole('link', { name: 'voir en ligne : L’école, facile à lire' });
  await expect(online).toHaveAttribute('href', `/facile/${id}`);
  await page.getByRole('link', { name: 'L’école, facile à lire', exact: true }).click();
  await expect(page.getByLabel('Rubrique')).toHaveValue('facile');
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByText('L’article est enregistré.')).toBeVisible();
  expect(await article(id)).toMatchObject({ cat: 'facile' });

  await page.goto('/espace/articles');
  await page.getByRole('link', { name: addressTitle, exact: true }).click();
  await expect(page).toHaveURL(/\/espace\/association$/);
  expect((await page.goto('/espace/articles/adresse'))?.url()).toMatch(/\/espace\/association$/);
});

test('the preview shows an article as its page does: the « Facile à lire » words, the school’s section', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const falc = `facile-apercu-${unique()}`;
  await db.collection('articles').doc(falc).set({
    slug: falc,
    cat: 'facile',
    titre: 'Demander une aide à la MDPH',
    intro: '<p>Vous pouvez demander une aide pour votre enfant.</p>',
    contenu: '<p>La MDPH lit votre demande. Elle écrit le PPS de votre enfant.</p>',
  });
  const school = `ecole-apercu-${unique()}`;
  const schoolTitle = 'Une classe de huit élèves';
  await db
    .collection('articles')
    .doc(school)
    .set({
      slug: school,
      cat: 'ecole',
      titre: schoolTitle,
      date: Date.UTC(2026, 10, 20, 12) / 1000,
      intro: '<p>Chaque enfant avance à son rythme.</p>',
      contenu: '<h3>La journée</h3><p>Deux adultes dans la classe.</p>',
    });
  await signIn(page, 'edition@demo.test');

  // « Facile à lire »: its mark, its text, and the glossary's words it uses as on /facile/<slug>.
  await page.goto(`/espace/articles/${falc}/apercu`);
  await expect(page.getByRole('complementary', { name: 'Aperçu' })).toContainText('Aperçu.');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Demander une aide à la MDPH');
  // The page's own mark (the header links to the « Facile à lire » pages too).
  await expect(page.getByRole('main').getByText('Facile à lire', { exact: true })).toBeVisible();
  await expect(page.getByText('Elle écrit le PPS de votre enfant.')).toBeVisible();
  const words = page.getByRole('region', { name: 'Les mots difficiles' });
  await expect(words.locator('dfn')).toHaveText(['MDPH', 'PPS']);
  await expect(words.getByRole('definition')).toHaveText(
    GLOSSARY.filter(({ term }) => ['MDPH', 'PPS'].includes(term)).map(({ explanation }) => explanation),
  );
  // The text explains an acronym at its first use, as the build does (explainTerms).
  await expect(page.getByRole('main').locator('.prose abbr').first()).toHaveAttribute(
    'title',
    /^maison départementale des personnes handicapées : /,
  );
  await expect(page.getByText(/^Publié le/)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'La carte de l’article' })).toHaveCount(0);
  await expectNoAxeViolationsNarrow(page, 'the preview of a « Facile à lire » article');
  await lookAt(page, 'apercu-facile', { viewports: VIEWPORTS });

  // The school: a section of /ecole (<h2> title, intro, text), no news page's date line or way back to the news.
  await page.goto(`/espace/articles/${school}/apercu`);
  const section = page.getByRole('region', { name: schoolTitle });
  await expect(section.getByRole('heading', { level: 2, name: schoolTitle })).toBeVisible();
  await expect(section).toContainText('Chaque enfant avance à son rythme.');
  await expect(section.getByRole('heading', { level: 3, name: 'La journée' })).toBeVisible();
  await expect(page.getByText(/^Publié le/)).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: /Toutes les actualités/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'La carte de l’article' })).toHaveCount(0);
  await expectNoAxeViolationsNarrow(page, 'the preview of a school article');
  await lookAt(page, 'apercu-ecole', { viewports: VIEWPORTS });
});

test('an article with a picture and a video stays in HTML, with a note, and keeps both through a save', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = `fete-en-video-${unique()}`;
  const picture = '<figure><img src="https://exemple.org/cour.jpg" alt="La cour décorée"></figure>';
  const video = '<iframe src="https://www.youtube-nocookie.com/embed/abc123" title="La fête en vidéo"></iframe>';
  const contenu = `<p>Avant</p>${picture}${video}`;
  await db
    .collection('articles')
    .doc(id)
    // Dated: a news article without a date is refused (its own test: tests/pipeline/articles-rules.test.ts).
    .set({
      slug: id,
      cat: 'actualites',
      titre: 'La fête en vidéo',
      date: 1_795_000_000,
      intro: '<p>Un beau jour.</p>',
      contenu,
    });
  await signIn(page, 'edition@demo.test');
  await page.goto(`/espace/articles/${id}`);
  // The introduction, plain paragraphs, opens in the editor; the full text stays HTML and says why.
  await expect(page.getByRole('toolbar', { name: 'Mise en forme : Introduction' })).toBeVisible();
  const text = page.getByRole('textbox', { name: 'Texte complet' });
  await expect(page.getByText(ARTICLE_MESSAGES.htmlOnly)).toBeVisible();
  await expect(text).toHaveAccessibleDescription(/présenté en HTML pour ne rien perdre/);
  await expect(page.getByRole('toolbar')).toHaveCount(1);
  expect(await text.evaluate((element) => element.tagName)).toBe('TEXTAREA');
  await expectNoAxeViolationsNarrow(page, 'an article the editor cannot hold');
  await text.press('ControlOrMeta+End');
  await text.pressSequentially('<p>Merci à tous !</p>');
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByText('L’article est enregistré.')).toBeVisible();

  const saved = String((await article(id))?.contenu);
  expect(saved).toMatch(/^<p>Avant<\/p><figure><img [^>]*src="https:\/\/exemple\.org\/cour\.jpg"[^>]*><\/figure>/);
  expect(saved).toContain('alt="La cour décorée"');
  expect(saved).toContain(`${video}<p>Merci à tous !</p>`);
});
