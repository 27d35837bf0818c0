/**
 * The home page loads no island's JavaScript before the visitor acts (client:interaction, src/lib/
 * hydrate-on-interaction.ts): neither at load nor at idle. The newsletter popup opens at once on a click or a key (its
 * opener is an invoker), its email field focused, and its island hydrates then; the carousels hydrate when scrolled to
 * (carousels.spec.ts).
 */
import { expect, test, type Page } from '@playwright/test';

const OPENER = { name: 'S’inscrire à la lettre d’information' };

/** Waits for the load event, then for two idle periods of the main thread (when client:idle islands hydrate). */
async function loadAndIdle(page: Page): Promise<void> {
  await page.goto('/', { waitUntil: 'load' });
  await page.evaluate(() => new Promise((idle) => requestIdleCallback(() => requestIdleCallback(() => idle(true)))));
}

test('no island hydrates nor loads its component at load or at idle', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await loadAndIdle(page);
  const islands = page.locator('astro-island');
  await expect(islands).toHaveCount(3);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(3);
  const components = await islands.evaluateAll((list) => list.map((island) => island.getAttribute('component-url')));
  for (const component of components) expect(scripts).not.toContain(component);
});

test('a click opens the popup at once with the email field focused, and its island hydrates', async ({ page }) => {
  await loadAndIdle(page);
  await page.getByRole('button', OPENER).click();
  const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(/Votre email/)).toBeFocused();
  await expect(page.locator('astro-island:has(.newsletter__open)')).not.toHaveAttribute('ssr');
  await expect(dialog.getByLabel(/Votre email/)).toBeFocused();
});

test('the keyboard opens it too: focus on the opener, Enter', async ({ page }) => {
  await loadAndIdle(page);
  await page.getByRole('button', OPENER).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Lettre d’information' });
  await expect(dialog.getByLabel(/Votre email/)).toBeFocused();
  await expect(page.locator('astro-island:has(.newsletter__open)')).not.toHaveAttribute('ssr');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
