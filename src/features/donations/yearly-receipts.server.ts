/**
 * Yearly receipts of monthly gifts: one tax receipt per donor and calendar year (Europe/Paris) for the year's paid
 * live instalments (`dons`, nature `mensualite`) less their refunds, numbered from the year's gap-free series
 * (receipt-numbering.server.ts), stored as `recusAnnuels/<donor key>-<year>` and mailed with its PDF through the
 * outbox. Issuing again issues nothing twice. Run in January by the scheduled function
 * (netlify/functions/yearly-receipts.mts), `npm run yearly-receipts`, or the treasurer's button in /espace/dons.
 * No astro:env here. docs/donations.md, « Yearly receipts ».
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { logId } from '../../lib/log-id.server';
import { isMailAddress } from '../mail/mail';
import { yearlyReceiptMail } from '../mail/donor-mails.server';
import { enqueueMails } from '../mail/outbox.server';
import { costAfterTaxReduction, formatEuros, receiptYear } from './donations';
import { giftSchema, type Gift } from './gift.server';
import type { ReceiptContext } from './receipt-mails.server';
import { takeReceiptNumbers } from './receipt-numbering.server';
import { receiptPdf } from './receipt-pdf.server';
import { receiptCents } from './receipt-validity';
import {
  YEARLY_RECEIPTS,
  yearlyReceiptAsGift,
  yearlyReceiptConverter,
  type YearlyReceipt,
} from './yearly-receipt.server';

/** One donor's year: its key, the instalments (`[id, gift]`, in order of payment), the total in cents. */
export interface DonorYear {
  key: string;
  instalments: [string, Gift][];
  cents: number;
}

/**
 * The donors of `year` among `gifts` (`[id, gift]` of `dons`): the paid live instalments paid in `year` (Europe/Paris)
 * but those whose dispute was lost (`litige` 'perdu'),
 * grouped by donor key (Stripe's customer id; for an instalment recorded without one, its subscription's customer from
 * another instalment, else `sub-<subscription>`, else `email-<logId of the lower-case email>`), each with its total
 * less refunds (`rembourse`, cents). Donors whose total is not positive are left out. Sorted by key.
 */
export function donorYears(gifts: readonly [string, Gift][], year: number): DonorYear[] {
  const paid = gifts.filter(
    ([, gift]) =>
      gift.nature === 'mensualite' &&
      gift.statut === 'paid' &&
      gift.livemode &&
      // A dispute lost: the bank gave the money back, the instalment is no gift.
      gift.litige !== 'perdu' &&
      receiptYear(gift.datePaiement.toDate()) === year,
  );
  const customers = new Map(
    gifts.flatMap(([, gift]) => (gift.client && gift.abonnement ? [[gift.abonnement, gift.client] as const] : [])),
  );
  const keyOf = (gift: Gift) =>
    gift.client ||
    customers.get(gift.abonnement) ||
    (gift.abonnement ? `sub-${gift.abonnement}` : gift.email ? `email-${logId(gift.email.toLowerCase())}` : '');
  return [...Map.groupBy(paid, ([, gift]) => keyOf(gift))]
    .filter(([key]) => key)
    .map(([key, instalments]) => ({
      key,
      instalments: instalments.toSorted(([, a], [, b]) => a.datePaiement.toMillis() - b.datePaiement.toMillis()),
      cents: instalments.reduce((sum, [, gift]) => sum + receiptCents(gift), 0),
    }))
    .filter((donor) => donor.cents > 0)
    .toSorted((a, b) => a.key.localeCompare(b.key));
}

/** What one issuing did: the receipts issued (`[id, number]`), those that existed already, those left for later. */
export interface YearlyReport {
  issued: [string, string][];
  existing: number;
  left: number;
  mails: string[];
}

/** The thank-you of a yearly receipt with its PDF, none without an email. */
async function receiptMails(context: ReceiptContext, id: string, receipt: YearlyReceipt) {
  if (!isMailAddress(receipt.email)) return [];
  const gift = yearlyReceiptAsGift(receipt);
  const euros = receipt.montant / 100;
  return [
    await yearlyReceiptMail({
      identity: context.identity,
      receiptId: id,
      email: receipt.email,
      ...(context.replyTo ? { replyTo: context.replyTo } : {}),
      donorName: [receipt.prenom, receipt.nom].filter(Boolean).join(' '),
      year: receipt.annee,
      amount: formatEuros(euros, true),
      payments: receipt.mensualites.length,
      receiptNumber: receipt.numero,
      costAfterReduction: formatEuros(costAfterTaxReduction(euros)),
      fileName: `recu-fiscal-${receipt.numero}.pdf`,
      pdf: await receiptPdf(context.issuer, gift),
    }),
  ];
}

