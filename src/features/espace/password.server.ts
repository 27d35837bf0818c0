/**
 * « Mon compte » (/espace/compte): a signed-in person chooses a password (an invited person arrives with none and may
 * keep signing in by link). firebase-admin sets it; since a new password ends the account's sessions, the page signs
 * the person in again with it at once (a new 8-hour session), so nobody is sent back to the sign-in page.
 */
import type { AstroCookies } from 'astro';
import { HttpError } from '../../lib/http';
import { withDeadline } from '../../lib/deadline';
import { adminAuth, signInWithPassword, type StaffSession } from './auth.server';
import { ESPACE_MESSAGES } from './messages';
import { assertSection } from './server-calls.server';
import { startSession } from './session.server';

/** Shortest and longest password, in characters (Firebase takes 6 to 4096; a sentence is welcome). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/**
 * Sets `password` (typed twice: `again`) as the password of `session`'s account, then opens a new session with it.
 * @throws HttpError 400 ESPACE_MESSAGES.passwordTooShort, passwordTooLong or passwordsDiffer (nothing changed), 403
 *   without a session, 503 when Firebase fails.
 */
export async function choosePassword(
  session: StaffSession | undefined,
  cookies: AstroCookies,
  password: string,
  again: string,
): Promise<void> {
  assertSection(session, 'compte');
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new HttpError(400, ESPACE_MESSAGES.passwordTooShort);
  if (length > PASSWORD_MAX) throw new HttpError(400, ESPACE_MESSAGES.passwordTooLong);
  if (password !== again) throw new HttpError(400, ESPACE_MESSAGES.passwordsDiffer);
  await withDeadline(adminAuth().updateUser(session.uid, { password }), 8000).catch((error: unknown) => {
    throw new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: error });
  });
  await startSession(cookies, await signInWithPassword(session.email, password));
}
