/**
 * The mails of the yearly receipts of monthly gifts (`recusAnnuels`, yearly-receipt.server.ts): which one a receipt's
 * state calls for (the receipt, its correction, its cancellation), rendered outside any transaction and queued once
 * per number. docs/donations.md, « Yearly receipts ».
 */
import type { Firestore } from 'firebase-admin/firestore';
import { logId } from '../../../lib/log-id.server';
import { yearlyReceiptChangeMail, yearlyReceiptMail } from './yearly-mails.server';
import { isMailAddress, type OutgoingMail } from '../../mail/mail';
import { enqueueMails } from '../../mail/outbox.server';
import { COMPANY_TAX_REDUCTION_RATE, isCompanyGift } from '../ledger/company-gifts';
import { costAfterTaxReduction, formatEuros } from '../checkout/donations';
import type { ReceiptContext } from '../receipts/receipt-mails.server';
import { receiptPdf } from '../receipts/receipt-pdf.server';
import {
  YEARLY_RECEIPTS,
  yearlyReceiptAsGift,
  yearlyReceiptConverter,
  type YearlyReceipt,
} from './stored-receipt.server';

/**
 * The mail a yearly receipt's state calls for, none without an email: the receipt with its PDF (outbox
 * `recus-annuels-<logId of the id>`, or `…-<number>` for one issued again after a cancellation), the corrected receipt
 * with its PDF naming the number it replaces, or the notice of a receipt cancelled without replacement (both
 * `…-annule-<cancelled number>`, yearlyReceiptChangeMail); a company's (`entreprise`) speaks of its 60 %.
 */
async function receiptMails(context: ReceiptContext, id: string, receipt: YearlyReceipt): Promise<OutgoingMail[]> {
  if (!isMailAddress(receipt.email)) return [];
  const donorName = [receipt.prenom, receipt.nom].filter(Boolean).join(' ');
  // A company's receipt (article 238 bis, 60 %): the mails name the company and its reduction.
  const company = isCompanyGift(receipt) ? { company: receipt.entreprise } : {};
  const common = {
    identity: context.identity,
    receiptId: id,
    email: receipt.email,
    donorName,
    year: receipt.annee,
    ...company,
  };
  const replyTo = context.replyTo ? { replyTo: context.replyTo } : {};
  const euros = receipt.montant / 100;
  const pdf = () => receiptPdf(context.issuer, yearlyReceiptAsGift(receipt));
  const fileName = `recu-fiscal-${receipt.numero}.pdf`;
  const cancelled = receipt.annule || receipt.recusAnnules?.at(-1)?.numero;
  const reason = receipt.recusAnnules?.at(-1)?.motif ?? 'remboursement';
  if (!receipt.numero) {
    return cancelled ? [await yearlyReceiptChangeMail({ ...common, ...replyTo, cancelled, reason })] : [];
  }
  if (receipt.annule) {
    const corrected = {
      number: receipt.numero,
      amount: formatEuros(euros, true),
      payments: receipt.mensualites.length,
      fileName,
      pdf: await pdf(),
    };
    return [await yearlyReceiptChangeMail({ ...common, ...replyTo, cancelled: receipt.annule, reason, corrected })];
  }
  return [
    await yearlyReceiptMail({
      ...common,
      ...replyTo,
      ...(receipt.recusAnnules?.length ? { mailId: `recus-annuels-${logId(id)}-${receipt.numero}` } : {}),
      amount: formatEuros(euros, true),
      payments: receipt.mensualites.length,
      receiptNumber: receipt.numero,
      costAfterReduction: formatEuros(
        costAfterTaxReduction(euros, company.company ? COMPANY_TAX_REDUCTION_RATE : undefined),
      ),
      fileName,
      pdf: await pdf(),
    }),
  ];
}

/** The same state of a receipt, as far as its mail goes: the same number, replacing the same one. */
const sameState = (a: YearlyReceipt, b: YearlyReceipt) =>
  a.numero === b.numero && (a.annule ?? '') === (b.annule ?? '') && a.montant === b.montant;

/**
 * Queues the mail of `recusAnnuels/<id>` if it is still marked `aEnvoyer`: rendered outside any transaction, queued in
 * one that checks the mark again and sets it false (once, whoever else tries). A receipt corrected between the
 * rendering and the queueing is rendered again (three tries, then left marked for the next run). Returns the outbox
 * ids queued. @throws what Firestore throws.
 */
export async function queueYearlyMail(firestore: Firestore, id: string, context: ReceiptContext): Promise<string[]> {
  const reference = firestore.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter).doc(id);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const receipt = (await reference.get()).data();
    if (!receipt?.aEnvoyer) return [];
    const mails = await receiptMails(context, id, receipt);
    const queued = await firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(reference)).data();
      if (!current) return [];
      // Corrected meanwhile: written back unchanged (a read-only transaction's "verify" write), rendered again.
      if (!sameState(current, receipt)) {
        transaction.set(reference, current);
        return undefined;
      }
      // Set false, not removed: the embedded emulator of `npm start` ignores removals.
      transaction.set(reference, { ...current, aEnvoyer: false });
      return current.aEnvoyer ? enqueueMails(firestore, transaction, mails) : [];
    });
    if (queued) return queued;
  }
  return [];
}
