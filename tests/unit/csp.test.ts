/**
 * The Content-Security-Policy helpers (scripts/lib/csp.ts): what a page is
 * found to use, whether a policy allows it, and the union rule of netlify.toml.
 * The audit must be able to fail: each kind of blocked use is shown failing.
 */
import { describe, expect, it } from 'vitest';
import {
  allowsInline,
  allowsUrl,
  auditPage,
  cspRules,
  effectiveSources,
  hashSource,
  pageUsage,
  parsePolicy,
  policyFor,
  serializePolicy,
  unionPolicy,
  urlPathOf,
  type PageUsage,
} from '../../scripts/lib/csp.ts';

const SITE = 'https://petitspas.example';
const INLINE = 'console.log("bonjour")';
const PAGE = policyFor('page', [hashSource(INLINE)]);
const DONATION = policyFor('donation', [hashSource(INLINE)]);

const html = (body: string) => `<!doctype html><html lang="fr"><head></head><body>${body}</body></html>`;

describe('pageUsage', () => {
  it('finds inline scripts and styles, and the URLs each directive governs', () => {
    const usage = pageUsage(
      'ecole/index.html',
      html(
        `<script>${INLINE}</script><script type="application/ld+json">{"a":1}</script>` +
          '<script type="module" src="/_astro/a.js"></script><link rel="modulepreload" href="/_astro/b.js">' +
          '<link rel="stylesheet" href="/_astro/c.css"><style>p{color:red}</style>' +
          '<img src="https://images.example/x.png" srcset="/y.png 1x, /z.png 2x"><iframe src="https://www.youtube-nocookie.com/embed/1"></iframe>' +
          '<form method="post" action="/api/newsletter"></form><astro-island component-url="/_astro/I.js" renderer-url="/_astro/client.js"></astro-island>',
      ),
    );
    expect(usage.path).toBe('/ecole/');
    expect(usage.inlineScripts).toEqual([INLINE]);
    expect(usage.inlineStyles).toEqual(['p{color:red}']);
    expect(usage.urls).toEqual({
      'script-src': ['/_astro/a.js', '/_astro/b.js', '/_astro/I.js', '/_astro/client.js'],
      'style-src': ['/_astro/c.css'],
      'img-src': ['https://images.example/x.png', '/y.png', '/z.png'],
      'frame-src': ['https://www.youtube-nocookie.com/embed/1'],
      'form-action': ['/api/newsletter'],
    });
  });

  it('follows the modules a page loads to the origins their code names', () => {
    const usage = pageUsage(
      'soutenir/index.html',
      html('<script type="module">import "/_astro/d.js";</script>'),
      (url) => (url === '/_astro/d.js' ? ['https://js.stripe.com'] : []),
    );
    expect(usage.scriptOrigins).toEqual(['https://js.stripe.com']);
  });

  it('maps dist/ files to the URL paths Netlify serves them at', () => {
    expect(urlPathOf('index.html')).toBe('/');
    expect(urlPathOf('actualites/rentree/index.html')).toBe('/actualites/rentree/');
    expect(urlPathOf('404.html')).toBe('/404.html');
  });
});

describe('policy checks', () => {
  it('allows an inline script by its hash only', () => {
    expect(allowsInline(PAGE, 'script-src', INLINE)).toBe(true);
    expect(allowsInline(PAGE, 'script-src', `${INLINE};`)).toBe(false);
    // 'unsafe-inline' is ignored by browsers next to a hash.
    expect(allowsInline(parsePolicy(`script-src 'unsafe-inline' ${hashSource('x')}`), 'script-src', INLINE)).toBe(
      false,
    );
    expect(allowsInline(parsePolicy("script-src 'unsafe-inline'"), 'script-src', INLINE)).toBe(true);
  });

  it('matches origins, wildcards and schemes like a browser', () => {
    expect(allowsUrl(PAGE, 'script-src', '/_astro/a.js', SITE)).toBe(true);
    expect(allowsUrl(PAGE, 'script-src', 'https://js.stripe.com/endive/stripe.js', SITE)).toBe(false);
    expect(allowsUrl(DONATION, 'script-src', 'https://js.stripe.com/endive/stripe.js', SITE)).toBe(true);
    expect(allowsUrl(DONATION, 'frame-src', 'https://b.js.stripe.com/x', SITE)).toBe(true);
    expect(allowsUrl(DONATION, 'frame-src', 'https://evil.example/js.stripe.com', SITE)).toBe(false);
    expect(allowsUrl(PAGE, 'img-src', 'https://firebasestorage.googleapis.com/a.png', SITE)).toBe(true);
    expect(allowsUrl(PAGE, 'img-src', 'http://insecure.example/a.png', SITE)).toBe(false);
    expect(allowsUrl(PAGE, 'frame-src', 'https://player.vimeo.com/video/1', SITE)).toBe(true);
    expect(allowsUrl(PAGE, 'frame-src', 'https://www.youtube.com/embed/1', SITE)).toBe(false);
  });

  it('falls back to default-src for fetch directives only', () => {
    const policy = parsePolicy("default-src 'none'; style-src 'unsafe-inline'");
    expect(effectiveSources(policy, 'script-src')).toEqual(["'none'"]);
    expect(effectiveSources(policy, 'frame-ancestors')).toBeUndefined();
  });

  it('parses what it serializes', () => {
    expect(parsePolicy(serializePolicy(DONATION))).toEqual(DONATION);
  });
});

