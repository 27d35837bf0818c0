/** `npm start`'s address (astro.config.mjs's server): the canonical site of a build made outside Netlify. */
export const LOCAL_SITE = 'http://localhost:4321';

/**
 * The site's public address, for canonical links, the sitemap, robots.txt and the news feed: SITE_URL, else the `URL`
 * that Netlify sets in its builds (the site's main address, its custom domain or its netlify.app subdomain:
 * https://docs.netlify.com/configure-builds/environment-variables/), else LOCAL_SITE for development and tests. Never
 * a fixed public host: a build must not name another site.
 */
export function siteAddress(env: NodeJS.ProcessEnv = process.env): string {
  return env.SITE_URL?.trim() || env.URL?.trim() || LOCAL_SITE;
}