/**
 * Queues the mail of `recusAnnuels/<id>` if it is still marked `aEnvoyer`: rendered outside any transaction, queued in
 * one that checks the mark again and sets it false (once, whoever else tries). Returns the outbox ids queued.
 */
async function queueYearlyMail(firestore: Firestore, id: string, context: ReceiptContext): Promise<string[]> {
  const reference = firestore.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter).doc(id);
  const receipt = (await reference.get()).data();
  if (!receipt?.aEnvoyer) return [];
  const mails = await receiptMails(context, id, receipt);
  return firestore.runTransaction(async (transaction) => {
    const current = (await transaction.get(reference)).data();
    if (!current) return [];
    // Set false, not removed: the embedded emulator of `npm start` ignores removals.
    transaction.set(reference, { ...current, aEnvoyer: false });
    return current.aEnvoyer ? enqueueMails(firestore, transaction, mails) : [];
  });
}

/**
 * Issues the yearly receipts of `year` that do not exist yet: for each donor (donorYears), in one short transaction,
 * the next number of `year`'s series and `recusAnnuels/<key>-<year>` (marked `aEnvoyer` when it has an email); then
 * its mail (outbox `recus-annuels-<logId of the id>`), rendered outside the transaction so that the counter is held
 * for no PDF. A receipt that exists is never changed or numbered again; one still marked `aEnvoyer` (a run cut short)
 * gets its mail on the next run, once. Stops starting new ones after `deadlineMs` (`left` says how many wait for the
 * next run). `context` is read once, when a first mail is due. @throws what Firestore throws.
 */
export async function issueYearlyReceipts(
  firestore: Firestore,
  year: number,
  context: () => Promise<ReceiptContext>,
  { deadlineMs }: { deadlineMs: number },
): Promise<YearlyReport> {
  const started = Date.now();
  const snapshot = await firestore.collection('dons').where('nature', '==', 'mensualite').get();
  const gifts = snapshot.docs.flatMap((document) => {
    const parsed = giftSchema.safeParse(document.data());
    return parsed.success ? [[document.id, parsed.data] as [string, Gift]] : [];
  });
  const receipts = firestore.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter);
  const report: YearlyReport = { issued: [], existing: 0, left: 0, mails: [] };
  let read: Promise<ReceiptContext> | undefined;
  const mailOf = async (id: string) => {
    read ??= context();
    report.mails.push(...(await queueYearlyMail(firestore, id, await read)));
  };
  for (const donor of donorYears(gifts, year)) {
    const id = `${donor.key}-${year}`;
    const known = (await receipts.doc(id).get()).data();
    if (known) {
      report.existing += 1;
      if (known.aEnvoyer) await mailOf(id);
      continue;
    }
    if (Date.now() - started > deadlineMs) {
      report.left += 1;
      continue;
    }
    const numero = await firestore.runTransaction(async (transaction) => {
      const reference = receipts.doc(id);
      const current = (await transaction.get(reference)).data();
      if (current) {
        // Issued meanwhile by another run. A read-only transaction's "verify" write: written back unchanged.
        transaction.set(reference, current);
        return undefined;
      }
      const [taken] = await takeReceiptNumbers(firestore, transaction, year, 1);
      const [, last] = donor.instalments.at(-1)!;
      transaction.set(reference, {
        annee: year,
        numero: taken!,
        montant: donor.cents,
        mensualites: donor.instalments.map(([giftId]) => giftId),
        donateur: donor.key,
        prenom: last.prenom,
        nom: last.nom,
        email: last.email,
        adresse: last.adresse,
        postal: last.postal,
        ville: last.ville,
        pays: last.pays,
        ...(last.moyen ? { moyen: last.moyen } : {}),
        date: Timestamp.now(),
        aEnvoyer: isMailAddress(last.email),
      });
      return taken!;
    });
    if (!numero) {
      report.existing += 1;
      continue;
    }
    report.issued.push([id, numero]);
    await mailOf(id);
  }
  return report;
}

/** The year whose receipts January's run issues: the one before `now`'s (Europe/Paris). */
export const previousYear = (now: Date) => receiptYear(now) - 1;
