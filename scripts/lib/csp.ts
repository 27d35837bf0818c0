/**
 * The site's Content-Security-Policy (issue 5, "Security"): what each kind of
 * page may load, the audit proving that the policies netlify.toml serves allow
 * everything the built pages use, and the generated block of netlify.toml.
 *
 * Three policies, one per kind of built document:
 * - `page`: every page but the donation page. Only our origin; inline
 *   scripts by their SHA-256 hash (never 'unsafe-inline' for scripts); inline
 *   styles allowed, because some are generated from the content (the
 *   carousels' breakpoints) and would change their hash at every editor's
 *   rebuild, and editors' HTML has no style left after sanitising; images
 *   from any https host (editors link pictures, e.g. Firebase Storage);
 *   frames from our origin and the video hosts editors may embed; no framing.
 * - `donation` (/soutenir/): the same plus Stripe.js, its frames and API.
 * - `content` (/contenu/*): documents editors publish as files, such as the
 *   administrative steps page the /ecole/schema frame shows: no script at all,
 *   their own inline styles, framed by our pages only.
 *
 * How the rules are laid out (see `renderNetlifyBlock`): Netlify applies every
 * rule whose path matches, and whether two values of one header replace or
 * add to each other is not documented the same way everywhere. The "/*" rule
 * therefore carries the union of the three policies, and each page gets its
 * own exact policy from a more specific rule listed after it; every exact
 * policy allows a subset of the union, so a browser receiving both (both are
 * then enforced) and a browser receiving only the later one behave the same.
 * Unknown paths (the not-found page) get the union.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { Parser } from 'htmlparser2';
import { ALLOWED_IFRAME_HOSTS } from '../../src/lib/html.server.ts';

/** A policy: directive name → sources, e.g. `{ 'script-src': ["'self'"] }`. */
export type Policy = Record<string, string[]>;

/** The kinds of built documents, each with its own policy (see the module comment). */
export type PolicyKind = 'page' | 'donation' | 'content';

/** URL paths (with their trailing slash) of the pages that take card donations with Stripe.js (spec §7). */
export const DONATION_PATHS = ['/soutenir/', '/soutenir/annule/'];

/** Stripe.js and Embedded Checkout (Stripe's CSP guide, "If you're using Stripe.js" and "Checkout"). */
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

/**
 * Origins that appear in the JavaScript the pages load but are never
 * fetched: links inside library error messages. Any other origin found in a
 * page's JavaScript makes the audit fail until it is allowed or listed here.
 */
export const DOCUMENTATION_ORIGINS = ['https://react.dev', 'https://docs.stripe.com', 'https://json-schema.org'];

/** Origins the pages' JavaScript loads as scripts, with the directive that must allow them. */
export const SCRIPT_ORIGINS = ['https://js.stripe.com'];

const VIDEO_ORIGINS = ALLOWED_IFRAME_HOSTS.map((host) => `https://${host}`);

/**
 * The policy of one kind of document.
 * @param kind see the module comment.
 * @param scriptHashes `'sha256-…'` sources of the inline scripts of the site's pages (ignored for `content`).
 */
