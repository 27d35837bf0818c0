/**
 * The space's session cookie and its guard (a middleware, chained in src/middleware.ts): every answer under /espace is
 * `no-store` and `noindex`; without a valid session a page redirects to the sign-in page (any other method gets 403),
 * and a role that does not open the section gets the 403 page, the refusal written to the access log. Pages find the
 * session in `Astro.locals.espace`.
 * A form posted after its session ended gets the « session ended » page, its text kept for its sender
 * (kept-posts.server.ts) and given back on that page once they sign in again (`Astro.locals.keptPost`).
 */
import type { AstroCookies, AstroCookieSetOptions } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { recordAccess } from './access-log.server';
import { openSession, SESSION_MS, verifySession, type StaffSession } from './auth.server';
import {
  ACCOUNT_COOKIE,
  KEPT_POST_COOKIE,
  KEPT_POST_MS,
  keepPost,
  spaceCookie,
  takeKeptPost,
} from './kept-posts.server';
import { ESPACE_MESSAGES } from './messages';
import { canOpen, sectionOfPath } from './roles';
import { recordSignIn } from './visits.server';
import { isEspacePath, normalisedPath } from './espace-path';

export { isEspacePath, normalisedPath };

/** The cookie's name: `__Host-` makes browsers require Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = '__Host-espace-session';

/** HttpOnly (no script reads it), Secure, SameSite=Strict (no cross-site request carries it), 8 hours. */
export const SESSION_COOKIE_OPTIONS: AstroCookieSetOptions = {
  httpOnly: true,
  secure: true,
  sameSite: 'strict',
  path: '/',
  maxAge: SESSION_MS / 1000,
};

/** Clearing the cookie: a `__Host-` cookie is replaced only by one with the same Secure and Path. */
export const SESSION_COOKIE_CLEAR = { path: '/', secure: true, httpOnly: true, sameSite: 'strict' } as const;

/** The 403 page for a post whose session has ended (src/pages/espace/session-terminee.astro). */
export const SESSION_ENDED_PAGE = '/espace/session-terminee';

/** The paths anyone may open: the sign-in pages (password, link), the sign-out endpoint, the « session ended » page. */
const PUBLIC_PATHS = new Set([
  '/espace/connexion',
  '/espace/connexion/lien',
  '/espace/deconnexion',
  SESSION_ENDED_PAGE,
]);

/** The 403 page the guard renders (src/pages/espace/acces-refuse.astro). */
export const FORBIDDEN_PAGE = '/espace/acces-refuse';

/** « Rester connecté »: the endpoint that renews a session still valid (src/pages/espace/session.ts). */
export const RENEW_PATH = '/espace/session';

/** The sign-in page's address that returns to `target` (a path of the space) once signed in. */
export function signInLocation(target?: string, notice?: 'sortie' | 'expiree'): string {
  const query = new URLSearchParams();
  if (target && target !== '/espace') query.set('suite', target);
  if (notice) query.set('avis', notice);
  const search = query.toString();
  return `/espace/connexion${search ? `?${search}` : ''}`;
}

/** Where to go after signing in: `suite` when it is a path of the space (never another site), else /espace. */
export function afterSignIn(suite: string | null | undefined): string {
  if (!suite || !suite.startsWith('/espace') || suite.startsWith('//') || /[\\\r\n]/.test(suite)) return '/espace';
  return isEspacePath(new URL(suite, 'https://x.invalid').pathname) ? suite : '/espace';
}

/**
 * Signs in with a fresh ID token (from a password or a sign-in link): sets the session cookie and records the visit
 * that /espace compares with. @throws HttpError as openSession (403 without a role, 503).
 */
export async function startSession(cookies: AstroCookies, idToken: string): Promise<StaffSession> {
  const { cookie, session } = await openSession(idToken);
  cookies.set(SESSION_COOKIE, cookie, SESSION_COOKIE_OPTIONS);
  // Who signs in with this browser, kept past the session: a post sent after it ends is kept for them alone.
  cookies.set(ACCOUNT_COOKIE, session.uid, spaceCookie((SESSION_MS + KEPT_POST_MS) / 1000));
  // The previous visit is only what /espace compares with: a failure here must not keep anyone out.
  await recordSignIn(adminFirestore(), session).catch((failure: unknown) => console.error('[espace] visit', failure));
  return session;
}

/**
 * What a sign-in page shows for `failure`: an HttpError's status and French message, else 500 and
 * ESPACE_MESSAGES.authUnavailable. Server-side failures (and unknown ones) are logged under `page`.
 */
