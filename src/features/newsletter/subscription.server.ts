/**
 * The newsletter's double opt-in: one `newsletter` document per address (its id is the SHA-256 of the address in
 * lower case), `pending` until the visitor confirms from the mail, `confirmed`, then `unsubscribed` keeping only
 * the proof of consent and of its withdrawal. Fields, tokens and the one-mail-an-hour rule: docs/mail.md.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Timestamp, type DocumentData, type Firestore } from 'firebase-admin/firestore';
import { enqueueMails, forgetMailsTo } from '../mail/outbox.server';
import { NEWSLETTER_MAIL_KIND } from '../mail/mail';
import { newsletterConfirmationMail, type MailIdentity } from '../mail/mails.server';
import { LETTER_MAIL_KIND } from './letters';
import { UNCONFIRMED_KEPT_MS } from './subscription';

/** Where a subscription stands (`statut`). */
export type SubscriptionState = 'pending' | 'confirmed' | 'unsubscribed';

/** At most one confirmation mail per address within this many ms (1 hour), whatever is posted. */
export const CONFIRMATION_INTERVAL_MS = 3_600_000;

/** The site's pages a newsletter mail links to, by path (the token goes in `?jeton=`). */
export const NEWSLETTER_PAGES = {
  confirm: '/newsletter/confirmer',
  unsubscribe: '/newsletter/desinscription',
} as const;

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** The document id of an address: SHA-256 (hex) of the address trimmed and in lower case. */
export function subscriptionId(email: string): string {
  return sha256(email.trim().toLowerCase());
}

/** A token `<document id>.<secret>`: 64 hex digits, a dot, 43 base64url characters (32 random bytes). */
const TOKEN_PATTERN = /^([0-9a-f]{64})\.([A-Za-z0-9_-]{43})$/;

const newSecret = () => randomBytes(32).toString('base64url');

/** True when `secret` hashes to `hash`, compared in constant time. */
function matches(secret: string, hash: unknown): boolean {
  return (
    typeof hash === 'string' && hash.length === 64 && timingSafeEqual(Buffer.from(sha256(secret)), Buffer.from(hash))
  );
}

/**
 * Records a sign-up of `email` with its consent (version and text) at `now` (ms), in one transaction with its
 * confirmation mail: a new or unsubscribed address becomes `pending` and gets one; a pending one gets another only
 * when the last is over an hour old; a confirmed one gets nothing. Returns the outbox ids queued (for trySend).
 */
export async function subscribe(
  firestore: Firestore,
  {
    email,
    consentementVersion,
    consentementTexte,
  }: { email: string; consentementVersion: string; consentementTexte?: string },
  { identity, now }: { identity: MailIdentity; now: number },
): Promise<string[]> {
  const id = subscriptionId(email);
  const reference = firestore.collection('newsletter').doc(id);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data();
    const lastMail =
      current?.statut === 'pending' ? (current.confirmationEnvoyeeLe as Timestamp | undefined) : undefined;
    if (current?.statut === 'confirmed' || (lastMail && now - lastMail.toMillis() < CONFIRMATION_INTERVAL_MS)) {
      // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back unchanged.
      transaction.set(reference, current!);
      return [];
    }
    const confirmSecret = newSecret();
    const unsubscribeToken = `${id}.${newSecret()}`;
    const link = (path: string, token: string) => `${identity.siteUrl}${path}?jeton=${token}`;
    transaction.set(reference, {
      email: email.trim(),
      statut: 'pending' satisfies SubscriptionState,
      consentement: true,
      consentementVersion,
      consentementTexte: consentementTexte ?? '',
      date: Timestamp.fromMillis(now),
      confirmationHash: sha256(confirmSecret),
      confirmationEnvoyeeLe: Timestamp.fromMillis(now),
      desinscriptionJeton: unsubscribeToken,
      // What an earlier subscription of the address left (a withdrawal's proof) is replaced, not merged (set()
      // replaces in production, the embedded emulator merges): both then hold the same document.
      ...(current && { confirmeLe: null, desinscritLe: null, desinscriptionHash: null }),
    });
    const mail = await newsletterConfirmationMail({
      identity,
      subscriptionId: id,
      sentAtMs: now,
      email: email.trim(),
      confirmUrl: link(NEWSLETTER_PAGES.confirm, `${id}.${confirmSecret}`),
      unsubscribeUrl: link(NEWSLETTER_PAGES.unsubscribe, unsubscribeToken),
    });
    return enqueueMails(firestore, transaction, [mail]);
  });
}

/** What came of a confirmation or an unsubscription: done now, already so, or a token that matches nothing. */
export type TokenOutcome = 'done' | 'already' | 'invalid';

