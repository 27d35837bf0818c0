/**
 * `npm start` gives a newcomer a working staff space: its own Firebase Auth emulator with the demo accounts (the README
 * lists them), sign-in without any set-up, and each role its own part of the space.
 */
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from '../../../scripts/lib/auth-emulator';

/** The dev server compiles each page on its first visit: generous on 2 cores (ms). */
const FIRST_VISIT_MS = 60_000;

test('the demo accounts sign in: admissions opens the pre-registrations, edition is refused them', async ({ page }) => {
  for (const [email, status] of [
    ['admissions@demo.test', 200],
    ['edition@demo.test', 403],
  ] as const) {
    await page.goto('/espace/connexion', { timeout: FIRST_VISIT_MS });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bonjour', { timeout: FIRST_VISIT_MS });
    const response = await page.goto('/espace/preinscriptions', { timeout: FIRST_VISIT_MS });
    expect(response?.status(), email).toBe(status);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      status === 200 ? 'Préinscriptions' : 'Accès refusé',
    );
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page.getByRole('status')).toHaveText('Vous êtes déconnecté.', { timeout: FIRST_VISIT_MS });
  }
});
