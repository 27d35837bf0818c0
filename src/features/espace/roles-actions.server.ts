/**
 * The forms of /espace/roles (admin) as Astro Actions (src/actions/index.ts): invite a person with a role
 * (invitations.server.tsx), take one role away, « Retirer » an account's access once confirmed (accounts.server.ts).
 * Each returns the outcome the page puts in its address after the redirect (`fait`, `role`, `email`).
 */
import * as z from 'zod';
import { HttpError } from '../../lib/http';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { changeRole, removeAccess } from './accounts.server';
import { adminAuth } from './auth.server';
import { inviteAccount } from './invitations.server';
import { ESPACE_MESSAGES } from './messages';
import { isRole } from './roles';
import { staffAction, staffText } from './staff-action.server';

/** What the page's address says after a change: `fait` (invite, donne, retire, acces-retire), the role, the email. */
export type RoleOutcome = Record<string, string>;

export const rolesActions = {
  /** Invites `email` with `role` (`nom`: optional). @throws as inviteAccount (400 with the field's French message). */
  invite: staffAction(
    'roles',
    z.object({ email: staffText(), nom: staffText(), role: staffText(40) }),
    async ({ email, nom, role }, { session }): Promise<RoleOutcome> => {
      const outcome = await inviteAccount(session, { email, role, name: nom });
      return { fait: outcome.invited ? 'invite' : 'donne', role: outcome.role, email: outcome.email };
    },
  ),

  /** Takes `role` away from `email`. @throws HttpError 400 ESPACE_MESSAGES.unknownRole, as changeRole. */
  removeRole: staffAction(
    'roles',
    z.object({ email: staffText(), role: staffText(40) }),
    async ({ email, role }, { session }): Promise<RoleOutcome> => {
      if (!isRole(role)) throw new HttpError(400, ESPACE_MESSAGES.unknownRole);
      await changeRole(session, adminAuth(), adminFirestore(), email, role, false);
      return { fait: 'retire', role, email };
    },
  ),

  /** Takes every role away from account `uid`, once `confirmer=oui`. @throws HttpError 400, as removeAccess. */
  removeAccess: staffAction(
    'roles',
    z.object({ uid: staffText(128), confirmer: staffText(10) }),
    async ({ uid, confirmer }, { session }): Promise<RoleOutcome> => {
      if (confirmer !== 'oui') throw new HttpError(400, ESPACE_MESSAGES.badForm);
      const email = await removeAccess(session, adminAuth(), adminFirestore(), uid);
      return { fait: 'acces-retire', email };
    },
  ),
};
