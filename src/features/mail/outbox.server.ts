/**
 * The outbox: one Firestore document per mail in `outbox`, written in the same transaction (or batch) as what it is
 * about, so that a submission is never stored without its mails nor its mails without it. The drain (drain.server.ts)
 * sends them. Fields and states: docs/mail.md. No astro:env here: the scheduled function and `npm run outbox` use it.
 */
import { FieldValue, Timestamp, type Firestore, type Transaction, type WriteBatch } from 'firebase-admin/firestore';
import { checkedMail, OUTBOX_KEPT_DAYS, type OutgoingMail } from './mail';

/** The outbox collection. */
export const OUTBOX = 'outbox';

/**
 * Where a mail stands: `pending` (waiting for its next attempt at `nextAttemptAt`), `sending` (claimed by a drain
 * until `nextAttemptAt`), `sent`, `failed` (refused by the relay, or out of attempts: `lastError` says why).
 */
export type OutboxState = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * An outbox document as stored. `html`, `text` and `attachments` are emptied once the mail is sent (no copy of a
 * mail's content stays behind); `nextAttemptAt` is null once it is `sent` or `failed` (the drain's query finds only
 * the others).
 */
export interface OutboxDocument {
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo: string;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Uint8Array }[];
  state: OutboxState;
  /** Attempts started (a claim counts one). */
  attempts: number;
  nextAttemptAt: Timestamp | null;
  /** The relay's or the network's last error ('' none), at most 500 characters. */
  lastError: string;
  createdAt: Timestamp;
  sentAt?: Timestamp;
  /** The relay's answer to the accepted message ('250 OK: queued as …'). */
  relayResponse?: string;
}

/**
 * Queues `mails` inside `writer` (the caller's transaction or batch; nothing is queued unless it commits): each is
 * created under its id (`create`: a second queueing of the same id fails the whole commit, never sends twice).
 * Returns the ids, for trySend. @throws MailInputError (checkedMail) before anything is written.
 */
export function enqueueMails(firestore: Firestore, writer: Transaction | WriteBatch, mails: OutgoingMail[]): string[] {
  const checked = mails.map(checkedMail);
  for (const mail of checked) {
    const document = {
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      replyTo: mail.replyTo ?? '',
      headers: mail.headers ?? {},
      attachments: (mail.attachments ?? []).map(({ filename, contentType, content }) => ({
        filename,
        contentType,
        content: Buffer.from(content),
      })),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: Timestamp.now(),
      lastError: '',
      createdAt: FieldValue.serverTimestamp(),
    };
    // Transaction.create and WriteBatch.create have the same shape; TypeScript cannot call a union's overloads.
    (writer as WriteBatch).create(firestore.collection(OUTBOX).doc(mail.id), document);
  }
  return checked.map((mail) => mail.id);
}

/** A failed mail as staff see it: no content (`html`, `text`, attachments stay in the outbox). */
export interface FailedMail {
  id: string;
  kind: string;
  to: string;
  lastError: string;
  attempts: number;
  createdAt: Date | undefined;
}

/** The newest `limit` (default 50) `failed` mails of the outbox, newest first. */
export async function failedMails(firestore: Firestore, limit = 50): Promise<FailedMail[]> {
  const snapshot = await firestore.collection(OUTBOX).where('state', '==', 'failed').limit(500).get();
  return snapshot.docs
    .map((document) => {
      const data = document.data() as Partial<OutboxDocument>;
      return {
        id: document.id,
        kind: String(data.kind ?? ''),
        to: String(data.to ?? ''),
        lastError: String(data.lastError ?? ''),
        attempts: Number(data.attempts ?? 0),
        createdAt: data.createdAt instanceof Timestamp ? data.createdAt.toDate() : undefined,
      };
    })
    .toSorted((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
    .slice(0, limit);
}

/** Documents deleted per batch (Firestore allows 500 writes in one). */
const DELETE_BATCH = 200;

/**
 * Deletes every outbox document queued more than OUTBOX_KEPT_DAYS days before `now`. Run daily by the retention job.
 * Returns how many were deleted. @throws the Firestore error (what a batch deleted stays deleted).
 */
export async function purgeOldMails(firestore: Firestore, now = new Date()): Promise<number> {
  const cutoff = Timestamp.fromMillis(now.getTime() - OUTBOX_KEPT_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const old = await firestore.collection(OUTBOX).where('createdAt', '<=', cutoff).limit(DELETE_BATCH).get();
    if (old.empty) return deleted;
    const batch = firestore.batch();
    for (const { ref } of old.docs) batch.delete(ref);
    await batch.commit();
    deleted += old.size;
    if (old.size < DELETE_BATCH) return deleted;
  }
}

/**
 * Deletes the mails of `kind` queued to `to` (an address that left: nothing of it stays in the outbox), but one a
 * drain is sending at this moment, which purgeOldMails deletes later; only those in `states` when given (a letter's
 * mails not yet sent). Returns how many. @throws the Firestore error.
 */
export async function forgetMailsTo(
  firestore: Firestore,
  to: string,
  kind: string,
  states?: readonly OutboxState[],
): Promise<number> {
  const mails = await firestore.collection(OUTBOX).where('to', '==', to).get();
  const gone = mails.docs.filter((document) => {
    const state = document.get('state') as OutboxState;
    return document.get('kind') === kind && state !== 'sending' && (!states || states.includes(state));
  });
  if (gone.length === 0) return 0;
  const batch = firestore.batch();
  for (const { ref } of gone) batch.delete(ref);
  await batch.commit();
  return gone.length;
}