export function policyFor(kind: PolicyKind, scriptHashes: string[]): Policy {
  if (kind === 'content') {
    return {
      'default-src': ["'none'"],
      'style-src': ["'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'https:'],
      'font-src': ["'self'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'self'"],
    };
  }
  const donation = kind === 'donation';
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes, ...(donation ? STRIPE_SOURCES.script : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(donation ? STRIPE_SOURCES.connect : [])],
    'frame-src': ["'self'", ...VIDEO_ORIGINS, ...(donation ? STRIPE_SOURCES.frame : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * The union of several policies: every source any of them allows, per
 * directive. Directives missing from a policy fall back to its default-src,
 * so the union is taken on the effective source lists.
 */
export function unionPolicy(policies: Policy[]): Policy {
  const names = [...new Set(policies.flatMap((policy) => Object.keys(policy)))];
  const union: Policy = {};
  for (const name of names) {
    const sources = [...new Set(policies.flatMap((policy) => effectiveSources(policy, name) ?? []))];
    union[name] = sources.includes("'none'") && sources.length > 1 ? sources.filter((s) => s !== "'none'") : sources;
  }
  return union;
}

/** `Policy` → header value, directives in a stable order: `default-src 'self'; script-src …`. */
export function serializePolicy(policy: Policy): string {
  return Object.entries(policy)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** Header value → `Policy` (directive names lower-cased; a repeated directive keeps its first value, as browsers do). */
export function parsePolicy(value: string): Policy {
  const policy: Policy = {};
  for (const directive of value.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name && !(name.toLowerCase() in policy)) policy[name.toLowerCase()] = sources;
  }
  return policy;
}

/** Fetch directives that fall back to default-src when absent (CSP Level 3). */
const FALLS_BACK_TO_DEFAULT = new Set([
  'script-src',
  'style-src',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'object-src',
  'media-src',
  'worker-src',
  'manifest-src',
]);

/** The sources a policy applies to `directive`, following default-src; undefined = no restriction. */
export function effectiveSources(policy: Policy, directive: string): string[] | undefined {
  if (policy[directive]) return policy[directive];
  if (directive === 'frame-src' && policy['child-src']) return policy['child-src'];
  return FALLS_BACK_TO_DEFAULT.has(directive) ? policy['default-src'] : undefined;
}

/** `'sha256-…'` source of an inline script or style (the exact text between its tags). */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** What a built document uses, as found in its HTML and the JavaScript it loads. */
export interface PageUsage {
  /** Site-relative file, e.g. `soutenir/index.html`. */
  file: string;
  /** URL path it is served at, e.g. `/soutenir/` (404.html: `/404.html`). */
  path: string;
  inlineScripts: string[];
  inlineStyles: string[];
  /** URLs by the directive that governs them (`script-src`: script src, modulepreload, islands; …). */
  urls: Record<string, string[]>;
  /** Origins found in the JavaScript the page loads (static and dynamic imports followed). */
  scriptOrigins: string[];
  /** Whether style="" attributes appear (they need 'unsafe-inline' or 'unsafe-hashes'). */
  styleAttributes: boolean;
}

const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/** Collects what one HTML document uses (see `PageUsage`); `jsOrigins` follows a same-origin script URL. */
export function pageUsage(file: string, html: string, jsOrigins: (url: string) => string[] = () => []): PageUsage {
  const usage: PageUsage = {
    file,
    path: urlPathOf(file),
    inlineScripts: [],
    inlineStyles: [],
    urls: {},
    scriptOrigins: [],
    styleAttributes: false,
  };
  const add = (directive: string, url: string | undefined) => {
    if (url) (usage.urls[directive] ??= []).push(url);
  };
  let text: string | undefined;
  let textKind: 'script' | 'style' | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if ('style' in attributes) usage.styleAttributes = true;
        if (name === 'script') {
          if (attributes.src) add('script-src', attributes.src);
          else if (EXECUTABLE_TYPES.has((attributes.type ?? '').toLowerCase())) [text, textKind] = ['', 'script'];
        } else if (name === 'style') [text, textKind] = ['', 'style'];
        else if (name === 'link') {
          const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
          if (rel.includes('stylesheet')) add('style-src', attributes.href);
          if (rel.includes('modulepreload')) add('script-src', attributes.href);
          if (rel.includes('icon')) add('img-src', attributes.href);
        } else if (name === 'img' || name === 'source') {
          add('img-src', attributes.src);
          for (const candidate of (attributes.srcset ?? '').split(','))
            add('img-src', candidate.trim().split(/\s+/)[0]);
        } else if (name === 'iframe') add('frame-src', attributes.src);
        else if (name === 'form') add('form-action', attributes.action ?? '');
        else if (name === 'astro-island') {
          add('script-src', attributes['component-url']);
          add('script-src', attributes['renderer-url']);
        }
      },
      ontext(chunk) {
        if (text !== undefined) text += chunk;
      },
      onclosetag(name) {
        if (text !== undefined && name === textKind) {
          (textKind === 'script' ? usage.inlineScripts : usage.inlineStyles).push(text);
          [text, textKind] = [undefined, undefined];
        }
      },
    },
    { decodeEntities: false, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const inlineImports = usage.inlineScripts.flatMap((script) => importSpecifiers(script));
  const origins = new Set<string>();
  for (const url of [...(usage.urls['script-src'] ?? []), ...inlineImports]) {
    for (const origin of jsOrigins(url)) origins.add(origin);
  }
  usage.scriptOrigins = [...origins].sort();
  return usage;
}

/** URL path a file of dist/ is served at: `index.html` → `/`, `asso/index.html` → `/asso/`. */
export function urlPathOf(file: string): string {
  const path = `/${file.split(sep).join('/')}`;
  return path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
}

/** Module specifiers of static and dynamic imports in (minified) JavaScript. */
function importSpecifiers(code: string): string[] {
  const specifiers = new Set<string>();
  const pattern = /(?:\bimport\s*\(\s*|\bimport\s*|\bfrom\s*)(["'`])([^"'`\s]+?\.m?js)\1/g;
  for (const match of code.matchAll(pattern)) specifiers.add(match[2] as string);
  return [...specifiers];
}

/**
 * Follows a same-origin module and everything it imports (statically or
 * dynamically) inside dist/, and returns the https origins written in that
 * code. Results are cached per file.
 */
export function scriptOriginReader(dist: string): (url: string) => string[] {
  const cache = new Map<string, string[]>();
  const visit = (file: string, seen: Set<string>): string[] => {
    if (seen.has(file) || !existsSync(file)) return [];
    seen.add(file);
    const cached = cache.get(file);
    if (cached) return cached;
    const code = readFileSync(file, 'utf8');
    const origins = new Set(Array.from(code.matchAll(/https:\/\/[a-z0-9.-]+\.[a-z]{2,}/gi), (m) => m[0].toLowerCase()));
    for (const specifier of importSpecifiers(code)) {
      const target = specifier.startsWith('/') ? join(dist, specifier) : resolve(dirname(file), specifier);
      for (const origin of visit(target, seen)) origins.add(origin);
    }
    const result = [...origins];
    cache.set(file, result);
    return result;
  };
  return (url) =>
    url.startsWith('/') && !url.startsWith('//') ? visit(join(dist, url.split(/[?#]/)[0] as string), new Set()) : [];
}

/** Every HTML document of dist/ with what it uses. */
export function scanDist(dist: string): PageUsage[] {
  const reader = scriptOriginReader(dist);
  const files = (readdirSync(dist, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).sort();
  return files.map((file) => pageUsage(file, readFileSync(join(dist, file), 'utf8'), reader));
}

/** The kind of a built document, from its URL path. */
export function kindOf(path: string): PolicyKind {
  if (path.startsWith('/contenu/')) return 'content';
  return DONATION_PATHS.includes(path) ? 'donation' : 'page';
}

/** `'sha256-…'` sources of the inline scripts of the site's own pages (not of /contenu/ documents), sorted. */
export function inlineScriptHashes(pages: PageUsage[]): string[] {
  const own = pages.filter((page) => kindOf(page.path) !== 'content');
  return [...new Set(own.flatMap((page) => page.inlineScripts).map(hashSource))].sort();
}

/** The Netlify header rules of the generated block: `{ for, policy }`, "/*" (the union) first. */
export function cspRules(pages: PageUsage[]): { for: string; policy: string }[] {
  const hashes = inlineScriptHashes(pages);
  const kinds: PolicyKind[] = ['page', 'donation', 'content'];
  const policies = Object.fromEntries(kinds.map((kind) => [kind, policyFor(kind, hashes)])) as Record<
    PolicyKind,
    Policy
  >;
  const rules = [{ for: '/*', policy: serializePolicy(unionPolicy(Object.values(policies))) }];
  const byTop = new Map<string, PageUsage[]>();
  for (const page of pages) {
    const top = page.path.split('/')[1] ?? '';
    byTop.set(top, [...(byTop.get(top) ?? []), page]);
  }
  for (const [top, group] of [...byTop].sort(([a], [b]) => a.localeCompare(b))) {
    const groupKinds = new Set(group.map((page) => kindOf(page.path)));
    const single = groupKinds.size === 1 && top !== '' && !top.endsWith('.html');
    if (single) {
      const policy = serializePolicy(policies[[...groupKinds][0] as PolicyKind]);
      rules.push({ for: `/${top}/*`, policy }, { for: `/${top}`, policy });
    } else {
      for (const page of group) rules.push({ for: page.path, policy: serializePolicy(policies[kindOf(page.path)]) });
    }
  }
  return rules;
}

const BLOCK_START =
  '# BEGIN Content-Security-Policy — generated by `npm run csp` (scripts/lib/csp.ts); do not edit by hand';
const BLOCK_END = '# END Content-Security-Policy';

/** The generated block of netlify.toml (between the BEGIN/END marker lines, markers included). */
export function renderNetlifyBlock(pages: PageUsage[]): string {
  const rules = cspRules(pages).map(
    (rule) =>
      `[[headers]]\n  for = ${JSON.stringify(rule.for)}\n  [headers.values]\n    Content-Security-Policy = ${JSON.stringify(rule.policy)}`,
  );
  return [BLOCK_START, ...rules, BLOCK_END].join('\n\n');
}

/** netlify.toml with its generated block replaced. Throws when the markers are missing. */
export function replaceNetlifyBlock(toml: string, block: string): string {
  const start = toml.indexOf(BLOCK_START);
  const end = toml.indexOf(BLOCK_END);
  if (start < 0 || end < start)
    throw new Error(`netlify.toml: the markers "${BLOCK_START}" and "${BLOCK_END}" are missing`);
  return toml.slice(0, start) + block + toml.slice(end + BLOCK_END.length);
}

/** The generated block as it stands in netlify.toml (undefined without markers). */
export function currentNetlifyBlock(toml: string): string | undefined {
  const start = toml.indexOf(BLOCK_START);
  const end = toml.indexOf(BLOCK_END);
  return start < 0 || end < start ? undefined : toml.slice(start, end + BLOCK_END.length);
}

/** The header rules of a netlify.toml, parsed by Netlify's own parser (@netlify/headers-parser). Throws on syntax errors. */
export async function netlifyHeaderRules(netlifyTomlPath: string): Promise<Header[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [],
    netlifyConfigPath: netlifyTomlPath,
    configHeaders: [],
    minimal: false,
  });
  if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('\n'));
  return headers as Header[];
}

/** Every value of `name` (case-insensitive) that the rules matching `path` give, in file order. */
export function headerValuesFor(rules: Header[], path: string, name: string): string[] {
  return rules
    .filter((rule) => rule.forRegExp.test(path))
    .flatMap((rule) =>
      Object.entries(rule.values)
        .filter(([key]) => key.toLowerCase() === name.toLowerCase())
        .map(([, value]) => value),
    );
}

/** Does `policy` allow loading `url` (absolute or site-relative) under `directive` for a page of `siteOrigin`? */
export function allowsUrl(policy: Policy, directive: string, url: string, siteOrigin: string): boolean {
  const sources = effectiveSources(policy, directive);
  if (!sources) return true;
  const target = new URL(url, `${siteOrigin}/`);
  return sources.some((source) => {
    if (source === "'self'") return target.origin === siteOrigin;
    if (source.endsWith(':') && !source.includes('/')) return target.protocol === source;
    if (source.startsWith("'")) return false;
    const match = /^(https?:)\/\/(\*\.)?([^/:]+)(.*)$/.exec(source);
    if (!match) return false;
    const [, scheme, wildcard, host, rest] = match;
    if (target.protocol !== scheme) return false;
    const hostOk = wildcard ? target.hostname.endsWith(`.${host}`) : target.hostname === host;
    return hostOk && (!rest || rest === '/' || target.pathname.startsWith(rest));
  });
}

/** Does `policy` allow an inline script or style with this text (by hash, or 'unsafe-inline' without hashes)? */
export function allowsInline(policy: Policy, directive: 'script-src' | 'style-src', text: string): boolean {
  const sources = effectiveSources(policy, directive);
  if (!sources) return true;
  const hashed = sources.some((source) => /^'(sha256|sha384|sha512|nonce)-/.test(source));
  return sources.includes(hashSource(text)) || (!hashed && sources.includes("'unsafe-inline'"));
}

/**
 * Problems that would break a page under the policies served with it: one
 * line per inline script/style, URL or script origin a policy does not allow.
 * `policies` are all the CSP values sent with the page (each is enforced).
 */
export function auditPage(page: PageUsage, policies: Policy[], siteOrigin: string): string[] {
  const problems: string[] = [];
  if (policies.length === 0) return [`${page.path}: no Content-Security-Policy`];
  policies.forEach((policy, index) => {
    const label = `${page.path} (policy ${index + 1}/${policies.length})`;
    for (const script of page.inlineScripts) {
      if (!allowsInline(policy, 'script-src', script)) {
        problems.push(`${label}: inline script ${hashSource(script)} not allowed ("${script.slice(0, 60)}…")`);
      }
    }
    for (const style of page.inlineStyles) {
      if (!allowsInline(policy, 'style-src', style))
        problems.push(`${label}: inline style ${hashSource(style)} not allowed`);
    }
    if (
      page.styleAttributes &&
      !(effectiveSources(policy, 'style-src') ?? ["'unsafe-inline'"]).includes("'unsafe-inline'")
    ) {
      problems.push(`${label}: style="" attributes need 'unsafe-inline' in style-src`);
    }
    for (const [directive, urls] of Object.entries(page.urls)) {
      for (const url of urls) {
        if (!allowsUrl(policy, directive, url, siteOrigin)) problems.push(`${label}: ${directive} blocks ${url}`);
      }
    }
    for (const origin of page.scriptOrigins) {
      if (DOCUMENTATION_ORIGINS.includes(origin)) continue;
      if (!SCRIPT_ORIGINS.includes(origin)) {
        problems.push(
          `${label}: the page's JavaScript names ${origin}: allow it in scripts/lib/csp.ts or list it in DOCUMENTATION_ORIGINS`,
        );
      } else if (!allowsUrl(policy, 'script-src', `${origin}/`, siteOrigin)) {
        problems.push(`${label}: script-src blocks ${origin}, which the page's JavaScript loads`);
      }
    }
  });
  return problems;
}

/**
 * Audits every document of dist/ against the policies netlify.toml would send
 * with it: both when Netlify sends every matching value (all enforced) and
 * when the last matching rule wins. Returns the problems (empty = all allowed).
 */
export async function auditDist(dist: string, netlifyTomlPath: string, siteOrigin: string): Promise<string[]> {
  const rules = await netlifyHeaderRules(netlifyTomlPath);
  return scanDist(dist).flatMap((page) => {
    const values = headerValuesFor(rules, page.path, 'Content-Security-Policy');
    const all = auditPage(page, values.map(parsePolicy), siteOrigin);
    const last = values.length > 1 ? auditPage(page, [parsePolicy(values.at(-1) as string)], siteOrigin) : [];
    return [...new Set([...all, ...last])];
  });
}

/** Origin the site is served from (for 'self'): SITE_URL, else the default of astro.config.mjs. */
export function siteOrigin(): string {
  return new URL(process.env.SITE_URL || 'https://petitspas-ensemble.netlify.app').origin;
}

/**
 * Runs `auditDist` on dist/ and netlify.toml of the current folder and prints
 * the outcome (problems to stderr, with what to do). Returns true when every
 * page is allowed. Used by `npm run build` and `npm run csp -- --check`.
 */
export async function checkBuiltSite(dist = 'dist', netlifyToml = 'netlify.toml'): Promise<boolean> {
  const problems = await auditDist(dist, netlifyToml, siteOrigin());
  if (problems.length === 0) {
    console.log(`Content-Security-Policy: every page of ${dist}/ is allowed by ${netlifyToml}.`);
    return true;
  }
  console.error(`The Content-Security-Policy of ${netlifyToml} would block parts of the built site:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  console.error('Run `npm run csp` after a change to an inline script; allow a new origin in scripts/lib/csp.ts.');
  return false;
}
