/**
 * POST /espace/session: « Rester connecté » in the warning before a session ends (EspaceLayout.astro). The guard has
 * checked the session (an ended one gets the « session ended » page, 403); it is renewed for SESSION_MS from now
 * (renewSession) and the answer says, in JSON, how long it now lasts: `{ "resteMs": <ms> }`. Other methods: 405.
 */
import type { APIRoute } from 'astro';
import { renewSession, SESSION_MS } from '../../features/espace/auth.server';
import { readFormPost } from '../../features/espace/form-post.server';
import { ACCOUNT_COOKIE, KEPT_POST_MS, spaceCookie } from '../../features/espace/kept-posts.server';
import { SESSION_COOKIE, SESSION_COOKIE_OPTIONS } from '../../features/espace/session.server';
import { jsonResponse } from '../../lib/endpoint.server';
import { HttpError } from '../../lib/http';

export const prerender = false;

export const POST: APIRoute = async ({ locals, cookies, request }) => {
  try {
    // Only a form post passes the site's origin check (form-post.server.ts).
    await readFormPost(request);
    const { cookie } = await renewSession(locals.espace!.uid);
    cookies.set(SESSION_COOKIE, cookie, SESSION_COOKIE_OPTIONS);
    cookies.set(ACCOUNT_COOKIE, locals.espace!.uid, spaceCookie((SESSION_MS + KEPT_POST_MS) / 1000));
    return jsonResponse(200, { resteMs: SESSION_MS });
  } catch (failure) {
    console.error('[espace/session]', failure);
    const status = failure instanceof HttpError ? failure.status : 503;
    return jsonResponse(status, { resteMs: 0 });
  }
};

export const ALL: APIRoute = async () =>
  new Response('Méthode non autorisée', { status: 405, headers: { allow: 'POST' } });
