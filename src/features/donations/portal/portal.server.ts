/**
 * Monthly donors manage their gift alone in Stripe's customer portal, reached through a single-use link sent by mail:
 * `/soutenir/gerer` asks for the email, the mail's link opens `/soutenir/gerer/lien`, whose button creates a portal
 * session for the donor's Stripe customer and redirects to it (the pages' handlers: portal-pages.server.ts). One
 * `portail` document per address (its id: SHA-256 of the address in lower case) holds the link's hash, never the
 * link. Fields and rules: docs/donations.md.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Timestamp, type DocumentData, type Firestore } from 'firebase-admin/firestore';
import { enqueueMails } from '../../mail/outbox.server';
import { portalLinkMail } from '../receipts/donor-mails.server';
import type { MailIdentity } from '../../mail/mails.server';
import { siteMailSettings } from '../../mail/mail-env.server';
import { CUSTOMER_ID_PATTERN, giftConverter, type Gift } from '../ledger/gift.server';

/** The collection of the links: one document per address asked for. */
export const PORTAL_COLLECTION = 'portail';

/** How long a link opens the portal, in ms (1 hour). */
export const PORTAL_LINK_TTL_MS = 3_600_000;

/** At most one mail per address within this many ms (1 hour), whatever is posted (as the newsletter's). */
export const PORTAL_MAIL_INTERVAL_MS = 3_600_000;

/** The pages, by path: the request form and the page the mail's link opens (`?jeton=`). */
export const PORTAL_PAGES = { request: '/soutenir/gerer', link: '/soutenir/gerer/lien' } as const;

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** The `portail` document id of an address: SHA-256 (hex) of the address trimmed and in lower case. */
export const portalDocumentId = (email: string): string => sha256(email.trim().toLowerCase());

/** A link's token `<document id>.<secret>`: 64 hex digits, a dot, 43 base64url characters (32 random bytes). */
const TOKEN_PATTERN = /^([0-9a-f]{64})\.([A-Za-z0-9_-]{43})$/;

/** A `portail` document. Timestamps; `jetonHash` the SHA-256 of the link's secret, '' once none is pending. */
interface PortalDocument {
  /** The last request of the address, mailed or not. */
  demandeLe: Timestamp;
  /** The last link mailed (the rate limit), absent for an address never mailed. */
  envoyeLe?: Timestamp;
  jetonHash?: string;
  expireLe?: Timestamp;
  /** When the pending link was used (null: not yet). */
  utiliseLe?: Timestamp | null;
  /** Stripe's customer of the donor, `cus_…`. */
  client?: string;
}

/**
 * The Stripe customer of the newest monthly gift (`abonnement` or `mensualite`) of `email` in the ledger that names
 * one (`client`), undefined for an address without one. Looks the address up as typed and in lower case.
 */
export async function monthlyDonorCustomer(firestore: Firestore, email: string): Promise<string | undefined> {
  const spellings = [...new Set([email.trim(), email.trim().toLowerCase()])];
  const dons = firestore.collection('dons').withConverter(giftConverter);
  const snapshots = await Promise.all(spellings.map((value) => dons.where('email', '==', value).limit(200).get()));
  const gifts: Gift[] = snapshots.flatMap((snapshot) => snapshot.docs.map((document) => document.data()));
  return gifts
    .filter((gift) => gift.nature !== 'don' && CUSTOMER_ID_PATTERN.test(gift.client ?? ''))
    .toSorted((a, b) => b.datePaiement.toMillis() - a.datePaiement.toMillis())[0]?.client;
}

/**
 * Records a request for `email` at `now` (ms) and, for a monthly donor whose last link is over an hour old, queues in
 * the same transaction the mail with a new link (the previous one stops working). Every request does the same reads,
 * render and write, mailed or not. Returns the outbox ids queued (for trySend).
 */
