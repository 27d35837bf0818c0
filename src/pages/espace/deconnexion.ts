/**
 * POST /espace/deconnexion: ends the session everywhere (its refresh tokens revoked, so every session cookie of the
 * account fails `checkRevoked`), clears the cookie and goes to the sign-in page. Other methods: 405.
 */
import type { APIRoute } from 'astro';
import { revokeSessions } from '../../features/espace/auth.server';
import { ACCOUNT_COOKIE } from '../../features/espace/kept-posts.server';
import { SESSION_COOKIE, SESSION_COOKIE_CLEAR, signInLocation } from '../../features/espace/session.server';

export const prerender = false;

export const POST: APIRoute = async ({ locals, cookies, redirect }) => {
  if (locals.espace) {
    // Even when Firebase does not answer, the cookie goes: the browser is signed out at least.
    await revokeSessions(locals.espace.uid).catch((error: unknown) => console.error('[espace] sign-out', error));
  }
  cookies.delete(SESSION_COOKIE, SESSION_COOKIE_CLEAR);
  // Signed out on purpose: nothing posted later from this browser is kept for the account.
  cookies.delete(ACCOUNT_COOKIE, SESSION_COOKIE_CLEAR);
  return redirect(signInLocation(undefined, 'sortie'), 303);
};

export const ALL: APIRoute = async () =>
  new Response('Méthode non autorisée', { status: 405, headers: { allow: 'POST' } });
