/**
 * Firebase Authentication on the server (firebase-admin), the only way into the space: email and password, or a
 * sign-in link's one-time code (email-link.server.ts), are exchanged for an ID token through the Auth REST API
 * (`accounts:signInWithPassword`, `accounts:signInWithEmailLink`, which the Auth emulator serves too), then for a
 * session cookie (`createSessionCookie`), checked on every request against the account as it is then (verifySession).
 * docs/espace.md explains the choices.
 */
import * as env from 'astro:env/server';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { adminApp } from '../../lib/firebase-app.server';
import { HttpError } from '../../lib/http';
import { withDeadline } from '../../lib/deadline';
import { ESPACE_MESSAGES } from './messages';
import { rolesOfClaims, type Role } from './roles';

/** How long a session lasts: 8 hours (ms), a working day; Firebase allows 5 minutes to 2 weeks. */
export const SESSION_MS = 8 * 60 * 60 * 1000;

/** How long a call to Firebase Auth may take before the visitor is told it is unavailable (ms). */
const AUTH_DEADLINE_MS = 8000;

/**
 * A signed-in staff member, from a verified session cookie. `authTime`: when they signed in, `expiresAt`: when the
 * session cookie stops working (both s since epoch; `expiresAt` absent for a session not read from a cookie).
 */
export interface StaffSession {
  uid: string;
  email: string;
  roles: Role[];
  authTime: number;
  expiresAt?: number;
}

let auth: Auth | undefined;

/** The site's firebase-admin Auth (FIREBASE_AUTH_EMULATOR_HOST's emulator when set). @throws Error as adminApp. */
export function adminAuth(): Auth {
  if (auth) return auth;
  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
  // firebase-admin reads the emulator's address from process.env only; astro:env is the site's source of truth.
  if (emulator) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator;
  return (auth = getAuth(adminApp(env, { emulated: Boolean(emulator) })));
}

/** 503 ESPACE_MESSAGES.authUnavailable; `what` and `cause` go to the log. */
function authUnavailable(what: string, cause?: unknown): HttpError {
  return new HttpError(503, ESPACE_MESSAGES.authUnavailable, { cause: new Error(what, { cause }) });
}

/** The Identity Toolkit REST base: the emulator's (`http://<host>/identitytoolkit.googleapis.com`) or Google's. */
function identityToolkit(): string {
  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
  return emulator ? `http://${emulator}/identitytoolkit.googleapis.com` : 'https://identitytoolkit.googleapis.com';
}

/**
 * POSTs `body` to the Identity Toolkit REST method `method` (key FIREBASE_API_KEY) and returns the ID token it
 * answers with, or Firebase's error code (`EMAIL_NOT_FOUND`, `INVALID_OOB_CODE : …`).
 * @throws HttpError 503 when Firebase does not answer within 8 s or the site has no API key.
 */
