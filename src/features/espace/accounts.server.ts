/**
 * Changing an account's roles (custom claim `roles`) with any firebase-admin Auth: the space's roles page and
 * `npm run role` (scripts/role.ts, outside Astro: this module reads no astro:env).
 */
import type { Auth } from 'firebase-admin/auth';
import { HttpError } from '../../lib/http';
import { ESPACE_MESSAGES } from './messages';
import { ROLES, rolesOfClaims, type Role } from './roles';

/**
 * Gives (`grant: true`) or takes away `role` from the account of `email`, then revokes its sessions so that the
 * change applies at once (the person signs in again). Returns the account's roles after the change.
 * @throws HttpError 404 ESPACE_MESSAGES.unknownAccount when no account has this email.
 */
export async function changeRole(auth: Auth, email: string, role: Role, grant: boolean): Promise<Role[]> {
  const user = await auth.getUserByEmail(email.trim()).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') {
      throw new HttpError(404, ESPACE_MESSAGES.unknownAccount);
    }
    throw error;
  });
  const current = rolesOfClaims(user.customClaims);
  const roles = ROLES.filter((known) => (known === role ? grant : current.includes(known)));
  await auth.setCustomUserClaims(user.uid, { ...user.customClaims, roles });
  await auth.revokeRefreshTokens(user.uid);
  return roles;
}
