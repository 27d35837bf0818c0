/**
 * Under `npm start` (playwright.config.ts's dev server), an editor publishes for real: a news article written in the
 * space with a photo goes online at /actualites/<slug> with optimised pictures once « Publier le site » has re-pulled
 * the content, and a draft saved and published the same way never appears on the site.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../../scripts/lib/auth-emulator';
import { fixturePicture } from '../../../scripts/lib/picture-server';
import { slugify } from '../../../src/features/content/articles/articles';

/** The dev server compiles each page on its first visit, and a publish re-pulls everything: generous (ms). */
const SLOW_MS = 90_000;

async function signIn(page: Page): Promise<void> {
  await page.goto('/espace/connexion', { timeout: SLOW_MS });
  await page.getByLabel('Email').fill('edition@demo.test');
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bonjour', { timeout: SLOW_MS });
}

/** Writes and saves a news article; `draft` ticks « Brouillon ». */
async function writeArticle(page: Page, titre: string, draft = false): Promise<void> {
  await page.goto('/espace/articles/nouveau', { timeout: SLOW_MS });
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2, { timeout: SLOW_MS });
  await page.getByLabel('Titre').fill(titre);
  await page.getByLabel('Date de publication').fill('2026-11-21');
  await page.getByRole('textbox', { name: 'Introduction' }).click();
  await page.keyboard.type('Une journée ');
  const bold = page
    .getByRole('toolbar', { name: 'Mise en forme : Introduction' })
    .getByRole('button', { name: 'Gras' });
  await bold.click();
  // The toolbar gives the focus back to the text after the click: typing before that would lose letters.
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('textbox', { name: 'Introduction' })).toBeFocused();
  await page.keyboard.type('inoubliable');
  const photo = { name: 'IMG_3001.jpg', mimeType: 'image/jpeg', buffer: await fixturePicture('photo-sortie.jpg') };
  await page.getByLabel('Photo ou image').setInputFiles(photo);
  await page.getByLabel('Description de l’image').fill('La classe au bord du lac');
  if (draft) await page.getByLabel('Brouillon').check();
  await page.getByRole('button', { name: 'Enregistrer et voir l’aperçu' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titre, { timeout: SLOW_MS });
}

/** « Publier le site », then waits until the page says the request was launched (npm start re-pulls meanwhile). */
async function publish(page: Page): Promise<void> {
  await page.goto('/espace/publication', { timeout: SLOW_MS });
  await page.getByRole('button', { name: 'Publier le site' }).click();
  // The dev server reloads the page when the pull rewrites the content: the last request says how it went.
  await expect(async () => {
    await page.goto('/espace/publication');
    await expect(page.locator('#demande-titre + p')).toContainText('par edition@demo.test : lancée.', {
      timeout: 1000,
    });
  }).toPass({ timeout: SLOW_MS });
}

test('a news article written in the space goes online with its photo; a draft never does', async ({ page }) => {
  test.setTimeout(6 * SLOW_MS);
  const suffix = Date.now().toString(36);
  const titre = `Sortie au lac ${suffix}`;
  const brouillon = `Brouillon du lac ${suffix}`;
  await signIn(page);
  await writeArticle(page, titre);
  await writeArticle(page, brouillon, true);
  await expect(page.getByText('Aperçu d’un brouillon.')).toBeVisible();
  await publish(page);

  // The publish answers once the pull is written; the dev server's routes may take a moment more to read it (as the
  // space's message says: « rechargez la page »).
  const address = `/actualites/${slugify(titre)}`;
  await expect
    .poll(async () => (await page.goto(address, { timeout: SLOW_MS }))?.status(), { timeout: SLOW_MS })
    .toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titre);
  await expect(page.getByText('Publié le 21 novembre 2026')).toBeVisible();
  await expect(page.locator('.news-article__intro strong')).toHaveText('inoubliable');
  // The pulled photo, optimised by astro:assets: AVIF and WebP sources, then the <img> itself.
  const picture = page.locator('picture', { has: page.getByRole('img', { name: 'La classe au bord du lac' }) });
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /f=avif.* 720w/);
  await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /f=webp/);
  const image = picture.getByRole('img');
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);

  expect((await page.goto(`/actualites/${slugify(brouillon)}`, { timeout: SLOW_MS }))?.status()).toBe(404);
  await page.goto('/actualites', { timeout: SLOW_MS });
  await expect(page.getByRole('main')).toContainText(titre);
  await expect(page.getByRole('main')).not.toContainText(brouillon);
});