async function identityToolkitToken(method: string, body: object): Promise<{ idToken?: string; code: string }> {
  const key = env.FIREBASE_API_KEY?.trim() || (env.FIREBASE_AUTH_EMULATOR_HOST ? 'emulator' : '');
  if (!key) throw authUnavailable('FIREBASE_API_KEY is not set: the space cannot sign anyone in');
  let response: Response;
  try {
    response = await fetch(`${identityToolkit()}/v1/accounts:${method}?key=${encodeURIComponent(key)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(AUTH_DEADLINE_MS),
    });
  } catch (error) {
    throw authUnavailable(`accounts:${method} did not answer`, error);
  }
  const answer = (await response.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
  if (response.ok && answer.idToken) return { idToken: answer.idToken, code: 'OK' };
  return { code: answer.error?.message ?? `HTTP ${response.status}` };
}

/**
 * Exchanges `email` + `password` for a Firebase ID token (REST `accounts:signInWithPassword`, key FIREBASE_API_KEY).
 * @throws HttpError 401 ESPACE_MESSAGES.wrongCredentials for any wrong pair (never says whether the account exists),
 *   429 ESPACE_MESSAGES.tooManyAttempts when Firebase slows the account down, 503 when Firebase does not answer
 *   within 8 s or the site has no API key.
 */
export async function signInWithPassword(email: string, password: string): Promise<string> {
  const { idToken, code } = await identityToolkitToken('signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  });
  if (idToken) return idToken;
  // « TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled… »
  if (code.startsWith('TOO_MANY_ATTEMPTS_TRY_LATER')) throw new HttpError(429, ESPACE_MESSAGES.tooManyAttempts);
  if (/^(EMAIL_NOT_FOUND|INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS|USER_DISABLED|INVALID_EMAIL)/.test(code)) {
    throw new HttpError(401, ESPACE_MESSAGES.wrongCredentials, { cause: new Error(code) });
  }
  throw authUnavailable(`accounts:signInWithPassword answered ${code}`);
}

/**
 * Exchanges a sign-in link's one-time `code` (Firebase's `oobCode`) and the `email` it was sent to for a Firebase ID
 * token (REST `accounts:signInWithEmailLink`). The code works once.
 * @throws HttpError 401 ESPACE_MESSAGES.linkInvalid for a used, expired or unknown code or another email, 429 when
 *   Firebase slows the account down, 503 as signInWithPassword.
 */
export async function signInWithEmailLink(email: string, code: string): Promise<string> {
  const answer = await identityToolkitToken('signInWithEmailLink', { email, oobCode: code });
  if (answer.idToken) return answer.idToken;
  if (answer.code.startsWith('TOO_MANY_ATTEMPTS_TRY_LATER')) {
    throw new HttpError(429, ESPACE_MESSAGES.tooManyAttempts);
  }
  if (/^(INVALID_OOB_CODE|EXPIRED_OOB_CODE|INVALID_EMAIL|EMAIL_NOT_FOUND|USER_DISABLED)/.test(answer.code)) {
    throw new HttpError(401, ESPACE_MESSAGES.linkInvalid, { cause: new Error(answer.code) });
  }
  throw authUnavailable(`accounts:signInWithEmailLink answered ${answer.code}`);
}

/**
 * A session cookie's value for a fresh ID token, and the session it opens.
 * @throws HttpError 403 ESPACE_MESSAGES.noRole for an account without any role, 503 when Firebase fails.
 */
export async function openSession(idToken: string): Promise<{ cookie: string; session: StaffSession }> {
  const session = await withDeadline(adminAuth().verifyIdToken(idToken), AUTH_DEADLINE_MS)
    .then(staffSession)
    .catch((error: unknown) => {
      throw authUnavailable('verifyIdToken failed', error);
    });
  if (session.roles.length === 0) throw new HttpError(403, ESPACE_MESSAGES.noRole);
  const cookie = await withDeadline(
    adminAuth().createSessionCookie(idToken, { expiresIn: SESSION_MS }),
    AUTH_DEADLINE_MS,
  ).catch((error: unknown) => {
    throw authUnavailable('createSessionCookie failed', error);
  });
  return { cookie, session };
}

/** The session of a decoded ID token or session cookie (claims `email`, `roles`, `auth_time`). */
function staffSession(claims: { uid: string; email?: string; auth_time: number } & Record<string, unknown>) {
  return { uid: claims.uid, email: claims.email ?? '', roles: rolesOfClaims(claims), authTime: claims.auth_time };
}

/**
 * A new session cookie for `uid`, whose session is still valid (the guard checked it): firebase-admin mints a custom
 * token (signed with the service account's key), the Auth REST API exchanges it for a fresh ID token
 * (`accounts:signInWithCustomToken`), and that token opens a session of SESSION_MS from now, with the account's
 * current roles. « Rester connecté » (docs/espace.md, « Sessions that end »).
 * @throws HttpError 403 ESPACE_MESSAGES.noRole when no role is left, 503 when Firebase fails.
 */
export async function renewSession(uid: string): Promise<{ cookie: string; session: StaffSession }> {
  const token = await withDeadline(adminAuth().createCustomToken(uid), AUTH_DEADLINE_MS).catch((error: unknown) => {
    throw authUnavailable('createCustomToken failed', error);
  });
  const { idToken, code } = await identityToolkitToken('signInWithCustomToken', { token, returnSecureToken: true });
  if (!idToken) throw authUnavailable(`accounts:signInWithCustomToken answered ${code}`);
  return openSession(idToken);
}

/**
 * The session of a cookie's value with the account's roles as they are now, or undefined for any cookie that is not
 * (or no longer) valid: signed badly or expired, its account deleted or disabled, its sessions revoked since it was
 * opened (sign-out, a role change), or no role left. The roles are read from the account at every request, not from
 * the cookie: a role taken away applies at the next request, even when Firebase's revocation time (whole seconds)
 * falls in the second the session was opened. One Auth call, as `checkRevoked` would make.
 * @throws HttpError 503 when Firebase cannot be asked within 8 s.
 */
export async function verifySession(cookie: string): Promise<StaffSession | undefined> {
  try {
    const claims = await withDeadline(adminAuth().verifySessionCookie(cookie), AUTH_DEADLINE_MS);
    const user = await withDeadline(adminAuth().getUser(claims.uid), AUTH_DEADLINE_MS);
    const revokedAt = user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) : 0;
    if (user.disabled || claims.auth_time * 1000 < revokedAt) return undefined;
    const session: StaffSession = {
      ...staffSession({ ...claims, email: user.email ?? claims.email, roles: user.customClaims?.roles }),
      expiresAt: claims.exp,
    };
    return session.roles.length > 0 ? session : undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('auth/')) return undefined;
    throw authUnavailable('verifySessionCookie failed', error);
  }
}

/** Ends every session of `uid` now: their cookies fail `checkRevoked` from the next request (sign-out, role change). */
export async function revokeSessions(uid: string): Promise<void> {
  await withDeadline(adminAuth().revokeRefreshTokens(uid), AUTH_DEADLINE_MS);
}
