// @ts-check
import { defineConfig, envField, fontProviders } from 'astro/config';
import netlify from '@astrojs/netlify';
import netlifyVitePlugin from '@netlify/vite-plugin';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { siteAddress } from './scripts/lib/site-address.ts';
import { devContentReload } from './scripts/lib/dev-content-reload.ts';
import { searchIndex } from './scripts/lib/search-index.ts';
import { pulledFrameOrigins } from './src/lib/content-csp.ts';
import { createHash } from 'node:crypto';
import { DISPLAY_SCRIPT } from './src/features/display/display-settings.ts';

/**
 * A font file of @fontsource/atkinson-hyperlegible-next (latin subset, woff2).
 * @param {400 | 700} weight
 * @param {'normal' | 'italic'} style
 */
const atkinson = (weight, style) =>
  `./node_modules/@fontsource/atkinson-hyperlegible-next/files/` +
  `atkinson-hyperlegible-next-latin-${weight}-${style}.woff2`;

/**
 * The receipt PDF's fonts, read from node_modules when a receipt is drawn
 * (src/features/donations/receipts/receipt-fonts.server.ts): only the .woff slices and weights it uses, and each package's
 * unicode.json and licence, go into the Netlify function (docs/donations.md, « Fonts »).
 */
const FONTSOURCE = './node_modules/@fontsource';
const RECEIPT_FONTS = [
  `${FONTSOURCE}/noto-sans/files/noto-sans-{latin,latin-ext,vietnamese,greek,greek-ext}-{400,700}-normal.woff`,
  `${FONTSOURCE}/noto-sans/files/noto-sans-{cyrillic,cyrillic-ext,devanagari}-{400,700}-normal.woff`,
  `${FONTSOURCE}/ibm-plex-sans-arabic/files/ibm-plex-sans-arabic-arabic-{400,700}-normal.woff`,
  `${FONTSOURCE}/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-{400,700}-normal.woff`,
  `${FONTSOURCE}/noto-sans-{sc,jp,kr}/files/noto-sans-*-[0-9]*-400-normal.woff`,
  `${FONTSOURCE}/{noto-sans,ibm-plex-sans-arabic,noto-sans-hebrew,noto-sans-sc,noto-sans-jp,noto-sans-kr}/*.json`,
  `${FONTSOURCE}/{noto-sans,ibm-plex-sans-arabic,noto-sans-hebrew,noto-sans-sc,noto-sans-jp,noto-sans-kr}/LICENSE`,
];

/**
 * Pages kept out of sitemap-index.xml: the not-found page, the donation return pages, the editors' publish page, the
 * newsletter's confirmation and unsubscription.
 */
const NOT_IN_SITEMAP = /^\/(404|soutenir\/annule|soutenir\/valide|newsletter\/.*)\/?$/;

/** An optional server variable of astro:env, read when the server starts (see `env` below). */
const atRunTime = envField.string({ context: 'server', access: 'secret', optional: true });

// The hosts of the videos editors embed, from the content pulled just before this build. `npm start` loads this config
// beside its pull (src/lib/pull-gate.ts): the dev server has no policy (noPolicyInDev), so what is read then is unused.
const videoOrigins = pulledFrameOrigins();

/**
 * `astro dev` runs with no Content-Security-Policy: Astro hashes only what a build emits, so the dev
 * server's policy (with `staticHeaders`) would block every island.
 * @type {import('astro').AstroIntegration}
 */
const noPolicyInDev = {
  name: 'no-csp-in-dev',
  hooks: {
    'astro:config:setup': ({ command, updateConfig }) => {
      if (command === 'dev') updateConfig({ security: { csp: false } });
    },
  },
};

/**
 * No Netlify emulation in dev beyond what the site uses (Blobs: the space's media). The adapter's Vite plugin
 * (@astrojs/netlify 8's devFeatures switch only images, edge functions and variables) would also bundle
 * netlify/functions/ with @vercel/nft before the first page (about 19 s, for scheduled functions that only Netlify's
 * clock runs) and start a Netlify Database (PGlite, 2–20 s) at every `npm start`: it is swapped for the same plugin
 * without them.
 * @type {import('astro').AstroIntegration}
 */
