/**
 * On-demand answers: cross-site form submissions refused as Astro's checkOrigin would (src/lib/origin-check.ts), the
 * staff space's guard (src/features/espace/session.server.ts), and the security headers
 * (src/lib/security-headers.ts) on every answer, refusals included; netlify.toml gives them to static files. Every
 * page, prerendered or not, gets its islands' style in <head> (src/lib/island-styles.ts).
 */
import type { MiddlewareHandler } from 'astro';
import { defineMiddleware, sequence } from 'astro:middleware';
import { isEspacePath } from './features/espace/espace-path';
import { islandStyleMiddleware } from './lib/island-styles';
import { CROSS_SITE_REFUSAL, isForbiddenCrossSiteRequest } from './lib/origin-check';
import { SECURITY_HEADERS } from './lib/security-headers';

/** Paths whose POST carries its own secret: the newsletter's one-click unsubscription (RFC 8058). */
const CROSS_SITE_POSTS: ReadonlySet<string> = new Set(['/newsletter/desinscription']);

/**
 * Sets each security header an on-demand answer does not set itself; prerendered pages get theirs from netlify.toml.
 */
const securityHeaders = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  // A copy: Response.redirect() and fetch() answers have immutable headers.
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!answer.headers.has(name)) answer.headers.set(name, value);
  }
  return answer;
});

/**
 * 403 in French for a cross-site form post (Astro's own check is off: it answers before any middleware, in English
 * and without headers). The middleware before it give the refusal the security headers, and the space's own on /espace.
 */
const sameOriginForms = defineMiddleware((context, next) => {
  if (context.isPrerendered || !isForbiddenCrossSiteRequest(context.request, context.url, CROSS_SITE_POSTS)) {
    return next();
  }
  return new Response(CROSS_SITE_REFUSAL, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
});

/**
 * One of the space's middleware (src/features/espace/session.server.ts), loaded with firebase-admin at the first
 * request of a path of the space: public pages never load it (`npm start` renders its first page sooner).
 */
function espaceOnly(pick: (space: typeof import('./features/espace/session.server')) => MiddlewareHandler) {
  return defineMiddleware(async (context, next) => {
    if (context.isPrerendered || !isEspacePath(context.url.pathname)) return next();
    return pick(await import('./features/espace/session.server'))(context, next);
  });
}

export const onRequest = sequence(
  islandStyleMiddleware,
  securityHeaders,
  espaceOnly((space) => space.espaceHeaders),
  sameOriginForms,
  espaceOnly((space) => space.espaceGuard),
);
