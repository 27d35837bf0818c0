// @ts-check
import { defineConfig, envField, fontProviders } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';

/**
 * A font file of @fontsource/atkinson-hyperlegible-next (latin subset, woff2).
 * @param {400 | 700} weight
 * @param {'normal' | 'italic'} style
 */
const atkinson = (weight, style) =>
  `./node_modules/@fontsource/atkinson-hyperlegible-next/files/atkinson-hyperlegible-next-latin-${weight}-${style}.woff2`;

/** Built pages kept out of sitemap-index.xml: the not-found page and the donation return pages. */
const NOT_IN_SITEMAP = /^\/(404|soutenir\/annule|soutenir\/valide)\/?$/;

/**
 * Static site (every page prerendered from the pulled JSON in src/data/);
 * the Netlify adapter is there for the on-demand endpoints of later issues
 * (`export const prerender = false` → Netlify Functions).
 */
export default defineConfig({
  site: process.env.SITE_URL ?? 'https://petitspas-ensemble.netlify.app',
  output: 'static',
  // No Netlify edge-function or image emulation in dev: they need the network, and the site uses neither.
  adapter: netlify({ devFeatures: { edgeFunctions: false, images: false, environmentVariables: false } }),
  integrations: [react(), sitemap({ filter: (page) => !NOT_IN_SITEMAP.test(new URL(page).pathname) })],
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  server: { host: '127.0.0.1', port: 4321 },
  devToolbar: { enabled: false },
  // The site's typeface (DESIGN.md: Atkinson Hyperlegible, made for low vision), served from our origin.
  // Astro's fonts API writes the @font-face rules, preloads the regular and bold files (<Font preload>
  // in BaseLayout) and adds a fallback with the same metrics, so that text does not move when the font
  // arrives (the benchmark measured a layout shift of 0.15 on every page without it).
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
  // Card donations (docs/donations.md). All optional: without them the payment
  // endpoints answer 503. The server code reads the two secrets from process.env at each
  // request (src/lib/stripe.server.ts), so they are never inlined in any bundle.
  env: {
    schema: {
      STRIPE_SECRET_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_WEBHOOK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      PUBLIC_STRIPE_PUBLISHABLE_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      // The tax receipt (docs/donations.md): read from process.env by /api/recu at each request.
      ASSOCIATION_OBJECT: envField.string({ context: 'server', access: 'public', optional: true }),
      ASSOCIATION_SIGNATORY: envField.string({ context: 'server', access: 'public', optional: true }),
    },
  },
});
