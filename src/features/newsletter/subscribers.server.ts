/**
 * The newsletter's confirmed subscribers (`newsletter`, docs/mail.md) for whoever sends the letter: the list, the CSV
 * export for a mailing tool, removing an address. Each after checking the session's role (section `lettre`) and
 * logging the access (access-log.server.ts), with firebase-admin.
 */
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { unsubscribe } from './subscription.server';
import { recordAccess } from '../espace/access-log.server';
import { shortDay, toDate } from '../admissions/admissions';
import type { StaffSession } from '../espace/auth.server';
import { toCsv } from '../../lib/csv';
import { ESPACE_MESSAGES } from '../espace/messages';
import { assertSection, bounded } from '../espace/server-calls.server';

const COLLECTION = 'newsletter';

/** A subscription's document id: the SHA-256 (hex) of the address (subscriptionId). */
const ID_PATTERN = /^[0-9a-f]{64}$/;

/** A confirmed subscriber: the document id, the address, when it was confirmed. */
export interface Subscriber {
  id: string;
  email: string;
  confirmeLe: Date | undefined;
}

/** Every confirmed subscriber, the most recently confirmed first (no log: callers log what they show). */
async function confirmed(): Promise<Subscriber[]> {
  const query = adminFirestore()
    .collection(COLLECTION)
    .where('statut', '==', 'confirmed')
    .select('email', 'confirmeLe');
  const snapshot = await bounded('list', query.get());
  return snapshot.docs
    .map((document) => ({
      id: document.id,
      email: String(document.get('email') ?? '').trim(),
      confirmeLe: toDate(document.get('confirmeLe')),
    }))
    .filter((subscriber) => subscriber.email)
    .toSorted((a, b) => (b.confirmeLe?.getTime() ?? 0) - (a.confirmeLe?.getTime() ?? 0));
}

/** The confirmed subscribers, newest first, logged as one consultation of the list. @throws HttpError 403, 503. */
export async function listSubscribers(session: StaffSession | undefined): Promise<Subscriber[]> {
  assertSection(session, 'lettre');
  await bounded('log', recordAccess(adminFirestore(), session, 'consultation', `${COLLECTION} (liste)`));
  return confirmed();
}

/** Subscribers confirmed after `since` (all without it), without logging: a count for /espace. */
export async function subscribersSince(session: StaffSession | undefined, since: Date | undefined) {
  assertSection(session, 'lettre');
  const all = await confirmed();
  return {
    total: all.length,
    count: all.filter((entry) => !since || (entry.confirmeLe && entry.confirmeLe > since)).length,
  };
}

/**
 * The CSV (csv.ts) for a mailing tool: `Email`, `Date de confirmation` (jj/mm/aaaa), newest first; logged with its
 * row count. @throws HttpError 403, 503.
 */
export async function exportSubscribers(session: StaffSession | undefined): Promise<{ csv: string; rows: number }> {
  assertSection(session, 'lettre');
  const all = await confirmed();
  await bounded('log', recordAccess(adminFirestore(), session, 'export', `${COLLECTION} (${all.length} lignes, CSV)`));
  const rows = all.map((subscriber) => [subscriber.email, shortDay(subscriber.confirmeLe)]);
  return { csv: toCsv(['Email', 'Date de confirmation'], rows), rows: all.length };
}

/** The confirmed subscriber `id`, for the removal's confirmation (logged as a consultation). @throws 403, 404, 503. */
export async function getSubscriber(session: StaffSession | undefined, id: string): Promise<Subscriber> {
  assertSection(session, 'lettre');
  if (!ID_PATTERN.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notSubscribed);
  const db = adminFirestore();
  const snapshot = await bounded('get', db.collection(COLLECTION).doc(id).get());
  const email = String(snapshot.get('email') ?? '').trim();
  if (snapshot.get('statut') !== 'confirmed' || !email) throw new HttpError(404, ESPACE_MESSAGES.notSubscribed);
  await bounded('log', recordAccess(db, session, 'consultation', `${COLLECTION}/${id}`));
  return { id, email, confirmeLe: toDate(snapshot.get('confirmeLe')) };
}

/**
 * Removes the confirmed subscriber `id` exactly as the subscriber's own unsubscribe link does (the mail feature's
 * `unsubscribe`, with the document's own token): only the proof of consent and of its withdrawal stay. Logged as a
 * deletion. @throws HttpError 403, 404 ESPACE_MESSAGES.notSubscribed, 503.
 */
export async function removeSubscriber(session: StaffSession | undefined, id: string): Promise<void> {
  assertSection(session, 'lettre');
  if (!ID_PATTERN.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notSubscribed);
  const db = adminFirestore();
  const snapshot = await bounded('read', db.collection(COLLECTION).doc(id).get());
  const token = snapshot.get('desinscriptionJeton');
  if (snapshot.get('statut') !== 'confirmed' || typeof token !== 'string') {
    throw new HttpError(404, ESPACE_MESSAGES.notSubscribed);
  }
  const outcome = await bounded('unsubscribe', unsubscribe(db, token, Date.now()));
  if (outcome === 'invalid') throw new HttpError(404, ESPACE_MESSAGES.notSubscribed);
  await bounded('log', recordAccess(db, session, 'suppression', `${COLLECTION}/${id}`));
}