const netlifyDevFeatures = {
  name: 'netlify-dev-features',
  hooks: {
    'astro:config:setup': ({ command, config }) => {
      if (command !== 'dev') return;
      const plugins = config.vite.plugins ?? [];
      /** @param {unknown} plugin */
      const isNetlifys = (plugin) =>
        [plugin].flat().some((entry) => /** @type {{ name?: string }} */ (entry)?.name === 'vite-plugin-netlify');
      const at = plugins.findIndex(isNetlifys);
      if (at < 0) throw new Error('netlify-dev-features: the Netlify adapter added no @netlify/vite-plugin to replace');
      plugins.splice(
        at,
        1,
        netlifyVitePlugin({
          // As the adapter's devFeatures below.
          edgeFunctions: { enabled: false },
          images: { enabled: false },
          environmentVariables: { enabled: false },
          functions: { enabled: false },
          database: { enabled: false },
        }),
      );
    },
  },
};

/**
 * The islands' dependencies, bundled by Vite when `npm start` starts rather than found on the first visit, which would
 * reload the page while it hydrates. Only under `astro dev`: `astro build`'s content sync starts a Vite server too,
 * which would bundle them for nothing (a few seconds of CPU at every build).
 * @type {import('astro').AstroIntegration}
 */
const islandDependencies = {
  name: 'island-dependencies',
  hooks: {
    'astro:config:setup': ({ command, updateConfig }) => {
      if (command !== 'dev') return;
      updateConfig({
        vite: {
          optimizeDeps: {
            include: [
              'nanostores',
              'embla-carousel-react',
              'zod/mini',
              'libphonenumber-js/min',
              '@stripe/stripe-js/pure',
              // The space's editors: the rich-text field and the reorderable lists.
              '@tiptap/react',
              '@tiptap/starter-kit',
              'sortablejs',
            ],
          },
        },
      });
    },
  },
};

/**
 * `client:interaction`: an island hydrated at the visitor's first act on it, never at load
 * (src/lib/hydrate-on-interaction.ts).
 * @type {import('astro').AstroIntegration}
 */
const hydrateOnInteraction = {
  name: 'client-interaction',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'interaction', entrypoint: './src/lib/hydrate-on-interaction.ts' });
    },
  },
};

// Vitest's own process (getViteConfig) runs no adapter: the Netlify adapter's set-up would empty
// .netlify/v1/functions/, the function the build tests read. Builds that tests start run from a worker
// (VITEST_WORKER_ID) and keep it.
const inVitest = process.env.VITEST && !process.env.VITEST_WORKER_ID;

