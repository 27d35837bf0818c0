/**
 * Refuses cross-site form submissions as Astro's checkOrigin would (src/lib/origin-check.ts), and adds the security
 * headers (src/lib/security-headers.ts) to on-demand answers, refusals included; netlify.toml gives them to files.
 */
import { defineMiddleware } from 'astro:middleware';
import { isForbiddenCrossSiteRequest } from './lib/origin-check';
import { SECURITY_HEADERS } from './lib/security-headers';

/** Paths whose POST carries its own secret: the newsletter's one-click unsubscription (RFC 8058). */
const CROSS_SITE_POSTS: ReadonlySet<string> = new Set(['/newsletter/desinscription']);

/** Sets each security header an on-demand answer does not set itself; prerendered pages get theirs from netlify.toml. */
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  const response = isForbiddenCrossSiteRequest(context.request, context.url, CROSS_SITE_POSTS)
    ? new Response(`Cross-site ${context.request.method} form submissions are forbidden`, { status: 403 })
    : await next();
  // A copy: Response.redirect() and fetch() answers have immutable headers.
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!answer.headers.has(name)) answer.headers.set(name, value);
  }
  return answer;
});
