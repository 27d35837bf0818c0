/**
 * One yearly receipt of monthly gifts as stored in `recusAnnuels/<donor key>-<year>`: its schema, converter, the view
 * the PDF takes (receipt-pdf.server.ts), and what a cancelled one answers instead. Issued and corrected by
 * yearly-receipts.server.ts.
 */
import { Timestamp, type DocumentData, type Firestore, type FirestoreDataConverter } from 'firebase-admin/firestore';
import * as z from 'zod';
import { isCompanyGift } from '../ledger/company-gifts';
import {
  CANCEL_REASONS,
  cancelledReceiptShape,
  giftSchema,
  PAYMENT_METHODS,
  type ReceiptedGift,
} from '../ledger/gift.server';
import type { ReceiptPeriod } from '../receipts/receipt-pdf.server';

/** The collection of yearly receipts. */
export const YEARLY_RECEIPTS = 'recusAnnuels';

/** A yearly receipt's id: `<donor key>-<year>` (donorKeys). */
export const YEARLY_RECEIPT_ID_PATTERN = /^[\w-]{1,200}-\d{4}$/;

/**
 * Why a yearly receipt's number was cancelled: an instalment refunded ('remboursement') or lost in a dispute
 * ('litige'), as for one-off gifts (gift.server.ts CANCEL_REASONS), or an instalment recorded after the receipt was
 * issued ('versement': the total grew).
 */
export const YEARLY_CANCEL_REASONS = [...CANCEL_REASONS, 'versement'] as const;

/** One cancelled number of a yearly receipt (`recusAnnules`): its number, when it was cancelled, why. */
const yearlyCancelledShape = cancelledReceiptShape.extend({ motif: z.enum(YEARLY_CANCEL_REASONS) });

/** A cancelled number of a yearly receipt. */
export type YearlyCancelledReceipt = z.infer<typeof yearlyCancelledShape>;

/** One document of `recusAnnuels`. */
const yearlyShape = z.object({
  /** The calendar year of the instalments (Europe/Paris), and of the number's series. */
  annee: z.number().int(),
  /**
   * The valid receipt's number, from `annee`'s series ("2026-00042"); '' once cancelled without replacement (every
   * instalment refunded or lost in a dispute: its number is in `recusAnnules`).
   */
  numero: z.string(),
  /** The year's paid instalments less refunds, in euro cents (0 once cancelled). */
  montant: z.number().int(),
  /** The instalments summed (`dons` ids, in order of payment; those refunded in full or lost left out). */
  mensualites: z.array(z.string()),
  /** The donor key: Stripe's customer id (`cus_…`), else `sub-<subscription id>`, else `email-<logId of the email>`. */
  donateur: z.string(),
  /** The donor, as the year's last instalment gives them. */
  prenom: z.string(),
  nom: z.string(),
  email: z.string(),
  adresse: z.string(),
  postal: z.string(),
  ville: z.string(),
  pays: z.string(),
  /** How the instalments were paid (card when absent). */
  moyen: z.enum(PAYMENT_METHODS).optional(),
  /**
   * A company's monthly gift: the business name and SIREN its subscription's session recorded (`dons`, nature
   * `abonnement`), taken when the receipt is issued; the receipt is then a company's (article 238 bis, 60 %). Absent
   * for a person's.
   */
  entreprise: z.string().optional(),
  siren: z.string().optional(),
  /** When the receipt was issued (a corrected receipt: when it was corrected). */
  date: z.instanceof(Timestamp),
  /** true from the receipt's numbering (or correction) until its mail is queued (only with an email), then false. */
  aEnvoyer: z.boolean().optional(),
  /**
   * The numbers cancelled (a refund or a dispute lost after issuing, an instalment recorded late), oldest first: kept
   * and void, never given again. Absent for a receipt never corrected.
   */
  recusAnnules: z.array(yearlyCancelledShape).optional(),
  /**
   * The number the last correction cancelled, as the donor's mail announces it: the receipt `numero` replaces it (a
   * corrected receipt, « rectificatif »), or, with `numero` '', it is cancelled without replacement. '' or absent: the
   * receipt replaces nothing.
   */
  annule: z.string().optional(),
});

/** A yearly receipt as stored. */
export type YearlyReceipt = z.infer<typeof yearlyShape>;

