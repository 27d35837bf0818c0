// @ts-check
import { defineConfig, envField } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';

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
  // Card donations (README, "Donations (Stripe)"). All optional: without them the payment
  // endpoints answer 503. The server code reads the two secrets from process.env at each
  // request (src/lib/stripe.server.ts), so they are never inlined in any bundle.
  env: {
    schema: {
      STRIPE_SECRET_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_WEBHOOK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      PUBLIC_STRIPE_PUBLISHABLE_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
    },
  },
});
