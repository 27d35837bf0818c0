/** What pages add to astro.config.mjs's policy through `Astro.csp` (docs/security.md); no-ops under `astro dev`. */
import type { APIContext } from 'astro';

/** `Astro.csp` / `context.csp` (undefined when no policy applies). */
export type PageCsp = APIContext['csp'];

/** Stripe.js and Embedded Checkout (Stripe's CSP guide: "If you're using Stripe.js", "Checkout"). */
export const STRIPE_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: [
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    'https://checkout.stripe.com',
  ],
  connect: ['https://api.stripe.com', 'https://checkout.stripe.com'],
  /** Where the donation form posted without JavaScript is redirected: Stripe's hosted page. */
  form: ['https://checkout.stripe.com'],
};

/**
 * Adds `sources` to one directive of the page's policy (none: nothing); in a page's frontmatter, as astro 7.3 streams
 * the rest too late.
 */
export function allowSources(
  csp: PageCsp,
  directive: 'img-src' | 'frame-src' | 'connect-src' | 'media-src' | 'worker-src' | 'form-action',
  sources: Iterable<string>,
): void {
  const list = [...new Set(sources)];
  if (csp && list.length > 0) csp.insertDirective(`${directive} ${list.join(' ')}`);
}

/** Lets the page load Stripe.js, show its frames and call its API (the donation pages only). */
export function allowStripe(csp: PageCsp): void {
  if (!csp) return;
  for (const source of STRIPE_SOURCES.script) csp.insertScriptResource(source);
  allowSources(csp, 'frame-src', STRIPE_SOURCES.frame);
  allowSources(csp, 'connect-src', STRIPE_SOURCES.connect);
}

/**
 * Lets the page's donation form, posted without JavaScript, follow its 303 to Stripe's hosted page: browsers apply
 * `form-action` to a form's redirects too (the policy's `'self'` stays).
 */
export function allowStripeFormRedirect(csp: PageCsp): void {
  allowSources(csp, 'form-action', STRIPE_SOURCES.form);
}

/** Lets a page run WebAssembly (Pagefind): `'wasm-unsafe-eval'` in its script-src, never `'unsafe-eval'`. */
export function allowWasm(csp: PageCsp): void {
  csp?.insertScriptResource("'wasm-unsafe-eval'");
}

/** `https://host[:port]` of an absolute http(s) URL; undefined for a site path, a data: URL or garbage. */
export function remoteOrigin(url: string): string | undefined {
  return /^https?:\/\//i.test(url.trim()) ? URL.parse(url.trim())?.origin : undefined;
}
