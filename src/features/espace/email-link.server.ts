/**
 * Sign-in by email link, beside email and password: a staff member asks for a link on /espace/connexion, the site
 * mails it through the outbox, and the page it leads to signs them in once they confirm their email (a POST: mail
 * scanners that open links sign nobody in). Firebase makes the one-time code (`generateSignInWithEmailLink`) and
 * checks it (auth.server.ts signInWithEmailLink); the site writes the mail. docs/espace.md, « Sign-in by link ».
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { withDeadline } from '../../lib/deadline';
import { logId } from '../../lib/log-id.server';
import { siteOrigin } from '../../lib/site-origin';
import { isMailAddress } from '../mail/mail';
import { mailIdentity, trySend } from '../mail/mail-env.server';
import { signInLinkMail } from '../mail/mails.server';
import { enqueueMails } from '../mail/outbox.server';
import { adminAuth } from './auth.server';
import { rolesOfClaims } from './roles';

/** The page a sign-in link opens (`?code=<oobCode>&emis=<seconds>`). */
export const SIGN_IN_LINK_PATH = '/espace/connexion/lien';

/** How long a link works: 1 hour (s), Firebase's own limit for the code too (it does not publish it exactly). */
export const LINK_LIFETIME_S = 3600;

/** At most one link mail per address in each such interval (ms, 10 minutes), however often it is asked. */
export const LINK_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Every request takes at least this long (ms) before it answers, known address or not, so that the time of the answer
 * does not tell whether an account exists.
 */
const MIN_ANSWER_MS = 1500;

/**
 * Mails a sign-in link to `email` if it is an enabled account with a role, and otherwise does nothing; the caller
 * always answers ESPACE_MESSAGES.linkSent. One mail per address and 10-minute interval (its outbox id says which),
 * tried at once within 3 s, else sent by the next drain. Errors are logged, never shown: they would tell that the
 * account exists. `now`: the time of the request (ms).
 */
export async function requestSignInLink(email: string, now = Date.now()): Promise<void> {
  const answerNoSoonerThan = sleep(MIN_ANSWER_MS);
  try {
    if (isMailAddress(email)) await mailLink(email.trim(), now);
  } catch (error) {
    console.error('[espace/connexion/lien] no link mailed', error);
  }
  await answerNoSoonerThan;
}

async function mailLink(email: string, now: number): Promise<void> {
  const user = await withDeadline(adminAuth().getUserByEmail(email), 8000).catch((error: { code?: string }) => {
    if (error.code === 'auth/user-not-found') return undefined;
    throw error;
  });
  if (!user?.email || user.disabled || rolesOfClaims(user.customClaims).length === 0) return;
  const firestore = adminFirestore();
  const mailId = `espace-lien-${logId(user.email.toLowerCase())}-${Math.floor(now / LINK_INTERVAL_MS)}`;
  const landing = `${siteOrigin()}${SIGN_IN_LINK_PATH}`;
  const firebaseLink = await withDeadline(
    adminAuth().generateSignInWithEmailLink(user.email, { url: landing, handleCodeInApp: true }),
    8000,
  );
  const code = new URL(firebaseLink).searchParams.get('oobCode');
  if (!code) throw new Error('generateSignInWithEmailLink answered a link without oobCode');
  const signInUrl = `${landing}?${new URLSearchParams({ code, emis: String(Math.floor(now / 1000)) })}`;
  const mail = await signInLinkMail({
    identity: await mailIdentity(),
    mailId,
    email: user.email,
    signInUrl,
    validity: 'une heure',
  });
  const batch = firestore.batch();
  const ids = enqueueMails(firestore, batch, [mail]);
  // ALREADY_EXISTS (gRPC 6): a link went to this address in this interval already; this one is dropped.
  const queued = await withDeadline(
    batch.commit().then(
      () => true,
      (error: { code?: unknown }) => (error?.code === 6 ? false : Promise.reject(error)),
    ),
    8000,
  );
  if (queued) await trySend(ids, 3000);
}

/** True when a link issued at `issuedAt` (s since the epoch, the link's `emis`) is within its hour at `now` (ms). */
export function linkStillValid(issuedAt: string | null, now = Date.now()): boolean {
  const seconds = Number(issuedAt);
  return Number.isInteger(seconds) && seconds * 1000 <= now + 60_000 && now / 1000 - seconds <= LINK_LIFETIME_S;
}
