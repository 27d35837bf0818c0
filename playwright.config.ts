import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './scripts/lib/chromium';
import { e2ePorts } from './tests/fixtures/ports';

const ports = await e2ePorts();

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the
 * built site in dist/, served like Netlify serves it by scripts/serve-dist.ts
 * (static files, then the endpoints' function), writing to an embedded
 * Firestore emulator, each on a free port (tests/fixtures/ports.ts).
 * `npm run test:build` (or `npm run build`) must have produced dist/ first.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  // Room for a busy 2-core machine running another copy of the suite beside this one.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${ports.site}`,
    locale: 'fr-FR',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      // A local fake of Stripe's API (api.stripe.com is unreachable here), recording what it is sent.
      command: `tsx tests/fixtures/fake-stripe.ts ${ports.stripe}`,
      port: ports.stripe,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // Static files, the endpoints (the built Netlify function) and an embedded Firestore the tests read back.
      command: `tsx scripts/serve-dist.ts ${ports.site} --emulator 127.0.0.1:${ports.firestore}`,
      url: `http://127.0.0.1:${ports.site}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        // Plainly fake test keys; the endpoints talk to the fake above.
        STRIPE_SECRET_KEY: ['sk', 'test', 'e2efake'].join('_'),
        STRIPE_WEBHOOK_SECRET: ['whsec', 'e2e-fake'].join('_'),
        STRIPE_API_BASE: `http://127.0.0.1:${ports.stripe}`,
      },
    },
  ],
});
