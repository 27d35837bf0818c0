/**
 * /ecole loads no React before the visitor acts on its pre-registration form (client:interaction, src/lib/
 * hydrate-on-interaction.ts): the form is server HTML that posts without JavaScript until then. A parent who starts
 * typing while the island loads loses no keystroke and not the focus, and every field keeps what was typed once React
 * has taken over the form.
 */
import { expect, test } from '@playwright/test';
import { holdIsland, loadAndIdle } from './helpers';

const ISLAND = '#preinscription astro-island';

test('the form loads no JavaScript of its own at load or at idle', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await loadAndIdle(page, '/ecole');
  await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);
  const component = await page.locator(ISLAND).getAttribute('component-url');
  expect(component).toBeTruthy();
  expect(scripts).not.toContain(component);
});

test('what a parent types while the island loads stays, focus included, and React keeps it', async ({ page }) => {
  await loadAndIdle(page, '/ecole');
  // The island's module is held until the parent has typed in two fields.
  const release = await holdIsland(page, ISLAND);
  const form = page.locator('#preinscription');
  const child = form.getByLabel(/Prénom de l’enfant/);
  const surname = form.getByLabel(/Nom de l’enfant/);
  await child.click();
  await page.keyboard.type('Léa');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Mar');
  await expect(page.locator(`${ISLAND}[ssr]`)).toHaveCount(1);

  release();
  await expect(page.locator(`${ISLAND}:not([ssr])`)).toHaveCount(1);
  await expect(surname).toBeFocused();
  await page.keyboard.type('tin');
  await expect(surname).toHaveValue('Martin');
  // A render after hydration writes React's state into every field: the first one typed before it is still there.
  await form.getByLabel(/Votre prénom/).fill('Sophie');
  await expect(child).toHaveValue('Léa');
  await expect(surname).toHaveValue('Martin');

  // And React knows it: sending asks for what is missing, not for the child's names.
  await form.getByRole('button', { name: 'Inscrire mon enfant' }).click();
  const summary = form.locator('.error-summary');
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText([
    'Merci d’indiquer votre nom',
    'Merci de saisir un email valide',
    'Votre consentement est obligatoire pour pré-inscrire votre enfant',
  ]);
});
