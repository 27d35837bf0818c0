/**
 * One yearly receipt of monthly gifts as stored in `recusAnnuels/<donor key>-<year>`: its schema, converter, and the
 * view the PDF takes (receipt-pdf.server.ts). Issued by yearly-receipts.server.ts.
 */
import { Timestamp, type DocumentData, type FirestoreDataConverter } from 'firebase-admin/firestore';
import * as z from 'zod';
import { PAYMENT_METHODS, type ReceiptedGift } from './gift.server';
import type { ReceiptPeriod } from './receipt-pdf.server';

/** The collection of yearly receipts. */
export const YEARLY_RECEIPTS = 'recusAnnuels';

/** A yearly receipt's id: `<donor key>-<year>` (donorKeys). */
export const YEARLY_RECEIPT_ID_PATTERN = /^[\w-]{1,200}-\d{4}$/;

/** One document of `recusAnnuels`. */
const yearlyShape = z.object({
  /** The calendar year of the instalments (Europe/Paris), and of the number's series. */
  annee: z.number().int(),
  /** The receipt number, from `annee`'s series ("2026-00042"). */
  numero: z.string(),
  /** The year's paid instalments less refunds, in euro cents. */
  montant: z.number().int(),
  /** The instalments summed (`dons` ids, in order of payment). */
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
  /** When the receipt was issued. */
  date: z.instanceof(Timestamp),
  /** true from the receipt's numbering until its mail is queued (only with an email), then false. */
  aEnvoyer: z.boolean().optional(),
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

/**
 * The receipt as the PDF takes it (receipt-pdf.server.ts): the total as `montant`, the period and the number of
 * instalments instead of a date of payment, issued on `date`.
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
    periode: { periode: yearlyPeriod(receipt.annee), versements: receipt.mensualites.length },
  };
}
