/**
 * Yearly receipts of monthly gifts: one tax receipt per donor and calendar year (Europe/Paris) for the year's paid
 * live instalments (`dons`, nature `mensualite`) less their refunds, numbered from the year's gap-free series
 * (receipt-numbering.server.ts), stored as `recusAnnuels/<donor key>-<year>` and mailed with its PDF through the
 * outbox. A receipt whose total changed since (a refund, a dispute lost, an instalment recorded late) is corrected:
 * its number cancelled, a new one taken, the donor mailed once per cancelled number. Issuing again issues nothing
 * twice. Run every day by the scheduled function (netlify/functions/yearly-receipts.mts), `npm run yearly-receipts`,
 * or the treasurer's button in /espace/dons. No astro:env here. docs/donations.md, « Yearly receipts ».
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { isMailAddress } from '../../mail/mail';
import { receiptYear } from '../checkout/donations';
import { giftSchema, type Gift } from '../ledger/gift.server';
import type { ReceiptContext } from '../receipts/receipt-mails.server';
import { takeReceiptNumbers } from '../receipts/receipt-numbering.server';
import { receiptCents } from '../receipts/receipt-validity';
import { readSignatory } from '../receipts/signatory.server';
import { byPayment, countsIn, donorYears, type DonorYear } from './yearly-donors.server';
import { queueYearlyMail } from './yearly-receipt-mails.server';
import {
  subscriptionCompany,
  YEARLY_RECEIPTS,
  yearlyReceiptConverter,
  type YearlyCancelledReceipt,
  type YearlyReceipt,
} from './stored-receipt.server';

/**
 * What one run did: the receipts issued (`[id, number]`); those corrected (`[id, cancelled number, new number]`, the
 * new one '' for a receipt cancelled without replacement); how many were already right; how many were left for the
 * next run (the deadline); the outbox ids queued; `unsigned` when nothing was done because the receipts' signatory
 * lacks a name or a quality (receipts/signatory.server.ts).
 */
export interface YearlyReport {
  issued: [string, string][];
  corrected: [string, string, string][];
  existing: number;
  left: number;
  mails: string[];
  unsigned?: boolean;
}

/** Why a receipt's total changed: a dispute lost on one of its instalments, else a refund, else a late instalment. */
function motifOf(
  previous: YearlyReceipt,
  instalments: ReadonlyMap<string, Gift>,
  cents: number,
): YearlyCancelledReceipt['motif'] {
  if (previous.mensualites.some((giftId) => instalments.get(giftId)?.litige === 'perdu')) return 'litige';
  return cents < previous.montant ? 'remboursement' : 'versement';
}

/**
 * Corrects `recusAnnuels/<id>` (`donor`'s receipt of `year`) in one short transaction, when its total differs from
 * the instalments' as the transaction reads them (those it lists and `donor`'s, read again, so that an older reading
 * of an overlapping run never undoes a newer correction): its number moves to `recusAnnules` (kept, void), and either
 * the next number of `year`'s series is taken for the new total (`annule` names the number replaced; a receipt whose
 * mail was not queued yet keeps naming the number the donor was last sent) or, with nothing left to certify, `numero`
 * becomes '' (cancelled without replacement). Marked `aEnvoyer` when it has an email. Renders nothing. A receipt
 * one of whose instalments is missing or unreadable is left as it is (logged). Returns `[cancelled number, new number
 * or '']`, or undefined when nothing changed. @throws what Firestore throws.
 */
async function correctYearlyReceipt(
  firestore: Firestore,
  id: string,
  year: number,
  donor: DonorYear | undefined,
): Promise<[string, string] | undefined> {
  const receipts = firestore.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter);
  const gifts = firestore.collection('dons');
  return firestore.runTransaction(async (transaction) => {
    const reference = receipts.doc(id);
    const current = (await transaction.get(reference)).data();
    if (!current) return undefined;
    const ids = [...new Set([...current.mensualites, ...(donor?.instalments.map(([giftId]) => giftId) ?? [])])];
    const snapshots = ids.length ? await transaction.getAll(...ids.map((giftId) => gifts.doc(giftId))) : [];
    const read = new Map(
      snapshots.flatMap((snapshot) => {
        const parsed = giftSchema.safeParse(snapshot.data());
        return parsed.success ? [[snapshot.id, parsed.data as Gift] as const] : [];
      }),
    );
    const lost = current.mensualites.filter((giftId) => !read.has(giftId));
    if (lost.length > 0) {
      // An instalment deleted or unreadable is no refund: a tax receipt is never cancelled on a missing document.
      console.warn(`[yearly-receipts] ${id} not corrected: ${lost.length} instalment(s) missing or unreadable`);
      transaction.set(reference, current);
      return undefined;
    }
    const counted = [...read].filter(([, gift]) => countsIn(gift, year)).toSorted(byPayment);
    const cents = counted.reduce((sum, [, gift]) => sum + receiptCents(gift), 0);
    const unchanged = current.numero ? cents === current.montant : cents <= 0;
    if (unchanged) {
      transaction.set(reference, current);
      return undefined;
    }
    const [numero = ''] = cents > 0 ? await takeReceiptNumbers(firestore, transaction, year, 1) : [];
    const cancelled: YearlyCancelledReceipt[] = current.numero
      ? [{ numero: current.numero, date: Timestamp.now(), motif: motifOf(current, read, cents) }]
      : [];
    // The mail of the current number never went: the donor still holds the number their last mail gave.
    const announced = current.aEnvoyer && current.annule ? current.annule : current.numero;
    transaction.set(reference, {
      ...current,
      numero,
      montant: Math.max(0, cents),
      mensualites: counted.map(([giftId]) => giftId),
      recusAnnules: [...(current.recusAnnules ?? []), ...cancelled],
      // '' rather than removed (the embedded emulator merges sets): a receipt issued again replaces nothing.
      annule: announced,
      ...(numero ? { date: Timestamp.now() } : {}),
      aEnvoyer: isMailAddress(current.email),
    });
    return [current.numero, numero];
  });
}

