/** soutenir/{checkout} for any value but 'annule' and 'valide': a redirect to the one donation page, /soutenir. */
import type { APIRoute } from 'astro';

export const prerender = false;

/** 302 to /soutenir, never cached (the two prerendered values are served before this route). */
export const GET = (() =>
  new Response(null, {
    status: 302,
    headers: { location: '/soutenir', 'cache-control': 'no-store' },
  })) satisfies APIRoute;
