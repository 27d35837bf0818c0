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
 * Every request answers this long (ms) after it arrives, known address or not, so that the time of the answer does not
 * tell whether an account exists (docs/espace.md): the known address's work (account, link, outbox, a first try at
 * sending) is bounded to end before it; a mail not sent by then goes with the outbox's scheduled drain.
 */
export const LINK_ANSWER_MS = 2500;

/** Room (ms) left between the end of the sending try and the answer: the drain's own return and the event loop. */
const SEND_MARGIN_MS = 200;

/** Below this much time left (ms), no try at sending now: the scheduled drain sends the queued mail. */
const MIN_SEND_MS = 300;

/**
 * Mails a sign-in link to `email` if it is an enabled account with a role, and otherwise does nothing; the caller
 * always answers ESPACE_MESSAGES.linkSent. Resolves LINK_ANSWER_MS after the call, never sooner and, however slow
 * Firebase, Firestore or SMTP are, never much later: the work is given up at that time, the sending try given only
 * what is left. One mail per address and 10-minute interval (its outbox id says which). Errors are logged, never
 * shown: they would tell that the account exists. `now`: the time of the request (ms).
 */
export async function requestSignInLink(email: string, now = Date.now()): Promise<void> {
  const answerAt = performance.now() + LINK_ANSWER_MS;
  const answer = sleep(LINK_ANSWER_MS);
  if (isMailAddress(email)) {
    const timeLeft = () => answerAt - performance.now();
    await withDeadline(mailLink(email.trim(), now, timeLeft), LINK_ANSWER_MS).catch((error: unknown) =>
      console.error('[espace/connexion/lien] no link mailed', error),
    );
  }
  await answer;
}

/** Mails the link if `email` is a staff account's; `timeLeft()`: ms before the answer, the sending try's budget. */
async function mailLink(email: string, now: number, timeLeft: () => number): Promise<void> {
  const user = await adminAuth()
    .getUserByEmail(email)
    .catch((error: { code?: string }) => {
      if (error.code === 'auth/user-not-found') return undefined;
      throw error;
    });
  if (!user?.email || user.disabled || rolesOfClaims(user.customClaims).length === 0) return;
  const firestore = adminFirestore();
  const mailId = `espace-lien-${logId(user.email.toLowerCase())}-${Math.floor(now / LINK_INTERVAL_MS)}`;
  const signInUrl = await signInLinkUrl(user.email, now);
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
  const queued = await batch.commit().then(
    () => true,
    (error: { code?: unknown }) => (error?.code === 6 ? false : Promise.reject(error)),
  );
  const budget = timeLeft() - SEND_MARGIN_MS;
  if (queued && budget >= MIN_SEND_MS) await trySend(ids, budget);
}

/**
 * The site's sign-in link for the account of `email`, issued at `now` (ms): firebase-admin makes the one-time code,
 * the link opens SIGN_IN_LINK_PATH (`?code=…&emis=<seconds>`, then `suite`, a path of the space to go on to once
 * signed in). Valid LINK_LIFETIME_S. @throws Auth's error.
 */
export async function signInLinkUrl(email: string, now: number, suite?: string): Promise<string> {
  const landing = `${siteOrigin()}${SIGN_IN_LINK_PATH}`;
  const firebaseLink = await adminAuth().generateSignInWithEmailLink(email, { url: landing, handleCodeInApp: true });
  const code = new URL(firebaseLink).searchParams.get('oobCode');
  if (!code) throw new Error('generateSignInWithEmailLink answered a link without oobCode');
  const query = new URLSearchParams({ code, emis: String(Math.floor(now / 1000)), ...(suite ? { suite } : {}) });
  return `${landing}?${query}`;
}

/** True when a link issued at `issuedAt` (s since the epoch, the link's `emis`) is within its hour at `now` (ms). */
export function linkStillValid(issuedAt: string | null, now = Date.now()): boolean {
  const seconds = Number(issuedAt);
  return Number.isInteger(seconds) && seconds * 1000 <= now + 60_000 && now / 1000 - seconds <= LINK_LIFETIME_S;
}
