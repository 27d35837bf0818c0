/**
 * The `sign-in` set-up project (playwright.config.ts): each demo account signs in once through the form, and its
 * browser state (the session cookies) is saved for the built site's tests, which then start signed in
 * (espace-helpers.ts signIn). The form itself is tested in espace.spec.ts.
 */
import { test as setup } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../scripts/lib/auth-emulator';
import { espaceDatabase, signInThroughForm, storageStateOf } from './espace-helpers';

setup.beforeAll(async () => {
  await espaceDatabase();
});

for (const { email } of DEMO_ACCOUNTS) {
  setup(`signs in as ${email}`, async ({ page }) => {
    await signInThroughForm(page, email);
    await page.context().storageState({ path: storageStateOf(email) });
  });
}
