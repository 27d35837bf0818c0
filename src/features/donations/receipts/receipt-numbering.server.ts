/**
 * The tax receipts' numbering: one gap-free series per calendar year of payment (Europe/Paris), kept in the counter
 * `compteurs/recus-<year>` (`{annee, dernier}`). A paid card gift is recorded first, without a number (`aNumeroter`),
 * and numbered here afterwards, then its mail queued (`recuAEnvoyer`): right after the webhook's commit (bounded), and
 * by the scheduled sweep for whatever is left (numberPendingReceipts, before each drain of the outbox). The treasurer's
 * cheques and transfers and the yearly receipts of monthly gifts take theirs from the same counter. No astro:env
 * here: the scheduled functions use it. docs/donations.md, « Receipt numbers ».
 */
import type { Firestore, Transaction } from 'firebase-admin/firestore';
import { isMailAddress, type OutgoingMail } from '../../mail/mail';
import { enqueueMails } from '../../mail/outbox.server';
import { logId } from '../../../lib/log-id.server';
import { receiptNumber, receiptYear } from '../checkout/donations';
import { giftConverter, type Gift, type ReceiptedGift } from '../ledger/gift.server';
import { deservesReceipt } from './receipt-validity';
import { readSignatory } from './signatory.server';

/** The counter of `year`'s series. */
const counterOf = (firestore: Firestore, year: number) => firestore.collection('compteurs').doc(`recus-${year}`);

/**
 * Takes the next `count` receipt numbers ("2026-00042"…) of `year` inside `transaction`: reads the counter and sets it
 * `count` higher, so the numbers exist only if the transaction commits (unique and gap-free). Call it before the
 * transaction's first write, as Firestore transactions require reads first.
 */
export async function takeReceiptNumbers(
  firestore: Firestore,
  transaction: Transaction,
  year: number,
  count: number,
): Promise<string[]> {
  const counter = counterOf(firestore, year);
  const last = Number((await transaction.get(counter)).data()?.dernier ?? 0);
  transaction.set(counter, { annee: year, dernier: last + count });
  return Array.from({ length: count }, (_, index) => receiptNumber(year, last + index + 1));
}

/** The next receipt number of the year of `paidAt` inside `transaction` (takeReceiptNumbers, one number). */
export async function takeReceiptNumber(firestore: Firestore, transaction: Transaction, paidAt: Date): Promise<string> {
  const [number] = await takeReceiptNumbers(firestore, transaction, receiptYear(paidAt), 1);
  return number!;
}

/** The prefix of a specimen's number: a test-mode gift's, never one of the series. */
export const SPECIMEN_PREFIX = 'TEST-';

/**
 * The specimen number of the test-mode gift (Stripe's `livemode: false`) `dons/<id>` paid at `paidAt`:
 * "TEST-2026-3f9a1c0b7e2d" (logId of the id). It reads and writes no counter: a test payment never takes a number of
 * the real series, whatever the keys the site runs on.
 */
export function specimenNumber(id: string, paidAt: Date): string {
  return `${SPECIMEN_PREFIX}${receiptYear(paidAt)}-${logId(id)}`;
}

/** A ledger document as numbering reads it (refunds, disputes and cancelled receipts included). */
export type NumberableGift = Gift;

/**
 * True when `gift` is due a receipt number of the series: a live (`livemode`) gift that deserves a receipt
 * (receipt-validity.ts deservesReceipt: one-off, paid, money left after refunds, no dispute lost) and holds no `recu`.
 * This covers a new card gift and one whose receipt a partial refund cancelled (`recu` removed, the old one in
 * `recusAnnules`): it gets its corrected receipt's number the same way.
 */
export function needsReceiptNumber(gift: Partial<NumberableGift> | undefined): boolean {
  if (!gift || gift.livemode !== true || typeof gift.nature !== 'string' || typeof gift.statut !== 'string')
    return false;
  if (typeof gift.recu === 'string' && gift.recu) return false;
  return deservesReceipt({ ...gift, nature: gift.nature, statut: gift.statut, montant: gift.montant ?? null });
}

/**
 * The mails a gift calls for once numbered (the thank-you with its receipt, or the corrected receipt): `gift` as
 * written, with its new `recu`. Built by the caller, which knows the association (donation-mails.server.ts in the
 * site, receipt-mails.server.ts in the scheduled jobs).
 */
export type NumberedGiftMails = (id: string, gift: NumberableGift & ReceiptedGift) => Promise<OutgoingMail[]>;

