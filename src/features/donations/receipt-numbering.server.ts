/**
 * The tax receipts' numbering: one gap-free series per calendar year of payment (Europe/Paris), kept in the counter
 * `compteurs/recus-<year>` (`{annee, dernier}`). Both ways a gift gets its number use it: the Stripe webhook for a
 * card gift, the treasurer's record of a cheque or transfer in the space. docs/donations.md, « Tax receipts ».
 */
import type { Firestore, Transaction } from 'firebase-admin/firestore';
import { logId } from '../../lib/log-id.server';
import { receiptNumber, receiptYear } from './donations';

/**
 * Takes the next receipt number ("2026-00042") of the year of `paidAt` inside `transaction`: reads the counter and
 * sets it one higher, so the number exists only if the transaction commits (unique and gap-free). Call it before the
 * transaction's first write, as Firestore transactions require reads first.
 */
export async function takeReceiptNumber(firestore: Firestore, transaction: Transaction, paidAt: Date): Promise<string> {
  const year = receiptYear(paidAt);
  const counter = firestore.collection('compteurs').doc(`recus-${year}`);
  const last = Number((await transaction.get(counter)).data()?.dernier ?? 0);
  transaction.set(counter, { annee: year, dernier: last + 1 });
  return receiptNumber(year, last + 1);
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