export function signInFailure(page: string, failure: unknown): { status: number; message: string } {
  const known = failure instanceof HttpError;
  if (!known || failure.status >= 500) console.error(`[${page}]`, failure);
  return known
    ? { status: failure.status, message: failure.message }
    : { status: 500, message: ESPACE_MESSAGES.authUnavailable };
}

/** The session of the request's cookie (verifySession), clearing a cookie that is no longer valid. */
export async function sessionOf(cookies: AstroCookies): Promise<StaffSession | undefined> {
  const value = cookies.get(SESSION_COOKIE)?.value;
  if (!value) return undefined;
  const session = await verifySession(value);
  if (!session) cookies.delete(SESSION_COOKIE, SESSION_COOKIE_CLEAR);
  return session;
}

/** A plain answer with `status` and French `text` (the guard's refusals outside pages). */
function plainAnswer(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/**
 * The space's headers on every on-demand answer under /espace, the refusals of the middleware before the guard (a
 * cross-site post) included: `Cache-Control: no-store`, `X-Robots-Tag: noindex, nofollow`.
 */
export const espaceHeaders = defineMiddleware(async (context, next) => {
  const answer = await next();
  if (context.isPrerendered || !isEspacePath(context.url.pathname)) return answer;
  // A copy: redirects and rewrites can come back with immutable headers.
  const response = new Response(answer.body, answer);
  response.headers.set('cache-control', 'no-store');
  response.headers.set('x-robots-tag', 'noindex, nofollow');
  return response;
});

/** The guard of /espace (see the module's comment); espaceHeaders, before it, sets the space's headers. */
export const espaceGuard = defineMiddleware(async (context, next) => {
  if (context.isPrerendered || !isEspacePath(context.url.pathname)) return next();
  return guarded();

  async function guarded(): Promise<Response> {
    const path = normalisedPath(context.url.pathname);
    const hadCookie = context.cookies.has(SESSION_COOKIE);
    let session: StaffSession | undefined;
    try {
      session = await sessionOf(context.cookies);
    } catch (error) {
      console.error(`[espace] ${error instanceof Error ? error.message : String(error)}`);
      const message = error instanceof HttpError ? error.message : ESPACE_MESSAGES.authUnavailable;
      return plainAnswer(503, message, { 'retry-after': '60' });
    }
    context.locals.espace = session;
    if (PUBLIC_PATHS.has(path)) return next();
    if (!session) {
      if (context.request.method !== 'GET' && context.request.method !== 'HEAD') return sessionEnded(path);
      const target = `${context.url.pathname}${context.url.search}`;
      return context.redirect(signInLocation(target, hadCookie ? 'expiree' : undefined), 303);
    }
    const section = sectionOfPath(path);
    if (path !== FORBIDDEN_PAGE && section && !canOpen(session.roles, section)) {
      // Who tried what goes to the access log; the refusal stands whether or not the entry is written.
      await recordAccess(adminFirestore(), session, 'refus', path).catch((failure: unknown) =>
        console.error('[espace] refusal not logged', failure),
      );
      return context.rewrite(FORBIDDEN_PAGE);
    }
    if (context.request.method === 'GET' && context.cookies.has(KEPT_POST_COOKIE)) {
      context.locals.keptPost = await takeKeptPost(adminFirestore(), context.cookies, session.uid, path).catch(
        (failure: unknown) => void console.error('[espace] kept post', failure),
      );
    }
    return next();
  }

  /** The post's text kept for the account that signed in with this browser, then the « session ended » page. */
  async function sessionEnded(path: string): Promise<Response> {
    const uid = context.cookies.get(ACCOUNT_COOKIE)?.value;
    let kept = false;
    try {
      if (uid && path !== RENEW_PATH)
        kept = await keepPost(adminFirestore(), context.cookies, uid, path, context.request);
    } catch (failure) {
      console.error('[espace] kept post', failure);
    }
    // Back to the page without the action its form posted to (Astro's `_action`, ACTION_QUERY_PARAMS): a GET shows it.
    const back = new URL(context.url);
    back.searchParams.delete('_action');
    context.locals.sessionEnded = { kept, suite: `${back.pathname}${back.search}` };
    const page = new Request(new URL(SESSION_ENDED_PAGE, context.url), {
      headers: { cookie: context.request.headers.get('cookie') ?? '' },
    });
    return context.rewrite(page);
  }
});
