/**
 * The headers the demo build gives Netlify (after `npm run build`): Astro's Content-Security-Policy for
 * every page (hashes of its inline scripts, Stripe on the donation pages only, nothing remote on the demo
 * content), the security headers on static files (netlify.toml) and on every answer of the function (middleware),
 * the French refusal of a cross-site form post included.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { describe, expect, it } from 'vitest';
import { CONTENT_FILE_POLICY, SECURITY_HEADERS } from '../../src/lib/security-headers';
import { STRIPE_SOURCES } from '../../src/lib/csp';
import { siteAddress } from '../../scripts/lib/site-address';
import { builtPolicies, callBuiltFunction, parsePolicy } from '../fixtures/built-site';

const root = join(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const policies = builtPolicies(root);
const DONATION_PAGES = ['/soutenir', '/soutenir/annule', '/soutenir/valide'];
// An inline script: no src, and not a data block (JSON, JSON-LD, speculation rules), which needs no hash.
const INLINE_SCRIPT = new RegExp(
  String.raw`<script(?![^>]*\bsrc=)(?![^>]*type="(?:application\/(?:ld\+)?json|speculationrules)")` +
    String.raw`[^>]*>([\s\S]*?)<\/script>`,
  'g',
);

/** Built pages of dist/ (the /contenu/ documents are files editors publish, not pages): path → HTML. */
function builtPages(): Map<string, string> {
  const files = (readdirSync(dist, { recursive: true }) as string[]).filter(
    (file) => file.endsWith('.html') && !file.startsWith('contenu/'),
  );
  return new Map(
    files.map((file) => [
      `/${file.replace(/(^|\/)index\.html$/, '')}`.replace(/(.)\/$/, '$1'),
      readFileSync(join(dist, file), 'utf8'),
    ]),
  );
}

describe('Content-Security-Policy of the built pages', () => {
  const pages = builtPages();

  it(
    'gives every page a policy that allows its inline scripts by hash, never unsafe-inline or eval (WebAssembly on ' +
      '/recherche only)',
    () => {
      expect(pages.size).toBeGreaterThan(10);
      for (const [path, html] of pages) {
        const policy = policies.get(path);
        expect(policy, path).toBeDefined();
        const scripts = policy?.['script-src'] ?? [];
        expect(scripts, path).toContain("'self'");
        expect(
          scripts.filter((source) => /unsafe-(inline|eval)/.test(source)),
          path,
        ).toEqual(path === '/recherche' ? ["'wasm-unsafe-eval'"] : []);
        const inline = [...html.matchAll(INLINE_SCRIPT)];
        for (const [, code] of inline) {
          const hash = `'sha256-${createHash('sha256')
            .update(code ?? '')
            .digest('base64')}'`;
          expect(scripts, `${path}: inline script "${code?.slice(0, 40)}…"`).toContain(hash);
        }
        expect(policy?.['frame-ancestors'], path).toEqual(["'none'"]);
        expect(policy?.['object-src'], path).toEqual(["'none'"]);
        expect(policy?.['default-src'], path).toEqual(["'self'"]);
        // The demo content's pictures and frames are all on our origin.
        expect(policy?.['img-src'], path).toEqual(["'self'", 'data:']);
        expect(html, `${path}: the policy is a header, not a <meta>`).not.toMatch(
          /http-equiv="content-security-policy"/i,
        );
      }
    },
  );

  it('allows Stripe.js, its frames and its API on the donation pages only', () => {
    for (const [path] of pages) {
      const policy = policies.get(path) ?? {};
      const donation = DONATION_PAGES.includes(path);
      const stripe = (sources: string[] | undefined) =>
        (sources ?? []).filter((source) => source.includes('stripe.com'));
      expect(stripe(policy['script-src']), path).toEqual(donation ? STRIPE_SOURCES.script : []);
      expect(stripe(policy['frame-src']), path).toEqual(donation ? STRIPE_SOURCES.frame : []);
      expect(stripe(policy['connect-src']), path).toEqual(donation ? STRIPE_SOURCES.connect : []);
      if (!donation) expect(policy['frame-src'], path).toEqual(["'self'"]);
    }
  });

  it('lets the donation form posted without JavaScript follow its 303 to Stripe’s page: /soutenir only', () => {
    for (const [path] of pages) {
      const form = ['/soutenir', '/soutenir/annule'].includes(path);
      expect(policies.get(path)?.['form-action'], path).toEqual(
        form ? ["'self'", ...STRIPE_SOURCES.form] : expect.not.arrayContaining(STRIPE_SOURCES.form),
      );
    }
  });
});

