/**
 * The Content-Security-Policy that netlify.toml serves, against the built
 * site (issue 5, "Security"): every inline script and every origin the pages
 * of dist/ use is allowed, whether Netlify sends every matching value or only
 * the last one; the policy is as strict as it claims; and netlify.toml's
 * generated block is what `npm run csp` would write for this build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Header } from '@netlify/headers-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditDist,
  currentNetlifyBlock,
  headerValuesFor,
  netlifyHeaderRules,
  parsePolicy,
  renderNetlifyBlock,
  scanDist,
  siteOrigin,
  STRIPE_SOURCES,
  type PageUsage,
} from '../../scripts/lib/csp.ts';

const root = join(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const netlifyToml = join(root, 'netlify.toml');

let rules: Header[];
let pages: PageUsage[];

beforeAll(async () => {
  rules = await netlifyHeaderRules(netlifyToml);
  pages = scanDist(dist);
});

/** The policies a browser gets with `path`: every matching value (all enforced). */
const policiesFor = (path: string) => headerValuesFor(rules, path, 'Content-Security-Policy').map(parsePolicy);

describe('Content-Security-Policy of netlify.toml against dist/', () => {
  it('is what `npm run csp` generates for this build', () => {
    const expected = renderNetlifyBlock(pages);
    expect(currentNetlifyBlock(readFileSync(netlifyToml, 'utf8')), 'run `npm run build && npm run csp`').toBe(expected);
  });

  it('allows every inline script, script, style, image, frame, form target and script origin the pages use', async () => {
    expect(pages.length).toBeGreaterThan(15);
    expect(pages.some((page) => page.inlineScripts.length > 0)).toBe(true);
    expect(await auditDist(dist, netlifyToml, siteOrigin())).toEqual([]);
  });

  it('loads Stripe.js on the donation pages (the form and the cancel page), and it is allowed there only', () => {
    const withForm = ['/soutenir/', '/soutenir/annule/'];
    for (const path of withForm) {
      expect(pages.find((page) => page.path === path)?.scriptOrigins, path).toContain('https://js.stripe.com');
    }
    for (const page of pages) {
      const exact = policiesFor(page.path).at(-1);
      const allowsStripe = STRIPE_SOURCES.script.some((source) => exact?.['script-src']?.includes(source));
      expect(allowsStripe, page.path).toBe(withForm.includes(page.path));
    }
  });

  it('never allows inline or evaluated scripts, plugins or a foreign <base>, on every page and unknown path', () => {
    for (const path of [...pages.map((page) => page.path), '/nimporte-quoi']) {
      const policies = policiesFor(path);
      expect(policies.length, path).toBeGreaterThan(0);
      for (const policy of policies) {
        const scripts = policy['script-src'] ?? policy['default-src'] ?? [];
        expect(scripts, path).not.toContain("'unsafe-inline'");
        expect(scripts, path).not.toContain("'unsafe-eval'");
        expect(
          scripts.some((source) => source === '*' || source === 'https:' || source === 'data:'),
          path,
        ).toBe(false);
        expect(policy['object-src'] ?? policy['default-src'], path).toEqual(["'none'"]);
        expect(policy['base-uri'], path).toBeDefined();
      }
    }
  });

  it("forbids framing every page (frame-ancestors 'none'), except the documents our schema frame shows", () => {
    for (const page of pages) {
      const expected = page.path.startsWith('/contenu/') ? ["'self'"] : ["'none'"];
      expect(policiesFor(page.path).at(-1)?.['frame-ancestors'], page.path).toEqual(expected);
    }
    const schemaPage = pages.find((page) => page.path === '/ecole/schema/');
    const frame = schemaPage?.urls['frame-src']?.[0];
    expect(frame).toMatch(/^\/contenu\//);
    expect(policiesFor(frame as string).at(-1)?.['frame-ancestors']).toEqual(["'self'"]);
  });

  it('keeps the other security headers on every page', () => {
    for (const name of [
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'Referrer-Policy',
      'Permissions-Policy',
    ]) {
      for (const page of pages) expect(headerValuesFor(rules, page.path, name), `${name} ${page.path}`).toHaveLength(1);
    }
  });
});
