import type { APIRoute } from 'astro';

export const prerender = false;

/** soutenir/… but 'annule' and 'valide' (prerendered, served first): 302 to /soutenir, never cached. */
export const GET = (() =>
  new Response(null, {
    status: 302,
    headers: { location: '/soutenir', 'cache-control': 'no-store' },
  })) satisfies APIRoute;
