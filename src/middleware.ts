/** On-demand answers: the space's guard (src/features/espace/session.server.ts), then the security headers. */
import { defineMiddleware, sequence } from 'astro:middleware';
import { espaceGuard } from './features/espace/session.server';
import { SECURITY_HEADERS } from './lib/security-headers';

/** Sets each security header an on-demand answer does not set itself; prerendered pages get theirs from netlify.toml. */
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

export const onRequest = sequence(securityHeaders, espaceGuard);
