/**
 * The rate limit of netlify/edge-functions/rate-limit.ts covers exactly the
 * on-demand endpoints that write or pay, and answers 429 messages in French
 * in the islands (issue 5, "Security").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import rateLimit, { config } from '../../netlify/edge-functions/rate-limit.ts';
import { MESSAGES } from '../../src/lib/forms.ts';
import { postJson } from '../../src/lib/submit.ts';

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

describe('rate limit', () => {
  it('limits every write, payment and receipt endpoint, and neither the Stripe webhook nor the rebuild hook', () => {
    // The last one only redirects other /soutenir/<value> to /soutenir.
    const exempt = ['/api/rebuild', '/api/stripe-webhook', '/soutenir/[...autre]'];
    const limited = onDemandRoutes().filter((route) => !exempt.includes(route));
    expect(limited).toEqual([
      '/api/don',
      '/api/newsletter',
      '/api/preinscription',
      '/api/recu',
      '/create-checkout-session',
    ]);
    expect([...config.path].sort()).toEqual(limited);
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
      expect(result).toMatchObject({ ok: false, status: 429, message: MESSAGES.tooManyRequests });
      expect(MESSAGES.tooManyRequests).toBe(
        'Trop de demandes en peu de temps. Patientez une minute, puis réessayez : ce que vous avez saisi est conservé.',
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
