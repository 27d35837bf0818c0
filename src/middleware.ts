/**
 * Adds the security headers (src/lib/security-headers.ts) to on-demand answers: API JSON, redirects, errors,
 * the not-found page. Netlify gives netlify.toml's headers to static files only.
 */
import { defineMiddleware } from 'astro:middleware';
import { SECURITY_HEADERS } from './lib/security-headers';

/** Sets the security headers on on-demand answers; prerendered pages get theirs from netlify.toml. */
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  try {
    return withSecurityHeaders(response);
  } catch {
    // Response.redirect() and fetch() answers have immutable headers: copy the answer.
    return withSecurityHeaders(new Response(response.body, response));
  }
});

/** Sets each security header the response does not set itself. */
function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}