const byPayment = (a: { gift: NumberableGift; id: string }, b: { gift: NumberableGift; id: string }) =>
  a.gift.datePaiement.toMillis() - b.gift.datePaiement.toMillis() || a.id.localeCompare(b.id);

/**
 * Numbers the gifts among `ids` that still need it (needsReceiptNumber), in one short transaction: each year's next
 * numbers in order of payment, `aNumeroter` false, and `recuAEnvoyer` true on those with an email, for
 * queueReceiptMails (rendering a PDF inside the transaction would hold the counter that long). A gift numbered
 * meanwhile is left as it is. Nothing is numbered while the receipts' signatory lacks a name or a quality
 * (signatory.server.ts readSignatory): the gifts stay marked, and the sweep numbers them once it is set. Returns
 * `[id, number]` of the gifts it numbered, in the numbers' order. Firestore retries on contention; @throws when it
 * cannot commit (the sweep numbers the gifts later).
 */
export async function numberReceipts(firestore: Firestore, ids: readonly string[]): Promise<[string, string][]> {
  if (ids.length === 0) return [];
  // A receipt is never issued unsigned: it waits, marked, for the treasurer to name the signatory.
  if (!(await readSignatory(firestore))) return [];
  const gifts = firestore.collection('dons').withConverter(giftConverter);
  return firestore.runTransaction(async (transaction) => {
    const snapshots = await transaction.getAll(...ids.map((id) => gifts.doc(id)));
    const due = snapshots
      .map((snapshot) => ({ id: snapshot.id, gift: snapshot.data() as NumberableGift | undefined }))
      .filter((entry): entry is { id: string; gift: NumberableGift } => needsReceiptNumber(entry.gift))
      .toSorted(byPayment);
    if (due.length === 0) {
      // A read-only transaction commits a "verify" write the embedded emulator refuses: one written back unchanged.
      const read = snapshots.find((snapshot) => snapshot.exists);
      if (read) transaction.set(read.ref, read.data()!);
      return [];
    }
    const numbers = new Map<string, string>();
    // Every counter is read before the first write, as Firestore transactions require.
    for (const [year, entries] of Map.groupBy(due, (entry) => receiptYear(entry.gift.datePaiement.toDate()))) {
      const taken = await takeReceiptNumbers(firestore, transaction, year, entries.length);
      entries.forEach((entry, index) => numbers.set(entry.id, taken[index]!));
    }
    for (const { id, gift } of due) {
      // Marks set to false, not removed: the embedded emulator of `npm start` ignores removals.
      const mark = { aNumeroter: false, recuAEnvoyer: isMailAddress(gift.email) };
      transaction.set(gifts.doc(id), { ...gift, recu: numbers.get(id)!, ...mark });
    }
    return due.map(({ id }) => [id, numbers.get(id)!] as [string, string]).toSorted((a, b) => a[1].localeCompare(b[1]));
  });
}

/** The gifts this process was asked to number and has not started on, and its one numbering run (numberSoon). */
const waiting = new Set<string>();
let running: Promise<void> | undefined;

/**
 * Numbers `id` with the other gifts this process records meanwhile: one numbering transaction at a time per process,
 * each taking every id waiting (a burst on a long-lived server becomes a few transactions, not one per gift waiting on
 * the counter). Resolves when the run that took `id` has ended, numbered or not (a failure is logged; the sweep
 * numbers what is left).
 */
export function numberSoon(firestore: Firestore, id: string): Promise<void> {
  waiting.add(id);
  running ??= (async () => {
    while (waiting.size > 0) {
      const ids = [...waiting].slice(0, 100);
      ids.forEach((taken) => waiting.delete(taken));
      await numberReceipts(firestore, ids).catch((error: unknown) =>
        console.warn(`[receipts] ${ids.length} gift(s) left for the scheduled numbering: ${String(error)}`),
      );
    }
  })().finally(() => (running = undefined));
  return running;
}

/** The same receipt, as far as its mail goes: the same number, after the same cancelled ones. */
const sameReceipt = (a: NumberableGift, b: NumberableGift) =>
  a.recu === b.recu && (a.recusAnnules?.length ?? 0) === (b.recusAnnules?.length ?? 0);

