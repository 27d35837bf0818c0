/**
 * /robots.txt, built with the pages: every page may be indexed except the
 * donation return pages (a visitor's own outcome, no content), and the
 * sitemap's address follows the site's URL (SITE_URL, astro.config.mjs).
 */
import type { APIRoute } from 'astro';

/** Plain text robots.txt (RFC 9309) naming /sitemap-index.xml on this site's origin. */
export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('robots.txt needs the site URL (`site` in astro.config.mjs)');
  const sitemap = new URL('/sitemap-index.xml', site).href;
  const body = [
    'User-agent: *',
    'Disallow: /soutenir/annule',
    'Disallow: /soutenir/valide',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ];
  return new Response(body.join('\n'), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
