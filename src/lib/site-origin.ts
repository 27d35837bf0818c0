/** The site's own public address, for links that leave the site (mails, Stripe's return pages). */

/**
 * The site's public origin without a trailing slash (`https://www.association.fr`): astro.config.mjs `site`, from
 * SITE_URL or Netlify's URL (scripts/lib/site-address.ts), fixed at build time. Never the request's Host or Origin,
 * which whoever sends the request chooses.
 */
export function siteOrigin(): string {
  return new URL(import.meta.env.SITE ?? 'http://127.0.0.1:4321').origin;
}