/**
 * Issues the yearly receipts of `year` and corrects those issued before: for each donor (donorYears) without one, in
 * one short transaction, the next number of `year`'s series and `recusAnnuels/<key>-<year>` (marked `aEnvoyer` when it
 * has an email; a company's name and SIREN from its subscription's session, subscriptionCompany); for each receipt of
 * `year` whose stored `montant` (cents) differs from its donor's total now (refunded, lost in a dispute, an instalment
 * recorded late), correctYearlyReceipt, which cancels its number and takes another, or cancels it without replacement
 * when nothing is left. Then the mail of each (outbox `recus-annuels-<logId of the id>`, `…-annule-<cancelled number>`
 * for a correction), rendered outside the transaction so that the counter is held for no PDF. A receipt whose total is
 * right is never changed, numbered again or mailed again, and reading it costs no PDF and no write: the daily run's
 * usual case. One still marked `aEnvoyer` (a run cut short) gets its mail on the next run, once. Stops starting new
 * issues and corrections after `deadlineMs` (`left` says how many wait for the next run). `context` is read once, when
 * a first mail is due.
 * @throws what Firestore throws.
 */
export async function issueYearlyReceipts(
  firestore: Firestore,
  year: number,
  context: () => Promise<ReceiptContext>,
  { deadlineMs }: { deadlineMs: number },
): Promise<YearlyReport> {
  const started = Date.now();
  // A receipt is never issued unsigned: neither a new one nor a correction until the signatory is named.
  if (!(await readSignatory(firestore))) {
    return { issued: [], corrected: [], existing: 0, left: 0, mails: [], unsigned: true };
  }
  const receipts = firestore.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter);
  const [snapshot, issuedBefore] = await Promise.all([
    firestore.collection('dons').where('nature', '==', 'mensualite').get(),
    firestore.collection(YEARLY_RECEIPTS).where('annee', '==', year).get(),
  ]);
  const gifts = snapshot.docs.flatMap((document) => {
    const parsed = giftSchema.safeParse(document.data());
    return parsed.success ? [[document.id, parsed.data as Gift] as [string, Gift]] : [];
  });
  const known = new Map<string, YearlyReceipt>();
  for (const document of issuedBefore.docs) {
    try {
      known.set(document.id, yearlyReceiptConverter.fromFirestore(document));
    } catch (error) {
      // A document that does not fit is never rewritten by a guess: the treasurer sees it in the Firebase console.
      console.warn(`[yearly-receipts] ${YEARLY_RECEIPTS}/${document.id} unreadable: ${String(error)}`);
    }
  }
  const report: YearlyReport = { issued: [], corrected: [], existing: 0, left: 0, mails: [] };
  let read: Promise<ReceiptContext> | undefined;
  const mailOf = async (id: string) => {
    read ??= context();
    report.mails.push(...(await queueYearlyMail(firestore, id, await read)));
  };
  const late = () => Date.now() - started > deadlineMs;
  const donors = new Map(donorYears(gifts, year).map((donor) => [`${donor.key}-${year}`, donor]));
  const donorOf = new Map(
    [...donors.values()].flatMap((donor) => donor.instalments.map(([giftId]) => [giftId, donor])),
  );
  for (const [id, receipt] of known) {
    // By its id, else by its instalments: a donor whose key changed since (a customer id recorded on a later
    // instalment of the subscription) keeps the receipt issued under the former key, neither cancelled nor doubled.
    const donor = donors.get(id) ?? receipt.mensualites.map((giftId) => donorOf.get(giftId)).find(Boolean);
    if (donor) donors.delete(`${donor.key}-${year}`);
    const right = receipt.numero ? receipt.montant === donor?.cents : !donor;
    if (right) {
      report.existing += 1;
      if (receipt.aEnvoyer) await mailOf(id);
      continue;
    }
    if (late()) {
      report.left += 1;
      continue;
    }
    const change = await correctYearlyReceipt(firestore, id, year, donor);
    if (change) report.corrected.push([id, ...change]);
    else report.existing += 1;
    await mailOf(id);
  }
  for (const [id, donor] of donors) {
    if (late()) {
      report.left += 1;
      continue;
    }
    // A company's monthly gift gets a company's receipt: its session holds the business name, not its invoices.
    const company = await subscriptionCompany(firestore, donor.instalments.at(-1)![1].abonnement);
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
        ...company,
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

/**
 * The years the daily run on `now` issues and corrects, the most recent first: the year before `now`'s (Europe/Paris),
 * and in January also the one before it, whose receipts December's runs corrected until the year turned.
 */
export function yearsToRun(now: Date): number[] {
  const year = previousYear(now);
  const month = new Intl.DateTimeFormat('en', { month: 'numeric', timeZone: 'Europe/Paris' }).format(now);
  return month === '1' ? [year, year - 1] : [year];
}
