/**
 * « Publier » from the article itself on the built site (playwright.config.ts, its build hook a local fake recording
 * calls): a new article saved as a draft goes online in one action from its form (saved, draft taken off, the build
 * hook called, « Publication en cours… » shown), and a second publish within the minute, from its preview then from
 * « Publier le site », calls nothing and says when the next one can start. Axe at 375 px on each state.
 */
import { expect, test } from '@playwright/test';
import type { Firestore } from 'firebase-admin/firestore';
import { PUBLICATION_MESSAGES } from '../../src/features/content/publishing/report';
import { slugify } from '../../src/features/content/articles/articles';
import { espaceDatabase, signIn, unique } from './espace-helpers';
import { expectNoAxeViolationsNarrow } from './helpers';

let db: Firestore;
test.beforeAll(async () => {
  db ??= await espaceDatabase();
});

/** The build hook's calls so far (tests/fixtures/fake-build-hook.ts). */
const hookCalls = async (): Promise<{ path: string; title: string | null }[]> =>
  (await fetch(`http://127.0.0.1:${process.env.E2E_BUILD_HOOK_PORT}/calls.json`)).json();

/** What a publish within the minute says after the save (publicationMessage): the next time, never « lancée ». */
const WAIT = new RegExp(
  '^L’article est enregistré\\. Pas de nouvelle publication : le site en fait une par minute au plus, .*' +
    'Vous pourrez publier à nouveau à partir de \\d{2}:\\d{2}, si vos dernières modifications n’apparaissent pas\\.$',
);

test('an article goes online from its own « Publier »; a second publish within the minute says when', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'edition@demo.test');
  await page.goto('/espace/articles/nouveau');
  await expect(page.getByRole('toolbar', { name: /^Mise en forme/ })).toHaveCount(2);
  const titre = `Kermesse ${unique()}`;
  const id = slugify(titre);
  await page.getByLabel('Titre').fill(titre);
  await page.getByRole('textbox', { name: 'Introduction' }).click();
  await page.keyboard.type('Venez nombreux.');
  await page.getByLabel('Brouillon').check();
  const before = (await hookCalls()).length;
  await page.getByRole('button', { name: 'Publier', exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/espace/articles/${id}\\?publication=lancee$`));
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText(PUBLICATION_MESSAGES.lancee);
  await expect(page.locator('[data-online-status]')).toContainText('Publication en cours…');
  await expect(page.getByLabel('Brouillon')).not.toBeChecked();
  expect((await hookCalls()).slice(before)).toEqual([{ path: '/build_hooks/e2e', title: 'Mise à jour du contenu' }]);
  // Saved, out of the drafts, among the articles the next build pulls.
  expect((await db.collection('articles').doc(id).get()).data()).toMatchObject({ titre, cat: 'actualites' });
  expect((await db.collection('brouillons').doc(id).get()).exists).toBe(false);
  await expectNoAxeViolationsNarrow(page, 'the form after « Publier »');

  // Its preview says the same, and its « Publier » within the minute calls nothing.
  await page.goto(`/espace/articles/${id}/apercu`);
  await expect(page.locator('[data-online-status]')).toContainText('Publication en cours…');
  await page.getByRole('button', { name: 'Publier', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/espace/articles/${id}/apercu\\?publication=attente&suivante=\\d+$`));
  await expect(page.getByRole('alert')).toHaveText(WAIT);
  await expectNoAxeViolationsNarrow(page, 'the preview after a publish too soon');
  expect((await hookCalls()).length).toBe(before + 1);

  // So does « Publier le site », which names who asked.
  await page.goto('/espace/publication');
  await page.getByRole('button', { name: 'Publier le site' }).click();
  await expect(page).toHaveURL(/\/espace\/publication\?publication=attente&suivante=\d+$/);
  await expect(page.getByRole('status')).toContainText('Vous pourrez publier à nouveau à partir de');
  await expect(page.getByRole('status')).not.toContainText('lancée');
  await expect(page.locator('#demande-titre + p')).toContainText(
    'par edition@demo.test : pas de nouvelle publication (une par minute au plus).',
  );
  expect((await hookCalls()).length).toBe(before + 1);
});
