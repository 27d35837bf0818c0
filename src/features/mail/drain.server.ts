/**
 * Sending what the outbox holds: each mail is claimed in a transaction (state `sending`, one more attempt, a lease
 * in `nextAttemptAt`) before it is handed to SMTP, so that two drains never both send it; then it is marked `sent`,
 * put back `pending` with a later `nextAttemptAt` (backoff), or `failed`. Configuration comes as arguments (no
 * astro:env): the endpoints (mail-env.server.ts), the scheduled function and `npm run outbox` share this module.
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { deadlineMs as effectiveDeadline } from '../../lib/deadline';
import { maskEmails } from './mail';
import { OUTBOX, type OutboxDocument } from './outbox.server';
import type { MailTransport } from './transport.server';

/** Minutes to wait after each failed attempt (1st, 2nd…); after the last, the mail is `failed` (about two days). */
export const RETRY_DELAYS_MINUTES = [1, 5, 15, 60, 180, 360, 720, 1440] as const;

/** Attempts before a mail is `failed`: one, then one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MINUTES.length + 1;

/** How long a claim holds, in ms: a drain that died mid-send leaves the mail to the next drain after this. */
export const CLAIM_LEASE_MS = 120_000;

/** What a drain needs: the database, the SMTP transport (undefined: mail not configured, nothing is sent). */
export interface DrainConfig {
  firestore: Firestore;
  transport: MailTransport | undefined;
  /** The clock, in ms since the epoch (tests move it). */
  now?: () => number;
}

/** What one drain did, in mails; `notConfigured` when there is no transport (nothing was tried). */
export interface DrainReport {
  sent: number;
  retried: number;
  failed: number;
  /** Due mails left for a later drain (deadline reached, or claimed by another drain). */
  left: number;
  notConfigured: boolean;
}

type Outcome = 'sent' | 'retried' | 'failed' | 'skipped';

/** Settles as `promise`, or with `fallback` after `ms` milliseconds (the promise keeps running). */
function settleWithin<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), Math.max(0, ms))));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Claims `outbox/<id>` if it is due (pending, or `sending` past its lease); the document claimed, else undefined. */
async function claim(firestore: Firestore, id: string, now: number): Promise<OutboxDocument | undefined> {
  const reference = firestore.collection(OUTBOX).doc(id);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data() as OutboxDocument | undefined;
    const due = current?.nextAttemptAt && current.nextAttemptAt.toMillis() <= now;
    if (!current || !due || (current.state !== 'pending' && current.state !== 'sending')) {
      // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back unchanged.
      if (current) transaction.set(reference, current);
      return undefined;
    }
    const attempts = current.attempts + 1;
    transaction.update(reference, {
      state: 'sending',
      attempts,
      nextAttemptAt: Timestamp.fromMillis(now + CLAIM_LEASE_MS),
    });
    return { ...current, attempts };
  });
}

/** The error's one line for `lastError` (the relay's answer when there is one), at most 500 characters. */
function describe(error: unknown): string {
  const { code, response, message } = (error ?? {}) as { code?: string; response?: string; message?: string };
  return [code, response ?? message ?? String(error)].filter(Boolean).join(' ').slice(0, 500);
}

/** True when the relay refused the message for good (5xx but 503, RFC 5321): retrying would be refused again. */
function isPermanent(error: unknown): boolean {
  const { permanent, responseCode } = (error ?? {}) as { permanent?: boolean; responseCode?: number };
  return permanent ?? (typeof responseCode === 'number' && responseCode >= 500 && responseCode !== 503);
}

/** Attempts at recording that the relay accepted a mail, before giving up (the claim then expires). */
const RECORD_ATTEMPTS = 3;

/**
 * Sends one claimed mail and records the outcome (sent, back to pending after its delay, or failed). Once the relay
 * has accepted it, the mail is never put back to pending (it would go twice): recording `sent` is retried instead,
 * and only a database down through every retry leaves it to its lease (docs/mail.md). The log masks addresses.
 */