export async function requestPortalLink(
  firestore: Firestore,
  email: string,
  { identity, now }: { identity: MailIdentity; now: number },
): Promise<string[]> {
  const id = portalDocumentId(email);
  const secret = randomBytes(32).toString('base64url');
  const mail = await portalLinkMail({
    identity,
    requestId: `${id.slice(0, 16)}-${now}`,
    email: email.trim(),
    replyTo: siteMailSettings().staff,
    linkUrl: `${identity.siteUrl}${PORTAL_PAGES.link}?jeton=${id}.${secret}`,
  });
  const customer = await monthlyDonorCustomer(firestore, email);
  const reference = firestore.collection(PORTAL_COLLECTION).doc(id);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data() as PortalDocument | undefined;
    const lastMail = current?.envoyeLe?.toMillis();
    const requestedAt = Timestamp.fromMillis(now);
    if (!customer || (lastMail !== undefined && now - lastMail < PORTAL_MAIL_INTERVAL_MS)) {
      transaction.set(reference, { ...current, demandeLe: requestedAt });
      return [];
    }
    const next: PortalDocument = {
      demandeLe: requestedAt,
      envoyeLe: requestedAt,
      jetonHash: sha256(secret),
      expireLe: Timestamp.fromMillis(now + PORTAL_LINK_TTL_MS),
      utiliseLe: null,
      client: customer,
    };
    transaction.set(reference, next);
    return enqueueMails(firestore, transaction, [mail]);
  });
}

/** Where a link stands: usable, or why not. */
export type LinkState = 'ok' | 'expired' | 'used' | 'invalid';

/** True when `secret` hashes to `hash`, compared in constant time. */
function matches(secret: string, hash: unknown): boolean {
  return (
    typeof hash === 'string' && hash.length === 64 && timingSafeEqual(Buffer.from(sha256(secret)), Buffer.from(hash))
  );
}

/** The state of `token` in `data` (the document it names) at `now` (ms). */
function linkState(data: DocumentData | undefined, secret: string, now: number): LinkState {
  const document = data as PortalDocument | undefined;
  if (!document || !matches(secret, document.jetonHash)) return 'invalid';
  if (document.utiliseLe) return 'used';
  if (!document.expireLe || document.expireLe.toMillis() <= now) return 'expired';
  return CUSTOMER_ID_PATTERN.test(document.client ?? '') ? 'ok' : 'invalid';
}

/** The state of the link `token` at `now` (ms), read only: what the page says before its button is pressed. */
export async function peekPortalLink(firestore: Firestore, token: string, now: number): Promise<LinkState> {
  const match = TOKEN_PATTERN.exec(token.trim());
  if (!match) return 'invalid';
  const snapshot = await firestore.collection(PORTAL_COLLECTION).doc(match[1]!).get();
  return linkState(snapshot.data(), match[2]!, now);
}

/**
 * Uses the link `token` at `now` (ms) in one transaction: a usable link is marked used (`utiliseLe`) and its customer
 * returned; `release` undoes the use when the portal could not be opened (the link stays valid until it expires).
 */
export async function usePortalLink(
  firestore: Firestore,
  token: string,
  now: number,
): Promise<{ state: Exclude<LinkState, 'ok'> } | { state: 'ok'; customer: string; release: () => Promise<void> }> {
  const match = TOKEN_PATTERN.exec(token.trim());
  if (!match) return { state: 'invalid' };
  const reference = firestore.collection(PORTAL_COLLECTION).doc(match[1]!);
  const used = await firestore.runTransaction(async (transaction) => {
    const data = (await transaction.get(reference)).data();
    const state = linkState(data, match[2]!, now);
    if (state !== 'ok') {
      // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back unchanged.
      if (data) transaction.set(reference, data);
      return { state } as const;
    }
    transaction.update(reference, { utiliseLe: Timestamp.fromMillis(now) });
    return { state, customer: (data as PortalDocument).client! } as const;
  });
  if (used.state !== 'ok') return used;
  const release = async () => {
    await firestore.runTransaction(async (transaction) => {
      const data = (await transaction.get(reference)).data() as PortalDocument | undefined;
      if (data && matches(match[2]!, data.jetonHash)) transaction.update(reference, { utiliseLe: null });
      else if (data) transaction.set(reference, data);
    });
  };
  return { ...used, release };
}