describe('security headers', () => {
  it('netlify.toml gives static files the security headers, and a policy to content files only', async () => {
    const { headers, errors } = await parseAllHeaders({
      headersFiles: [],
      netlifyConfigPath: join(root, 'netlify.toml'),
      configHeaders: [],
      minimal: false,
    });
    expect(errors).toEqual([]);
    expect(headers.find((rule) => rule.for === '/*')?.values).toEqual(SECURITY_HEADERS);
    const withPolicy = headers.filter((rule) => 'Content-Security-Policy' in rule.values).map((rule) => rule.for);
    expect(withPolicy).toEqual(['/_astro/*', '/contenu/*']);
    const policyOf = (path: string) =>
      headers.find((rule) => rule.for === path)?.values['Content-Security-Policy'] ?? '';
    expect(policyOf('/_astro/*')).toBe(CONTENT_FILE_POLICY);
    const contenu = parsePolicy(policyOf('/contenu/*'));
    expect(contenu['default-src']).toEqual(["'none'"]);
    expect(contenu['frame-ancestors']).toEqual(["'self'"]);
    expect(contenu.sandbox).toEqual([]);
  });

  it('serves content files (/_astro/, /contenu/, /medias/) where no script runs, types never guessed', async () => {
    const { headers } = await parseAllHeaders({
      headersFiles: [],
      netlifyConfigPath: join(root, 'netlify.toml'),
      configHeaders: [],
      minimal: false,
    });
    /** netlify.toml's headers for a static file's path, as Netlify merges the rules that match it. */
    const staticHeaders = (path: string) =>
      Object.fromEntries(
        (headers as Header[])
          .filter((rule) => rule.forRegExp.test(path))
          .flatMap((rule) => Object.entries(rule.values)),
      );
    const files = readdirSync(join(dist, '_astro')).filter((file) =>
      /\.(svg|png|jpe?g|webp|avif|gif|woff2?)$/.test(file),
    );
    expect(files.length).toBeGreaterThan(0);
    const contents = (readdirSync(join(dist, 'contenu'), { recursive: true }) as string[]).filter((file) =>
      file.includes('.'),
    );
    expect(contents.length).toBeGreaterThan(0);
    for (const path of [...files.map((file) => `/_astro/${file}`), ...contents.map((file) => `/contenu/${file}`)]) {
      const values = staticHeaders(path);
      const policy = parsePolicy(values['Content-Security-Policy'] ?? '');
      expect(policy['default-src'], path).toEqual(["'none'"]);
      expect(policy['script-src'], path).toBeUndefined();
      expect(policy.sandbox, path).toEqual([]);
      expect(values['X-Content-Type-Options'], path).toBe('nosniff');
    }
    // /medias/ is the function's: an unknown key's answer carries the same policy (a stored picture's: the e2e test).
    const medias = await callBuiltFunction(root, new Request(new URL('/medias/inconnue.svg', siteAddress())));
    expect(medias.status).toBe(404);
    expect(medias.headers.get('content-security-policy')).toBe(CONTENT_FILE_POLICY);
    expect(medias.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the function answers an unknown path with the not-found page, its policy and the security headers', async () => {
    const response = await callBuiltFunction(root, new Request(new URL('/nimporte-quoi', siteAddress())));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oups, mais il n'y a rien ici");
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
    const policy = parsePolicy(response.headers.get('content-security-policy') ?? '');
    expect(policy['script-src']).toContain("'self'");
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
  });

  it('gives the endpoints’ JSON answers and redirects the security headers', async () => {
    const origin = new URL(siteAddress()).origin;
    const json = await callBuiltFunction(
      root,
      new Request(`${origin}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"x"}',
      }),
    );
    expect(json.status).toBe(400);
    const redirect = await callBuiltFunction(
      root,
      new Request(`${origin}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: 'email=x',
      }),
    );
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('/#newsletter-email');
    for (const response of [json, redirect]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name), name).toBe(value);
    }
  });

  it('refuses a cross-site post (403) in French, with the security headers, and the space’s on /espace', async () => {
    const forged = (path: string) =>
      callBuiltFunction(
        root,
        new Request(new URL(path, siteAddress()), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://site-malveillant.example' },
          body: 'email=victime%40exemple.fr&role=admin',
        }),
      );
    for (const path of ['/api/newsletter', '/espace/roles']) {
      const response = await forged(path);
      expect(response.status, path).toBe(403);
      expect(await response.text(), path).toBe('Cette demande vient d’un autre site : elle est refusée.');
      expect(response.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name), name).toBe(value);
    }
    const space = await forged('/espace/roles');
    expect(space.headers.get('cache-control')).toBe('no-store');
    expect(space.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });
});
