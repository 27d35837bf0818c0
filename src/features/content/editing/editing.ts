/**
 * Who may edit the site's content: the roles that open the space's `publication` section (SECTIONS in
 * src/features/espace/roles.ts: `edition` and `admin`). Every write of the editing layer checks it again on the server.
 */
import { HttpError } from '../../../lib/http';
import type { StaffSession } from '../../espace/auth.server';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { canOpen, type Role } from '../../espace/roles';

/** The section whose roles edit content (and publish it). */
export const EDITING_SECTION = 'publication';

/** True when `roles` may edit content. */
export function canEdit(roles: readonly Role[]): boolean {
  return canOpen(roles, EDITING_SECTION);
}

/** @throws HttpError 403 ESPACE_MESSAGES.forbidden unless `session` may edit content. */
export function assertEditor(session: StaffSession | undefined): asserts session is StaffSession {
  if (!session || !canEdit(session.roles)) throw new HttpError(403, ESPACE_MESSAGES.forbidden);
}
