/** Adds the security headers (src/lib/security-headers.ts) to on-demand answers; netlify.toml gives them to static files. */
import { defineMiddleware } from 'astro:middleware';
import { SECURITY_HEADERS } from './lib/security-headers';

/** Sets each security header an on-demand answer does not set itself; prerendered pages get theirs from netlify.toml. */
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  // A copy: Response.redirect() and fetch() answers have immutable headers.
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!answer.headers.has(name)) answer.headers.set(name, value);
  }
  return answer;
});
