/** What pages add to astro.config.mjs's policy through `Astro.csp` (docs/security.md); no-ops under `astro dev`, which has none. */
import type { APIContext } from 'astro';
import { Parser } from 'htmlparser2';

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
};

/** Directives a page may add sources to. */
export type SourceDirective = 'img-src' | 'frame-src' | 'connect-src' | 'media-src' | 'worker-src';

/**
 * Adds `sources` to one directive of the page's policy; nothing when `sources` is empty. Call it in a
 * page's frontmatter: astro 7.3 streams pages, so a component's or middleware's call comes too late.
 */
export function allowSources(csp: PageCsp, directive: SourceDirective, sources: Iterable<string>): void {
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

/** Lets a page run WebAssembly (Pagefind): `'wasm-unsafe-eval'` in its script-src, never `'unsafe-eval'`. */
export function allowWasm(csp: PageCsp): void {
  csp?.insertScriptResource("'wasm-unsafe-eval'");
}

/** `https://host[:port]` of an absolute http(s) URL; undefined for a site path, a data: URL or garbage. */
export function remoteOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url.trim())) return undefined;
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/** Remote origins of the pictures and frames some content shows. */
export interface ContentOrigins {
  /** Origins of `src` fields (img, picto, imgContenu…) and of <img> in HTML fields, sorted. */
  pictures: string[];
  /** Origins of <iframe> in HTML fields (the videos editors embed), sorted. */
  frames: string[];
}

/**
 * Remote origins of the pulled documents' pictures and frames, HTML fields read through `toHtml` (the
 * sanitiser: a dropped iframe needs no source); `schema` keys skipped (allowed on /ecole/schema only).
 */
export function contentOrigins(documents: unknown[], toHtml: (html: string) => string): ContentOrigins {
  const pictures = new Set<string>();
  const frames = new Set<string>();
  const add = (set: Set<string>, url: string | undefined) => {
    const origin = url === undefined ? undefined : remoteOrigin(url);
    if (origin) set.add(origin);
  };
  const readHtml = (html: string) => {
    const parser = new Parser({
      onopentag(name, attributes) {
        if (name === 'img') {
          add(pictures, attributes.src);
          for (const candidate of (attributes.srcset ?? '').split(',')) add(pictures, candidate.trim().split(/\s+/)[0]);
        } else if (name === 'iframe') add(frames, attributes.src);
      },
    });
    parser.write(html);
    parser.end();
  };
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (key === 'src') add(pictures, value);
      else if (/<(img|iframe)\b/i.test(value)) readHtml(toHtml(value));
    } else if (Array.isArray(value)) value.forEach((item) => visit(item, key));
    else if (value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) if (name !== 'schema') visit(item, name);
    }
  };
  documents.forEach((document) => visit(document, ''));
  return { pictures: [...pictures].sort(), frames: [...frames].sort() };
}