/**
 * Queues the mails (`mailsFor`) of the numbered gifts among `ids` still marked `recuAEnvoyer`, each rendered outside
 * any transaction, then queued in one that checks the mark again and sets it false: once per number, whoever else
 * tries. A gift renumbered or cancelled between the rendering and the queueing (a partial refund meanwhile) is left as
 * it is, mark included, and rendered again (three tries, then left marked for the sweep): its corrected receipt is
 * mailed, never dropped. Returns the outbox ids queued. @throws what Firestore throws (the mark stays: the sweep
 * queues it later).
 */
export async function queueReceiptMails(
  firestore: Firestore,
  ids: readonly string[],
  mailsFor: NumberedGiftMails,
): Promise<string[]> {
  const queued: string[] = [];
  for (const id of ids) queued.push(...(await queueReceiptMail(firestore, id, mailsFor)));
  return queued;
}

/** queueReceiptMails for `dons/<id>`. */
async function queueReceiptMail(firestore: Firestore, id: string, mailsFor: NumberedGiftMails): Promise<string[]> {
  const reference = firestore.collection('dons').withConverter(giftConverter).doc(id);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const gift = (await reference.get()).data() as NumberableGift | undefined;
    if (!gift?.recuAEnvoyer || !gift.recu) return [];
    const mails = await mailsFor(id, { ...gift, recu: gift.recu });
    const done = await firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(reference)).data();
      if (!current) return [];
      if (!sameReceipt(current, gift)) {
        // Renumbered or cancelled since the rendering: written back unchanged (a read-only transaction's "verify"
        // write), its mark kept for the mail of the receipt it holds now.
        transaction.set(reference, current);
        return undefined;
      }
      // Set false, not removed: the embedded emulator of `npm start` ignores removals.
      transaction.set(reference, { ...current, recuAEnvoyer: false });
      // Queued meanwhile by another call: nothing to send from this rendering.
      return current.recuAEnvoyer ? enqueueMails(firestore, transaction, mails) : [];
    });
    if (done) return done;
  }
  return [];
}

/**
 * The ids of the gifts waiting for a number, oldest payment first, at most `limit`: those marked `aNumeroter`, and the
 * partially refunded ones (`rembourse` > 0) whose receipt was cancelled, whoever cancelled it.
 */
export async function pendingReceiptIds(firestore: Firestore, limit = 500): Promise<string[]> {
  const gifts = firestore.collection('dons').withConverter(giftConverter);
  const [marked, refunded] = await Promise.all([
    gifts.where('aNumeroter', '==', true).limit(limit).get(),
    gifts.where('rembourse', '>', 0).limit(limit).get(),
  ]);
  const entries = new Map<string, NumberableGift>();
  for (const snapshot of [...marked.docs, ...refunded.docs]) {
    const gift = snapshot.data() as NumberableGift;
    if (needsReceiptNumber(gift)) entries.set(snapshot.id, gift);
  }
  return [...entries]
    .map(([id, gift]) => ({ id, gift }))
    .toSorted(byPayment)
    .slice(0, limit)
    .map((entry) => entry.id);
}

/** What one sweep did: the gifts numbered (`[id, number]`) and the outbox ids of the mails queued. */
export interface NumberingReport {
  numbered: [string, string][];
  mails: string[];
}

/**
 * The sweep: numbers every gift still waiting (pendingReceiptIds), `batch` gifts a transaction in order of payment,
 * then queues the mails of every gift still marked `recuAEnvoyer`, until done or `deadlineMs` has passed (what
 * remains waits for the next sweep). Without a signatory it numbers nothing (numberReceipts) and only queues the
 * mails of receipts numbered before. @throws what Firestore throws (nothing half-numbered stays behind).
 */
export async function numberPendingReceipts(
  firestore: Firestore,
  mailsFor: NumberedGiftMails,
  { deadlineMs, batch = 25 }: { deadlineMs: number; batch?: number },
): Promise<NumberingReport> {
  const started = Date.now();
  const inTime = () => Date.now() - started < deadlineMs;
  const report: NumberingReport = { numbered: [], mails: [] };
  const pending = (await readSignatory(firestore)) ? await pendingReceiptIds(firestore) : [];
  for (let start = 0; start < pending.length && inTime(); start += batch) {
    report.numbered.push(...(await numberReceipts(firestore, pending.slice(start, start + batch))));
  }
  const unsent = await firestore.collection('dons').where('recuAEnvoyer', '==', true).limit(500).get();
  for (const document of unsent.docs) {
    if (!inTime()) break;
    report.mails.push(...(await queueReceiptMails(firestore, [document.id], mailsFor)));
  }
  return report;
}
