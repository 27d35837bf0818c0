/**
 * The staff accounts and their roles (custom claim `roles`) with any firebase-admin Auth: the space's roles page, which
 * checks the session's role here too (after the guard), and `npm run role` (scripts/role.ts, outside Astro: this module
 * reads no astro:env). Invitations, which mail, are invitations.server.tsx.
 */
import type { Auth, UserRecord } from 'firebase-admin/auth';
import type { Firestore } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { HttpError } from '../../lib/http';
import { isMailAddress } from '../mail/mail';
import { recordAccess } from './access-log.server';
import type { StaffSession } from './auth.server';
import { ESPACE_MESSAGES } from './messages';
import { ROLES, rolesOfClaims, type Role } from './roles';
import { assertSection } from './server-calls.server';

/** Each Auth call gives up after 8 s (ms). */
const AUTH_DEADLINE_MS = 8000;

/** A staff account as the roles page lists it. */
export interface StaffAccount {
  uid: string;
  email: string;
  /** The name the bureau gave when inviting (Auth's `displayName`), if any. */
  name: string | undefined;
  roles: Role[];
  disabled: boolean;
  lastSignIn: string | undefined;
}

const account = (user: UserRecord): StaffAccount => ({
  uid: user.uid,
  email: user.email ?? '',
  name: user.displayName || undefined,
  roles: rolesOfClaims(user.customClaims),
  disabled: user.disabled,
  lastSignIn: user.metadata.lastSignInTime,
});

/**
 * Every account of the project (up to 1,000), those with a role first, then by email.
 * @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session is an admin's; Auth's error or a TimeoutError.
 */
export async function listAccounts(session: StaffSession | undefined, auth: Auth): Promise<StaffAccount[]> {
  assertSection(session, 'roles');
  const { users } = await withDeadline(auth.listUsers(1000), AUTH_DEADLINE_MS);
  return users
    .map(account)
    .toSorted((a, b) => Number(b.roles.length > 0) - Number(a.roles.length > 0) || a.email.localeCompare(b.email));
}

/**
 * Firebase Auth's failure `error` (of call `what`) as the space says it: 404 ESPACE_MESSAGES.unknownAccount for an
 * unknown account, 400 ESPACE_MESSAGES.invalidEmail for an address Firebase refuses, else 503
 * ESPACE_MESSAGES.unavailable (the error as its cause, for the log; never shown).
 */
export function authFailure(error: unknown, what: string): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'auth/user-not-found') return new HttpError(404, ESPACE_MESSAGES.unknownAccount);
  if (code === 'auth/invalid-email') return new HttpError(400, ESPACE_MESSAGES.invalidEmail);
  return new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: new Error(`Auth ${what} failed`, { cause: error }) });
}

/** A role change done: the account's roles after it, and whether its open sessions were closed. */
export interface RoleChange {
  roles: Role[];
  sessionsClosed: boolean;
}

/**
 * Gives (`grant: true`) or takes away `role` from the account of `email`, then revokes its sessions (tried twice) so
 * that the change applies at once: the person signs in again. `sessionsClosed: false` when both tries failed: the
 * claims changed, but sessions opened before keep the old roles until they end (8 hours); the caller must say so.
 * Checks no role: `npm run role` runs it with the service account; the roles page goes through changeRole.
 * @throws HttpError 400 ESPACE_MESSAGES.invalidEmail for an address no account can have, 404
 *   ESPACE_MESSAGES.unknownAccount, 503 ESPACE_MESSAGES.unavailable for any other failure of Auth (or its 8 s
 *   deadline) before the claims changed.
 */
export async function setRole(auth: Auth, email: string, role: Role, grant: boolean): Promise<RoleChange> {
  const address = email.trim();
  if (!isMailAddress(address)) throw new HttpError(400, ESPACE_MESSAGES.invalidEmail);
  const user = await withDeadline(auth.getUserByEmail(address), AUTH_DEADLINE_MS).catch((error: unknown) => {
    throw authFailure(error, 'getUserByEmail');
  });
  const current = rolesOfClaims(user.customClaims);
  const roles = ROLES.filter((known) => (known === role ? grant : current.includes(known)));
  await withDeadline(auth.setCustomUserClaims(user.uid, { ...user.customClaims, roles }), AUTH_DEADLINE_MS).catch(
    (error: unknown) => {
      throw authFailure(error, 'setCustomUserClaims');
    },
  );
  return { roles, sessionsClosed: await closeSessions(auth, user.uid) };
}

