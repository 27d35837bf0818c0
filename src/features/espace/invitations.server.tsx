/**
 * The bureau invites a person into the space (/espace/roles): the server creates their Firebase Auth account when there
 * is none (no password), gives the role (accounts.server.ts changeRole: claims, sessions closed, access log) and queues
 * the invitation mail through the outbox with a sign-in link (email-link.server.ts), valid LINK_LIFETIME_S; then it
 * tries to send it at once. Past that hour, the person asks for a new link with the same address. An account that
 * already had a role gets the new one, and no mail.
 */
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { isPersonName } from '../../lib/fields';
import { logId } from '../../lib/log-id.server';
import { siteOrigin } from '../../lib/site-origin';
import { withDeadline } from '../../lib/deadline';
import { isMailAddress, type OutgoingMail } from '../mail/mail';
import { mailIdentity, trySend } from '../mail/mail-env.server';
import { renderMail } from '../mail/mails.server';
import { enqueueMails } from '../mail/outbox.server';
import { recordAccess } from './access-log.server';
import { authFailure, changeRole } from './accounts.server';
import { adminAuth, type StaffSession } from './auth.server';
import { LINK_INTERVAL_MS, SIGN_IN_LINK_PATH, signInLinkUrl } from './email-link.server';
import { InvitationMail } from './InvitationMail';
import { ESPACE_MESSAGES } from './messages';
import { isRole, ROLE_LABELS, rolesOfClaims, type Role } from './roles';
import { assertSection } from './server-calls.server';

/** Where the invited person goes once signed in: « Mon compte », to choose a password. */
export const WELCOME_PATH = '/espace/compte?bienvenue=1';

/** How long the first try at sending may take before the page answers (ms); the scheduled drain sends it otherwise. */
const SEND_NOW_MS = 4000;

/** What an invitation did: `invited` when the invitation was mailed (the account had no role before). */
export interface InvitationOutcome {
  email: string;
  role: Role;
  invited: boolean;
}

/**
 * Invites `email` with `role` (see the module's comment); `name`, optional, is only a person's name. `now`: ms.
 * @throws HttpError 403 unless the session is an admin's, 400 ESPACE_MESSAGES.invalidEmail, unknownRole or
 *   invitationName (nothing done), 503 ESPACE_MESSAGES.unavailable or sessionsStillOpen as changeRole.
 */
export async function inviteAccount(
  session: StaffSession | undefined,
  input: { email: string; role: string | undefined; name: string },
  now = Date.now(),
): Promise<InvitationOutcome> {
  assertSection(session, 'roles');
  const email = input.email.trim();
  const name = input.name.trim();
  if (!isMailAddress(email)) throw new HttpError(400, ESPACE_MESSAGES.invalidEmail);
  if (!isRole(input.role)) throw new HttpError(400, ESPACE_MESSAGES.unknownRole);
  if (name && !isPersonName(name)) throw new HttpError(400, ESPACE_MESSAGES.invitationName);
  const role = input.role;
  const auth = adminAuth();
  const failed = (what: string) => (error: unknown) => {
    throw authFailure(error, what);
  };
  const known = await withDeadline(auth.getUserByEmail(email), 8000).catch((error: { code?: string }) =>
    error?.code === 'auth/user-not-found' ? undefined : failed('getUserByEmail')(error),
  );
  const user =
    known ??
    (await withDeadline(auth.createUser({ email, ...(name ? { displayName: name } : {}) }), 8000).catch(
      failed('createUser'),
    ));
  const invited = rolesOfClaims(user.customClaims).length === 0;
  // An account the bureau invites again is theirs to use: a name given now, a disabled account enabled.
  if (known && invited && (user.disabled || (name && !user.displayName))) {
    const changes = { disabled: false, ...(name && !user.displayName ? { displayName: name } : {}) };
    await withDeadline(auth.updateUser(user.uid, changes), 8000).catch(failed('updateUser'));
  }
  const db = adminFirestore();
  await changeRole(session, auth, db, email, role, true);
  if (invited) await mailInvitation(session, user.email ?? email, name || user.displayName, role, now);
  return { email, role, invited };
}

/** Queues the invitation mail (one per address and LINK_INTERVAL_MS), logs it, and tries to send it now. */
async function mailInvitation(
  session: StaffSession,
  email: string,
  name: string | undefined,
  role: Role,
  now: number,
): Promise<void> {
  const db = adminFirestore();
  const signInUrl = await withDeadline(signInLinkUrl(email, now, WELCOME_PATH), 8000).catch((error: unknown) => {
    throw authFailure(error, 'generateSignInWithEmailLink');
  });
  const mail: OutgoingMail = {
    id: `espace-invitation-${logId(email.toLowerCase())}-${Math.floor(now / LINK_INTERVAL_MS)}`,
    kind: 'espace-invitation',
    to: email,
    subject: 'Votre invitation à l’espace de l’association',
    ...(await renderMail(
      <InvitationMail
        identity={await mailIdentity()}
        name={name && isPersonName(name) ? name : undefined}
        role={ROLE_LABELS[role].name}
        roleText={ROLE_LABELS[role].description}
        signInUrl={signInUrl}
        validity="une heure"
        newLinkUrl={`${siteOrigin()}${SIGN_IN_LINK_PATH}`}
      />,
    )),
  };
  const batch = db.batch();
  const ids = enqueueMails(db, batch, [mail]);
  // ALREADY_EXISTS (gRPC 6): this address was invited within the interval; that mail stands.
  const queued = await withDeadline(batch.commit(), 8000).then(
    () => true,
    (error: { code?: unknown }) => (error?.code === 6 ? false : Promise.reject(error)),
  );
  await recordAccess(db, session, 'envoi', `invitation ${email} : ${role}`).catch((error: unknown) =>
    console.error('[espace/roles] invitation not logged', error),
  );
  if (queued) await trySend(ids, SEND_NOW_MS);
}