/** Reads the document a token names in a transaction and hands it to `change` (null: unknown token). */
function withToken(
  firestore: Firestore,
  token: string,
  change: (current: DocumentData, secret: string) => { next?: DocumentData; outcome: TokenOutcome },
): Promise<TokenOutcome> {
  const match = TOKEN_PATTERN.exec(token.trim());
  if (!match) return Promise.resolve('invalid');
  const reference = firestore.collection('newsletter').doc(match[1]!);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data();
    if (!current) return 'invalid';
    const { next, outcome } = change(current, match[2]!);
    if (!next) transaction.set(reference, current);
    else {
      // Fields left out of `next` are emptied (null): the embedded emulator ignores deletes and merges every `set`.
      const gone = Object.keys(current).filter((field) => !(field in next));
      transaction.update(reference, { ...next, ...Object.fromEntries(gone.map((field) => [field, null])) });
    }
    return outcome;
  });
}

/**
 * Confirms the subscription of a confirmation token (`<id>.<secret>`) at `now` (ms): `confirmeLe` is set. The secret
 * is checked first, so that a forged token learns nothing of whether the address is subscribed (`confirmationHash`
 * stays, for a second click to answer 'already').
 */
export function confirmSubscription(firestore: Firestore, token: string, now: number): Promise<TokenOutcome> {
  return withToken(firestore, token, (current, secret) => {
    if (!matches(secret, current.confirmationHash)) return { outcome: 'invalid' };
    if (current.statut === 'confirmed') return { outcome: 'already' };
    if (current.statut !== 'pending') return { outcome: 'invalid' };
    const { confirmationEnvoyeeLe: _sent, ...rest } = current;
    return { next: { ...rest, statut: 'confirmed', confirmeLe: Timestamp.fromMillis(now) }, outcome: 'done' };
  });
}

/**
 * Unsubscribes the address of an unsubscribe token at `now` (ms): the document keeps only the proof of consent (its
 * version, text and dates), `desinscritLe` and the token's hash (for a second click to answer 'already'); the address
 * and the tokens are erased (null), and the address's confirmation mails and letters not yet sent leave the outbox.
 * The token is checked first: a forged one learns nothing of whether the address was subscribed.
 */
export async function unsubscribe(firestore: Firestore, token: string, now: number): Promise<TokenOutcome> {
  const hash = sha256(token.trim());
  let address: unknown;
  const outcome = await withToken(firestore, token, (current) => {
    if (current.statut === 'unsubscribed')
      return { outcome: current.desinscriptionHash === hash ? 'already' : 'invalid' };
    if (
      typeof current.desinscriptionJeton !== 'string' ||
      !matches(token.trim(), sha256(current.desinscriptionJeton))
    ) {
      return { outcome: 'invalid' };
    }
    address = current.email;
    const proof = Object.fromEntries(
      ['consentement', 'consentementVersion', 'consentementTexte', 'date', 'confirmeLe']
        .filter((field) => current[field] !== undefined)
        .map((field) => [field, current[field]]),
    );
    const withdrawal = { statut: 'unsubscribed', desinscritLe: Timestamp.fromMillis(now), desinscriptionHash: hash };
    return { next: { ...proof, ...withdrawal }, outcome: 'done' };
  });
  if (outcome === 'done' && typeof address === 'string') {
    await forgetMailsTo(firestore, address, NEWSLETTER_MAIL_KIND);
    // A letter's mail not yet sent never leaves; one sent stays, as every mail, for the outbox's 30 days.
    await forgetMailsTo(firestore, address, LETTER_MAIL_KIND, ['pending', 'failed']);
  }
  return outcome;
}

/**
 * Deletes the sign-ups still `pending` 30 days after their last confirmation mail (`confirmationEnvoyeeLe`): an
 * address someone typed and nobody confirmed is kept no longer than its link is worth (RGPD art. 5.1.e); nothing is
 * kept, since nobody consented. Run daily with the pre-registrations' retention (netlify/functions/retention.mts).
 * Returns the number deleted. @throws the Firestore error.
 */
export async function purgeUnconfirmedSignUps(firestore: Firestore, now = Date.now()): Promise<number> {
  const cutoff = Timestamp.fromMillis(now - UNCONFIRMED_KEPT_MS);
  // One range on one field (Firestore's automatic index): confirming or leaving empties `confirmationEnvoyeeLe`.
  const old = await firestore.collection('newsletter').where('confirmationEnvoyeeLe', '<=', cutoff).limit(500).get();
  let deleted = 0;
  for (const { ref } of old.docs) {
    // Read again in a transaction: a confirmation between the query and the delete keeps the address.
    const gone = await firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(ref)).data();
      const sent = current?.confirmationEnvoyeeLe as Timestamp | null | undefined;
      if (current?.statut !== 'pending' || !sent || sent.toMillis() > cutoff.toMillis()) {
        // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back unchanged.
        if (current) transaction.set(ref, current);
        return false;
      }
      transaction.delete(ref);
      return true;
    });
    if (gone) deleted += 1;
  }
  return deleted;
}
