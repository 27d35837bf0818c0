/**
 * netlify/edge-functions/rate-limit.ts covers exactly the on-demand endpoints that write or pay; islands say 429 in
 * French.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import rateLimit, { config } from '../../netlify/edge-functions/rate-limit.ts';
import { postJson } from '../../src/lib/post-json.ts';

const pages = join(import.meta.dirname, '../../src/pages');

/** Route of every on-demand endpoint (`export const prerender = false`) under src/pages. */
function onDemandRoutes(): string[] {
  return (readdirSync(pages, { recursive: true }) as string[])
    .filter((file) => /\.(ts|js)$/.test(file))
    .filter((file) => /export const prerender = false/.test(readFileSync(join(pages, file), 'utf8')))
    .map(
      (file) =>
        `/${file
          .replace(/\.(ts|js)$/, '')
          .split('\\')
          .join('/')}`,
    )
    .sort();
}

/**
 * Whether Netlify runs the edge function (and so its rate limit) for a URL: its path, as a URL
 * parser leaves it (dot segments resolved, percent-encoding kept), matches one of `config.path`
 * and none of `config.excludedPath`, both URLPattern pathnames (Netlify's declaration syntax).
 */
function isLimited(url: string): boolean {
  const { pathname } = new URL(url, 'https://site.example');
  const matches = (patterns: readonly string[]) =>
    patterns.some((path) => new URLPattern({ pathname: path }).test({ pathname }));
  return matches(config.path) && !matches(config.excludedPath);
}

describe('rate limit', () => {
  // The last one only redirects other /soutenir/<value> to /soutenir.
  // The staff space's endpoints need a session (only its sign-in page, an .astro page, is limited: see below).
  const exempt = [
    '/api/stripe-webhook',
    '/soutenir/[...autre]',
    '/espace/deconnexion',
    // « Rester connecté »: renews a session that is still valid.
    '/espace/session',
    '/espace/preinscriptions/export.csv',
    '/espace/lettre/export.csv',
    '/espace/dons/export.csv',
    '/espace/dons/recu/[id]',
    '/espace/dons/recu-annuel/[id]',
    '/espace/courriels',
    // Pictures uploaded in the space, read by the pull and by browsers (a GET that writes nothing).
    '/medias/[key]',
  ];

  it('limits every write and payment endpoint and the publish password, never the Stripe webhook', () => {
    const limited = onDemandRoutes().filter((route) => !exempt.includes(route));
    expect(limited).toEqual([
      '/api/don',
      '/api/newsletter',
      '/api/preinscription',
      '/api/rebuild',
      '/api/recu',
      '/create-checkout-session',
    ]);
    expect(limited.filter((route) => !isLimited(route))).toEqual([]);
    expect(exempt.filter(isLimited)).toEqual([]);
    expect(['/', '/ecole', '/soutenir/', '/actualites/rentree-2026'].filter(isLimited)).toEqual([]);
  });

  it.each([
    '/api/newsletter/',
    '/api/%6Eewsletter',
    '/api/./newsletter',
    '/api/x/../newsletter',
    '/api//newsletter',
    '/api/NEWSLETTER',
    '/api/preinscription/',
    '/api/pr%65inscription',
    '/api/don/',
    '/api/recu/',
    '/create-checkout-session/',
    '/api/stripe-webhook/',
  ])('limits another spelling of a route too: %s', (path) => {
    expect(isLimited(path)).toBe(true);
  });

  it('limits the staff space’s sign-in page (password guessing), not the pages behind a session', () => {
    expect(['/espace/connexion', '/espace/connexion/', '/espace/connexion?suite=/espace'].filter(isLimited)).toEqual([
      '/espace/connexion',
      '/espace/connexion/',
      '/espace/connexion?suite=/espace',
    ]);
    expect(['/espace', '/espace/preinscriptions', '/espace/deconnexion'].filter(isLimited)).toEqual([]);
  });

  it('counts per IP address over a one-minute window', () => {
    expect(config.rateLimit).toMatchObject({ windowSize: 60, windowLimit: 20 });
    expect(config.rateLimit.aggregateBy).toContain('ip');
  });

  it('hands every request on unchanged', () => {
    expect(rateLimit()).toBeUndefined();
  });

  it('turns a 429 from Netlify (an HTML page) into a French message for the visitor', async () => {
    vi.stubGlobal('fetch', async () => new Response('<h1>Too Many Requests</h1>', { status: 429 }));
    try {
      const result = await postJson('/api/newsletter', { email: 'a@b.fr', consentement: true });
      expect(result).toMatchObject({
        ok: false,
        status: 429,
        message:
          'Trop de demandes en peu de temps. Patientez une minute, puis réessayez : ce que vous avez saisi est ' +
          'conservé.',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