/** Revokes every session of `uid` (tried twice); false when both tries failed (logged). */
async function closeSessions(auth: Auth, uid: string): Promise<boolean> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    try {
      await withDeadline(auth.revokeRefreshTokens(uid), AUTH_DEADLINE_MS);
      return true;
    } catch (error) {
      console.error(`[espace/roles] sessions not revoked (attempt ${attempt})`, error);
    }
  }
  return false;
}

/**
 * Refuses that the admin `uid` gives up the role when no other enabled account holds it: nobody could manage the
 * accounts any more. @throws HttpError 409 ESPACE_MESSAGES.lastAdmin, 503 when Auth fails.
 */
async function assertAnotherAdmin(auth: Auth, uid: string): Promise<void> {
  const { users } = await withDeadline(auth.listUsers(1000), AUTH_DEADLINE_MS).catch((error: unknown) => {
    throw authFailure(error, 'listUsers');
  });
  const others = users.filter(
    (user) => user.uid !== uid && !user.disabled && rolesOfClaims(user.customClaims).includes('admin'),
  );
  if (others.length === 0) throw new HttpError(409, ESPACE_MESSAGES.lastAdmin);
}

/**
 * The roles page's change by an admin: setRole, then the access log's entry (`role`, `<email> : + <role>`), written
 * whatever the revocation did. Returns the account's roles after the change.
 * @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session is an admin's (nothing changed), 404 as setRole,
 * 503 ESPACE_MESSAGES.sessionsStillOpen when the role changed but the sessions could not be closed; Auth's errors.
 */
export async function changeRole(
  session: StaffSession | undefined,
  auth: Auth,
  db: Firestore,
  email: string,
  role: Role,
  grant: boolean,
): Promise<Role[]> {
  assertSection(session, 'roles');
  if (!grant && role === 'admin' && email.trim().toLowerCase() === session.email.toLowerCase()) {
    await assertAnotherAdmin(auth, session.uid);
  }
  const { roles, sessionsClosed } = await setRole(auth, email, role, grant);
  await recordAccess(db, session, 'role', `${email.trim()} : ${grant ? '+' : '−'} ${role}`).catch((error: unknown) =>
    console.error('[espace/roles] role change not logged', error),
  );
  if (!sessionsClosed) throw new HttpError(503, ESPACE_MESSAGES.sessionsStillOpen);
  return roles;
}

/**
 * « Retirer » on the roles page: takes every role of the space away from the account `uid` (its other claims stay; the
 * account itself stays, so that it can be invited again) and closes its sessions; logged `<email> : accès retiré`.
 * The last admin cannot remove themself. Returns the account's email.
 * @throws HttpError 403 unless the session is an admin's, 404 ESPACE_MESSAGES.unknownAccount, 409
 *   ESPACE_MESSAGES.lastAdmin, 503 ESPACE_MESSAGES.unavailable (nothing changed) or ESPACE_MESSAGES.sessionsStillOpen
 *   (roles gone, sessions still open).
 */
export async function removeAccess(
  session: StaffSession | undefined,
  auth: Auth,
  db: Firestore,
  uid: string,
): Promise<string> {
  assertSection(session, 'roles');
  const user = await withDeadline(auth.getUser(uid), AUTH_DEADLINE_MS).catch((error: unknown) => {
    throw authFailure(error, 'getUser');
  });
  if (uid === session.uid) await assertAnotherAdmin(auth, uid);
  await withDeadline(auth.setCustomUserClaims(uid, { ...user.customClaims, roles: [] }), AUTH_DEADLINE_MS).catch(
    (error: unknown) => {
      throw authFailure(error, 'setCustomUserClaims');
    },
  );
  const email = user.email ?? uid;
  const sessionsClosed = await closeSessions(auth, uid);
  await recordAccess(db, session, 'role', `${email} : accès retiré`).catch((error: unknown) =>
    console.error('[espace/roles] removal not logged', error),
  );
  if (!sessionsClosed) throw new HttpError(503, ESPACE_MESSAGES.sessionsStillOpen);
  return email;
}
