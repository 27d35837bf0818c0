import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './scripts/lib/chromium';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the
 * built site in dist/, served like Netlify serves it by scripts/serve-dist.ts
 * (static files, then the endpoints' function), writing to an embedded
 * Firestore emulator on 127.0.0.1:8089 (E2E_FIRESTORE in tests/e2e/helpers.ts).
 * `npm run test:build` (or `npm run build`) must have produced dist/ first.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: 'http://127.0.0.1:4322',
    locale: 'fr-FR',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      // A local fake of Stripe's API (api.stripe.com is unreachable here), recording what it is sent.
      command: 'tsx tests/fixtures/fake-stripe.ts 12111',
      port: 12111,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
    {
      // Static files, the endpoints (the built Netlify function) and an embedded Firestore the tests read back.
      command: 'tsx scripts/serve-dist.ts 4322 --emulator 127.0.0.1:8089',
      url: 'http://127.0.0.1:4322/',
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      env: {
        // Plainly fake test keys; the endpoints talk to the fake above.
        STRIPE_SECRET_KEY: ['sk', 'test', 'e2efake'].join('_'),
        STRIPE_WEBHOOK_SECRET: ['whsec', 'e2e-fake'].join('_'),
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      },
    },
  ],
});
