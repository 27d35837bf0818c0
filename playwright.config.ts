import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_EXECUTABLE } from './scripts/lib/chromium';
import { e2ePorts, freePort } from './scripts/lib/ports';

const ports = await e2ePorts();
// The staff space's sign-in: the built site's Auth emulator, and the one `npm start` starts for itself.
process.env.E2E_AUTH_PORT ||= String(await freePort());
process.env.E2E_DEV_AUTH_PORT ||= String(await freePort());
// The built site's Netlify build hook (a local fake recording its calls: tests/fixtures/fake-build-hook.ts).
process.env.E2E_BUILD_HOOK_PORT ||= String(await freePort());
const authPort = Number(process.env.E2E_AUTH_PORT);

/** The projects named on the command line (`--project x`, `--project=x`); none: every project runs. */
const named = process.argv.flatMap((argument, index, all) =>
  argument === '--project' ? [all[index + 1]] : argument.startsWith('--project=') ? [argument.slice(10)] : [],
);
/** `npm start` (the slowest server to start) only for a run of the dev project. */
const startsDev = named.length === 0 || named.includes('dev');

/**
 * Browser tests on Debian's Chromium, every server on a free port. `built`: dist/ (build it first) served
 * like Netlify by scripts/serve-dist.ts, writing to an embedded emulator, after `sign-in` (tests/e2e/auth.setup.ts);
 * `dev`: `npm start` (tests/e2e/dev/), a smoke test of the main journeys.
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
    locale: 'fr-FR',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS, env: CHROMIUM_ENV },
  },
  projects: [
    // Each demo account signs in once through the form; the built site's tests start from its saved session.
    { name: 'sign-in', testMatch: 'auth.setup.ts', use: { baseURL: `http://127.0.0.1:${ports.site}` } },
    // First, beside the built site's tests (after the sign-in, whose sessions it does not use): one worker runs it
    // while the other runs the built site's, instead of one core running it alone at the end (325 s against 336 s).
    // Alone: `npx playwright test --project dev --no-deps`.
    {
      name: 'dev',
      testMatch: 'dev/**/*.spec.ts',
      dependencies: ['sign-in'],
      // One at a time: a publish re-pulls the content and the dev server reloads every open page, which would empty
      // another test's form mid-fill.
      workers: 1,
      timeout: 120_000,
      use: { baseURL: `http://127.0.0.1:${ports.dev}` },
    },
    {
      name: 'built',
      testIgnore: ['dev/**', 'auth.setup.ts'],
      dependencies: ['sign-in'],
      // One browser context per worker, reset between tests (cookies, cache, storages, routes, init scripts,
      // emulation): a new context costs Chromium about 0.7 s of CPU, so the browser tests took 380 s, now 336 s.
      // What the reset leaves (docs/testing.md) no test changes; a failed test restarts its worker, context and all.
      // E2E_FRESH_CONTEXTS=1: a new context per test, to check that no test leans on an earlier one's state.
      use: { baseURL: `http://127.0.0.1:${ports.site}`, reuseContext: !process.env.E2E_FRESH_CONTEXTS },
    },
  ],
  webServer: [
    {
      // Firebase Auth (firebase-tools' emulator, offline) with the demo staff accounts, for the built site's /espace.
      command: `tsx tests/fixtures/auth-emulator.ts ${authPort} demo-e2e`,
      url: `http://127.0.0.1:${authPort}/`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      // A local fake of Stripe's API (api.stripe.com is unreachable here), recording what it is sent.
      command: `tsx tests/fixtures/fake-stripe.ts ${ports.stripe}`,
      port: ports.stripe,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // A local SMTP server keeping the site's mails; the tests read them from its web view (/mails.json).
      command: `tsx scripts/mail-catcher.ts ${ports.smtp} ${ports.mailHttp}`,
      url: `http://127.0.0.1:${ports.mailHttp}/mails.json`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      // A local fake of Netlify's build hook, recording each publish (/calls.json).
      command: `tsx tests/fixtures/fake-build-hook.ts ${process.env.E2E_BUILD_HOOK_PORT}`,
      url: `http://127.0.0.1:${process.env.E2E_BUILD_HOOK_PORT}/calls.json`,
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
        REBUILD_SECRET: ['e2e', 'publish', 'secret'].join('-'),
        NETLIFY_BUILD_HOOK_URL: `http://127.0.0.1:${process.env.E2E_BUILD_HOOK_PORT}/build_hooks/e2e`,
        SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
        MAIL_FROM: 'Site de test <site@exemple.org>',
        ASSOCIATION_EMAIL: 'equipe@exemple.org',
        // Receipts are numbered only once a signatory is named (docs/donations.md): the fallback setting.
        ASSOCIATION_SIGNATORY: 'Claire Martin, présidente',
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
      },
    },
    ...(startsDev ? [devServer()] : []),
  ],
});

/** `npm start` as a newcomer runs it (pull, embedded demo database, astro dev), on free ports. */
function devServer() {
  return {
    // Last: astro dev empties .netlify/v1/functions/ at start-up (serve-dist has its own copy by then).
    command:
      `tsx scripts/dev.ts --port ${ports.dev} --firestore-port ${ports.devFirestore} ` +
      `--auth-port ${process.env.E2E_DEV_AUTH_PORT}`,
    // Ready when Astro serves and the Auth emulator it starts beside Astro has its demo accounts (either first).
    wait: { stdout: /ready in[\s\S]*Espace \(\/espace\)|Espace \(\/espace\)[\s\S]*ready in/ },
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      // The embedded demo database even when a developer's .env names a real project.
      FIREBASE_PROJECT_ID: '',
      // A session secret of our own: no DEV_SECRET_FILE written beside a developer's `npm start`.
      REBUILD_SECRET: ['dev', 'smoke', 'secret'].join('-'),
      // Its own Auth emulator with the demo accounts, as a newcomer's `npm start` has.
      FIREBASE_AUTH_EMULATOR_HOST: '',
    },
  };
}