/** Static site from the pulled JSON in src/data/; the Netlify adapter runs the `prerender = false` routes. */
export default defineConfig({
  site: siteAddress(),
  output: 'static',
  adapter: inVitest
    ? undefined
    : netlify({
        // No Netlify edge-function or image emulation in dev: they need the network, and the site uses neither.
        devFeatures: { edgeFunctions: false, images: false, environmentVariables: false },
        // The Content-Security-Policy as HTTP headers (so that frame-ancestors works), see `security.csp`.
        staticHeaders: true,
        // astro:assets writes the optimised pictures into dist/_astro/ at build time (sharp): the same files
        // in preview, tests and production, cached between builds (docs/pictures.md).
        imageCDN: false,
        includeFiles: RECEIPT_FONTS,
      }),
  integrations: [
    noPolicyInDev,
    islandDependencies,
    ...(inVitest ? [] : [netlifyDevFeatures]),
    hydrateOnInteraction,
    devContentReload(),
    react(),
    sitemap({ filter: (page) => !NOT_IN_SITEMAP.test(new URL(page).pathname) }),
    // Last: it waits for the search index's files at astro:build:done, after the adapter's and the sitemap's work.
    // The news archive's pages (831 of the 10,832 at 10,000 articles) have no searchable part: rendered last, while
    // Pagefind writes its files.
    searchIndex({ unsearchableRoutes: ['/actualites/[...page]'] }),
  ],
  trailingSlash: 'ignore',
  // Four pages rendered at once: each page's file writes overlap the next page's rendering (docs/architecture.md).
  build: { format: 'directory', concurrency: 4 },
  server: { host: '127.0.0.1', port: 4321 },
  devToolbar: { enabled: false },
  // No Markdown code blocks on this site: Shiki's inline styles would only warn against the policy.
  markdown: { syntaxHighlight: false },
  // Content-Security-Policy (docs/security.md): pages add sources with `Astro.csp` (src/lib/csp.ts);
  // with staticHeaders it is sent only as a header, never a <meta>.
  security: {
    // Off: src/middleware.ts makes the same check (docs/security.md), but lets mail clients post the one-click
    // unsubscription (RFC 8058), which carries its own secret and no Origin.
    checkOrigin: false,
    // The space's largest form post: an article with a picture of 20 MB and its texts (MAX_POST_BYTES,
    // src/features/content/articles/articles.server.ts); past it, the form says so in French.
    actionBodySizeLimit: 22 * 1024 * 1024,
    csp: {
      directives: [
        "default-src 'self'",
        // Pictures are downloaded by the pull and served from the site (docs/pictures.md).
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        `frame-src 'self'${videoOrigins.map((origin) => ` ${origin}`).join('')}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
      // 'self' is listed because a page's insertScriptResource() would otherwise replace Astro's default.
      // The display settings' inline script (src/features/display/), by its hash: it runs before the first paint.
      scriptDirective: {
        resources: ["'self'"],
        hashes: [`sha256-${createHash('sha256').update(DISPLAY_SCRIPT).digest('base64')}`],
      },
      // The carousels write a <style> and style="" from the content's breakpoints, inside React: no hash can cover
      // them.
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  vite: {
    // LightningCSS (which Vite 8 already uses to minify) also transforms: it resolves the custom media of
    // src/styles/breakpoints.css, the site's breakpoints, which no browser reads natively yet.
    css: { transformer: 'lightningcss', lightningcss: { drafts: { customMedia: true } } },
    // What `npm start` serves from the project: never Astro's cache (.astro/: the session's rebuild secret, the data
    // store), env files or credentials. Vite's own list is repeated because setting `deny` replaces it.
    server: {
      fs: {
        deny: [
          '.env',
          '.env.*',
          '*.{crt,pem,key,p12,pfx,cer,der}',
          '.npmrc',
          '.yarnrc.yml',
          '**/.git/**',
          '**/.astro/**',
          '**/*service-account*.json',
          '**/*firebase-adminsdk*.json',
          '**/credentials*.json',
        ],
      },
    },
    optimizeDeps: {
      // Server-only packages that Vite's scan finds in the .tsx under src/ (mails, server code) and would otherwise
      // bundle for the browser at every cold start (8–10 s of CPU): no page's script imports them.
      exclude: ['firebase-admin', 'nodemailer', '@react-email/components', 'sanitize-html', 'htmlparser2'],
      // What it bundles in advance: `islandDependencies`, under `astro dev` only.
    },
  },
  // Atkinson Hyperlegible (made for low vision) from our origin; the fonts API's metric-matched fallback
  // keeps text from moving when the font arrives (a layout shift of 0.15 on every page without it).
  fonts: [
    {
      provider: fontProviders.local(),
      name: 'Atkinson Hyperlegible Next',
      cssVariable: '--font-atkinson',
      fallbacks: ['system-ui', 'sans-serif'],
      options: {
        variants: [
          { src: [atkinson(400, 'normal')], weight: 400, style: 'normal' },
          { src: [atkinson(400, 'italic')], weight: 400, style: 'italic' },
          { src: [atkinson(700, 'normal')], weight: 700, style: 'normal' },
        ],
      },
    },
  ],
  // Every server variable is read at run time (`access: 'secret'`, never inlined), secret or not: `npm run build` runs
  // on its own embedded database, whose address must not end up in the function. What each one is: .env.example.
  env: {
    schema: {
      FIREBASE_PROJECT_ID: atRunTime,
      FIREBASE_CLIENT_EMAIL: atRunTime,
      FIREBASE_PRIVATE_KEY: atRunTime,
      FIRESTORE_EMULATOR_HOST: atRunTime,
      STRIPE_SECRET_KEY: atRunTime,
      STRIPE_WEBHOOK_SECRET: atRunTime,
      STRIPE_API_BASE: atRunTime,
      ASSOCIATION_OBJECT: atRunTime,
      ASSOCIATION_SIGNATORY: atRunTime,
      ASSOCIATION_REGISTRATION: atRunTime,
      REBUILD_SECRET: atRunTime,
      NETLIFY_BUILD_HOOK_URL: atRunTime,
      SMTP_URL: atRunTime,
      MAIL_FROM: atRunTime,
      ASSOCIATION_EMAIL: atRunTime,
      // The host the generated legal pages name (docs/content.md), read when they are built; Netlify's when unset.
      LEGAL_HOST: envField.string({ context: 'server', access: 'public', optional: true }),
      // The staff space's sign-in (docs/espace.md): the web API key, and the Auth emulator of `npm start`.
      FIREBASE_API_KEY: atRunTime,
      FIREBASE_AUTH_EMULATOR_HOST: atRunTime,
      PUBLIC_STRIPE_PUBLISHABLE_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
    },
  },
});
