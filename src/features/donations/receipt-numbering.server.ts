/**
 * The tax receipts' numbering: one gap-free series per calendar year of payment (Europe/Paris), kept in the counter
 * `compteurs/recus-<year>` (`{annee, dernier}`). Both ways a gift gets its number use it: the Stripe webhook for a
 * card gift, the treasurer's record of a cheque or transfer in the space. docs/donations.md, « Tax receipts ».
 */
import type { Firestore, Transaction } from 'firebase-admin/firestore';
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
