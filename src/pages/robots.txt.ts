/** /robots.txt: every page may be indexed except the donation return pages; the sitemap on the site's origin. */
import type { APIRoute } from 'astro';

/** Plain text robots.txt (RFC 9309) naming /sitemap-index.xml on `site` (astro.config.mjs). */
export const GET: APIRoute = ({ site }) => {
  const body = `User-agent: *
Disallow: /soutenir/annule
Disallow: /soutenir/valide

Sitemap: ${new URL('/sitemap-index.xml', site).href}
`;
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