/** `withConverter` of `recusAnnuels` (@throws ZodError for a document that does not fit). */
export const yearlyReceiptConverter: FirestoreDataConverter<YearlyReceipt> = {
  toFirestore: (receipt) => receipt as DocumentData,
  fromFirestore: (snapshot) => yearlyShape.loose().parse(snapshot.data()) as YearlyReceipt,
};

/** « Dons mensuels du 1er janvier au 31 décembre 2026 »: the period a yearly receipt of `year` covers. */
export const yearlyPeriod = (year: number) => `Dons mensuels du 1er janvier au 31 décembre ${year}`;

/** The reason a corrected yearly receipt's PDF gives, by the motif of its last cancelled number. */
const CORRECTION_REASONS: Record<YearlyCancelledReceipt['motif'], string> = {
  remboursement: 'dons remboursés en partie',
  litige: 'versement contesté et rendu par la banque',
  versement: 'versement enregistré depuis',
};

/**
 * The company fields (`entreprise`, `siren`) of the monthly gift `subscription` (`sub_…`), as its session recorded them
 * (`dons`, nature `abonnement`: Stripe's invoices carry no business name); {} for a person's gift, an unknown
 * subscription or ''. One query. @throws what Firestore throws.
 */
export async function subscriptionCompany(
  firestore: Firestore,
  subscription: string,
): Promise<Pick<YearlyReceipt, 'entreprise' | 'siren'>> {
  if (!subscription) return {};
  const query = firestore
    .collection('dons')
    .where('abonnement', '==', subscription)
    .where('nature', '==', 'abonnement')
    .limit(1);
  const [session] = (await query.get()).docs;
  const parsed = giftSchema.safeParse(session?.data());
  if (!parsed.success || !isCompanyGift(parsed.data)) return {};
  const { entreprise, siren } = parsed.data;
  return { entreprise: entreprise!, ...(siren ? { siren } : {}) };
}

/**
 * The receipt as the PDF takes it (receipt-pdf.server.ts): the total as `montant`, the period and the number of
 * instalments instead of a date of payment, issued on `date`; a corrected receipt names the number it replaces
 * (`annule`) and why; a company's (`entreprise`) is a company's receipt (CERFA n° 16216). Only for a receipt with a
 * `numero` (a cancelled one has no PDF).
 */
export function yearlyReceiptAsGift(receipt: YearlyReceipt): ReceiptedGift & { periode: ReceiptPeriod } {
  return {
    montant: receipt.montant,
    devise: 'eur',
    prenom: receipt.prenom,
    nom: receipt.nom,
    email: receipt.email,
    adresse: receipt.adresse,
    postal: receipt.postal,
    ville: receipt.ville,
    pays: receipt.pays,
    statut: 'paid',
    nature: 'mensualite',
    livemode: true,
    evenement: '',
    session: '',
    abonnement: '',
    // The last day of the year, at noon in Paris: a date within the period for whoever reads it.
    datePaiement: Timestamp.fromDate(new Date(Date.UTC(receipt.annee, 11, 31, 11))),
    date: receipt.date,
    recu: receipt.numero,
    ...(receipt.moyen ? { moyen: receipt.moyen } : {}),
    ...(receipt.entreprise ? { entreprise: receipt.entreprise } : {}),
    ...(receipt.siren ? { siren: receipt.siren } : {}),
    periode: {
      periode: yearlyPeriod(receipt.annee),
      versements: receipt.mensualites.length,
      ...(receipt.annule
        ? {
            remplace: {
              numero: receipt.annule,
              raison: CORRECTION_REASONS[receipt.recusAnnules?.at(-1)?.motif ?? 'remboursement'],
            },
          }
        : {}),
    },
  };
}

/**
 * Why the yearly receipt `receipt` (cancelled without replacement) has no PDF: « Les dons mensuels de 2026 ont été
 * remboursés : le reçu annuel n° 2026-00042 est annulé. », or for a dispute lost « Le paiement des dons mensuels de
 * 2026 a été contesté et rendu par la banque : … ».
 */
export function yearlyCancelledMessage(receipt: Pick<YearlyReceipt, 'annee' | 'recusAnnules'>): string {
  const last = receipt.recusAnnules?.at(-1);
  const numero = last?.numero ?? '';
  const why =
    last?.motif === 'litige'
      ? `Le paiement des dons mensuels de ${receipt.annee} a été contesté et rendu par la banque`
      : `Les dons mensuels de ${receipt.annee} ont été remboursés`;
  return `${why} : le reçu annuel n° ${numero} est annulé.`;
}