async function sendClaimed(config: DrainConfig, id: string, mail: OutboxDocument): Promise<Outcome> {
  const reference = config.firestore.collection(OUTBOX).doc(id);
  const now = config.now ?? Date.now;
  let response: string;
  try {
    response = String((await config.transport!.send(id, mail)).response ?? '');
  } catch (error) {
    const last = isPermanent(error) || mail.attempts >= MAX_ATTEMPTS;
    const delay = RETRY_DELAYS_MINUTES[Math.min(mail.attempts, RETRY_DELAYS_MINUTES.length) - 1]! * 60_000;
    console.warn(`[outbox] ${id} (${mail.kind}), attempt ${mail.attempts}: ${maskEmails(describe(error))}`);
    await reference.update({
      state: last ? 'failed' : 'pending',
      lastError: describe(error),
      nextAttemptAt: last ? null : Timestamp.fromMillis(now() + delay),
    });
    return last ? 'failed' : 'retried';
  }
  const sent = {
    state: 'sent',
    sentAt: Timestamp.fromMillis(now()),
    relayResponse: maskEmails(response).slice(0, 500),
    lastError: '',
    nextAttemptAt: null,
    // Emptied rather than deleted (the embedded emulator ignores deletes): no copy of the content stays, the
    // subject included (a child's first name); the retention job deletes the rest (docs/mail.md).
    subject: '',
    html: '',
    text: '',
    attachments: [],
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await reference.update(sent);
      return 'sent';
    } catch (error) {
      if (attempt >= RECORD_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** Claims, then sends, one mail; 'skipped' when it is not due or another drain holds it. */
async function drainOne(config: DrainConfig, id: string): Promise<Outcome> {
  const mail = await claim(config.firestore, id, (config.now ?? Date.now)());
  return mail ? sendClaimed(config, id, mail) : 'skipped';
}

/**
 * Sends the due mails among `ids` (every due mail of the outbox without `ids`, `limit` at most, oldest due first)
 * one after the other, and returns within `deadlineMs` whatever SMTP does: a mail still in flight then finishes and
 * records itself in the background (or its claim expires). Never throws: a failing database is logged, its mails
 * stay for a later drain.
 */
export async function drainOutbox(
  config: DrainConfig,
  { ids, deadlineMs, limit = 100 }: { ids?: readonly string[]; deadlineMs: number; limit?: number },
): Promise<DrainReport> {
  const report: DrainReport = { sent: 0, retried: 0, failed: 0, left: 0, notConfigured: !config.transport };
  if (!config.transport) return report;
  const started = Date.now();
  const budget = effectiveDeadline(deadlineMs);
  const remaining = () => budget - (Date.now() - started);
  const work = (async () => {
    const due =
      ids ??
      (
        await config.firestore
          .collection(OUTBOX)
          .where('nextAttemptAt', '<=', Timestamp.fromMillis((config.now ?? Date.now)()))
          .orderBy('nextAttemptAt')
          .limit(limit)
          .get()
      ).docs.map((document) => document.id);
    report.left = due.length;
    for (const id of due) {
      if (remaining() <= 0) break;
      const outcome = await drainOne(config, id);
      report.left -= 1;
      if (outcome === 'skipped') continue;
      report[outcome] += 1;
    }
  })().catch((error: unknown) => console.error(`[outbox] drain stopped: ${describe(error)}`));
  await settleWithin(work, remaining(), undefined);
  return report;
}

/**
 * Puts the `failed` mail `id` back to `pending`, due at `now` (ms), with one attempt left: the next drain sends it
 * once, and a new failure marks it `failed` again (MAX_ATTEMPTS). `lastError` stays until then.
 * Returns false when no failed mail has that id (sent, pending, or unknown): nothing is written then.
 */
export async function retryFailedMail(firestore: Firestore, id: string, now: number): Promise<boolean> {
  const reference = firestore.collection(OUTBOX).doc(id);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data() as OutboxDocument | undefined;
    if (current?.state !== 'failed') {
      // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back unchanged.
      if (current) transaction.set(reference, current);
      return false;
    }
    transaction.update(reference, {
      state: 'pending',
      attempts: MAX_ATTEMPTS - 1,
      nextAttemptAt: Timestamp.fromMillis(now),
    });
    return true;
  });
}