describe('the "/*" union', () => {
  const content = policyFor('content', []);
  const union = unionPolicy([PAGE, DONATION, content]);

  it('allows everything each exact policy allows, so sending both changes nothing', () => {
    for (const policy of [PAGE, DONATION, content]) {
      for (const directive of Object.keys(policy)) {
        const exact = effectiveSources(policy, directive) ?? [];
        if (exact.includes("'none'")) continue;
        for (const source of exact)
          expect(effectiveSources(union, directive), `${directive} ${source}`).toContain(source);
      }
    }
    expect(union['frame-ancestors']).toEqual(["'self'"]);
    expect(union['script-src']).not.toContain("'unsafe-inline'");
  });

  it('gives each page its exact policy in a later rule, Stripe only on the donation page', () => {
    const usage = (file: string): PageUsage => pageUsage(file, html(''));
    const rules = cspRules([
      usage('index.html'),
      usage('soutenir/index.html'),
      usage('soutenir/valide/index.html'),
      usage('contenu/schema/index.html'),
    ]);
    expect(rules.map((rule) => rule.for)).toEqual([
      '/*',
      '/',
      '/contenu/*',
      '/contenu',
      '/soutenir/',
      '/soutenir/valide/',
    ]);
    const policyOf = (path: string) => parsePolicy(rules.find((rule) => rule.for === path)?.policy ?? '');
    expect(policyOf('/soutenir/')['script-src']).toContain('https://js.stripe.com');
    expect(policyOf('/soutenir/valide/')['script-src']).not.toContain('https://js.stripe.com');
    expect(policyOf('/')['frame-ancestors']).toEqual(["'none'"]);
    expect(policyOf('/contenu/*')['frame-ancestors']).toEqual(["'self'"]);
    expect(policyOf('/contenu/*')['default-src']).toEqual(["'none'"]);
  });
});

describe('auditPage', () => {
  const clean = pageUsage('index.html', html(`<script>${INLINE}</script><img src="/a.svg">`));

  it('passes a page its policy allows', () => {
    expect(auditPage(clean, [PAGE], SITE)).toEqual([]);
  });

  it('reports a page without any policy', () => {
    expect(auditPage(clean, [], SITE)).toEqual(['/: no Content-Security-Policy']);
  });

  it('reports an inline script without its hash, in every policy that lacks it', () => {
    const page = pageUsage('index.html', html('<script>alert(1)</script>'));
    const problems = auditPage(page, [PAGE, DONATION], SITE);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(`inline script ${hashSource('alert(1)')} not allowed`);
  });

  it('reports a frame from a host nobody allowed', () => {
    const page = pageUsage('ecole/schema/index.html', html('<iframe src="https://docs.example/suivi"></iframe>'));
    expect(auditPage(page, [PAGE], SITE)).toEqual([
      '/ecole/schema/ (policy 1/1): frame-src blocks https://docs.example/suivi',
    ]);
  });

  it('reports Stripe.js on a page whose policy does not allow it, and an unknown origin in the JavaScript', () => {
    const page = { ...clean, scriptOrigins: ['https://js.stripe.com', 'https://tracker.example'] };
    const problems = auditPage(page, [PAGE], SITE);
    expect(problems).toContain(
      "/ (policy 1/1): script-src blocks https://js.stripe.com, which the page's JavaScript loads",
    );
    expect(problems.some((problem) => problem.includes('names https://tracker.example'))).toBe(true);
    expect(
      auditPage({ ...clean, scriptOrigins: ['https://js.stripe.com', 'https://react.dev'] }, [DONATION], SITE),
    ).toEqual([]);
  });

  it('reports style attributes under a policy without inline styles', () => {
    const page = pageUsage('index.html', html('<p style="color:red">x</p>'));
    expect(auditPage(page, [parsePolicy("default-src 'self'")], SITE)).toEqual([
      `/ (policy 1/1): style="" attributes need 'unsafe-inline' in style-src`,
    ]);
    expect(auditPage(page, [PAGE], SITE)).toEqual([]);
  });
});
