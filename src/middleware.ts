/**
 * Every on-demand answer gets the security headers (src/lib/security-headers.ts; netlify.toml gives them to static
 * files), the refusal of a cross-site form post included: Astro's `security.checkOrigin` answers before any middleware
 * of ours, so it is off (astro.config.mjs) and its rule runs here, inside the headers.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { SECURITY_HEADERS } from './lib/security-headers';

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

/** Content types a cross-site HTML form can send without a CORS preflight. */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * Astro's `security.checkOrigin` rule (astro/dist/core/app/origin-check.js, same answer): an on-demand POST, PUT,
 * PATCH or DELETE whose `Origin` is not the site's gets 403 when it is form-like or has no content type.
 */
const sameOriginForms = defineMiddleware((context, next) => {
  const { request, url, isPrerendered } = context;
  if (isPrerendered || ['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return next();
  const type = request.headers.get('content-type')?.toLowerCase();
  const formLike = type === undefined || FORM_TYPES.some((form) => type.includes(form));
  if (!formLike || request.headers.get('origin') === url.origin) return next();
  return new Response(`Cross-site ${request.method} form submissions are forbidden`, { status: 403 });
});

export const onRequest = sequence(securityHeaders, sameOriginForms);
