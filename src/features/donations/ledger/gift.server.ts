/**
 * A gift in the ledger (`dons/<id>`, docs/donations.md): its zod schema and the Firestore converter that reads and
 * writes it; the mappers of the Stripe objects that pay it (Checkout Session, invoice of a monthly gift) are in
 * gift-stripe.server.ts, re-exported here. Field names are Firestore's.
 */
import { Timestamp, type DocumentData, type FirestoreDataConverter } from 'firebase-admin/firestore';
import * as z from 'zod';
import { PAYMENT_METHODS } from '../checkout/payment-method';
export { CUSTOMER_ID_PATTERN, INVOICE_ID_PATTERN, giftFromInvoice, giftFromSession } from './gift-stripe.server';
export {
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  sessionPaymentMethod,
  type PaymentMethod,
} from '../checkout/payment-method';

/** A dispute's states in the ledger (`litige`). */
export const DISPUTE_STATES = ['ouvert', 'gagne', 'perdu'] as const;

/** Why a receipt was cancelled: a refund (full or partial, then corrected) or a lost dispute. */
export const CANCEL_REASONS = ['remboursement', 'litige'] as const;

/** One cancelled receipt of a gift (`recusAnnules`): its number, when it was cancelled, why. */
export const cancelledReceiptShape = z.object({
  numero: z.string(),
  date: z.instanceof(Timestamp),
  motif: z.enum(CANCEL_REASONS),
});

/** A cancelled receipt. */
export type CancelledReceipt = z.infer<typeof cancelledReceiptShape>;

/** One document of `dons`. */
const giftShape = z.object({
  /** In cents of `devise`; null when Stripe sent none. */
  montant: z.number().int().nullable(),
  /** ISO 4217, lower case as Stripe writes it ('eur'). */
  devise: z.string(),
  prenom: z.string(),
  nom: z.string(),
  email: z.string(),
  adresse: z.string(),
  postal: z.string(),
  ville: z.string(),
  /** ISO 3166-1 alpha-2, '' when unknown. */
  pays: z.string(),
  /**
   * 'paid', 'failed' (a delayed payment refused), or a session's payment_status until its payment settles ('unpaid',
   * 'no_payment_required', or one Stripe adds later: kept as sent).
   */
  statut: z.string(),
  /** 'don' a one-off gift, 'abonnement' the session starting a monthly gift, 'mensualite' one of its invoices. */
  nature: z.enum(['don', 'abonnement', 'mensualite']),
  /** Stripe's `livemode`: false for a payment with test keys, whose receipt is only a specimen (no tax value). */
  livemode: z.boolean(),
  /** The Stripe event type that wrote it last. */
  evenement: z.string(),
  /** The Checkout Session id (`cs_…`), '' for an invoice. */
  session: z.string(),
  /** The subscription id (`sub_…`) of a monthly gift, else ''. */
  abonnement: z.string(),
  /** When the donor paid (invoice) or the event was sent (session). */
  datePaiement: z.instanceof(Timestamp),
  /** When the ledger first recorded it (the server's time): the receipt's issue date. */
  date: z.instanceof(Timestamp),
  /**
   * The receipt number ("2026-00042") of a paid one-off live gift (src/features/donations/checkout/donations.ts); a test-mode
   * gift's (`livemode` false) is a specimen's, "TEST-2026-3f9a1c0b7e2d", outside the series (receipt-numbering.server).
   */
  recu: z.string().optional(),
  /**
   * How the money came: through Stripe absent (card: the ledger before it recorded the method), 'carte',
   * 'prelevement' or 'en-ligne' (sessionPaymentMethod, else Stripe's PaymentIntent or invoice payment:
   * payment-lookup.server.ts); 'cheque' or 'virement' recorded by the treasurer.
   */
  moyen: z.enum(PAYMENT_METHODS).optional(),
  /** Who recorded a cheque or transfer in the space (the staff member's email); absent for Stripe's gifts. */
  enregistrePar: z.string().optional(),
  /**
   * true while a paid live one-off gift waits for its receipt number (receipt-numbering.server.ts finds it by this
   * field; the number is taken after the webhook's commit, not in it), false once numbered; absent before.
   */
  aNumeroter: z.boolean().optional(),
  /** true once numbered while its receipt's mail waits to be queued, false once queued (receipt-numbering.server). */
  recuAEnvoyer: z.boolean().optional(),
  /**
   * Stripe's customer (`cus_…`) of the session or invoice, absent when Stripe made none (a one-off gift): the customer
   * portal of a monthly donor opens for it (portal.server.ts), and it is the key of a monthly donor's yearly receipt
   * (yearly-receipts.server.ts).
   */
  client: z.string().optional(),
  /** A company's gift: the business name typed on Stripe's page (`customer_details.business_name`); absent else. */
  entreprise: z.string().optional(),
  /** The company's SIREN (9 digits, checksum valid) from the session's custom field `siren`; absent when not given. */
  siren: z.string().optional(),
  /**
   * The PaymentIntent (`pi_…`) that paid it, when Stripe's event names it: how a refund or a dispute (which name the
   * payment, not the session) finds the gift.
   */
  paiement: z.string().optional(),
  /** Cents of `montant` refunded in total (Stripe's `amount_refunded`, cumulative); absent when none. */
  rembourse: z.number().int().nonnegative().optional(),
  /**
   * A card dispute (chargeback): 'ouvert' while the bank examines it (the receipt is not served), then 'gagne' (served
   * again) or 'perdu' (the money went back: the receipt is cancelled); absent when none.
   */
  litige: z.enum(DISPUTE_STATES).optional(),
  /**
   * The receipt numbers cancelled for this gift (refunded, dispute lost, or replaced by a corrected receipt), oldest
   * first: kept and marked void, never given again.
   */
  recusAnnules: z.array(cancelledReceiptShape).optional(),
  /** The session of a monthly gift (`nature` 'abonnement'): Stripe's subscription status ('active', 'past_due'…). */
  abonnementStatut: z.string().optional(),
  /** The monthly amount in cents when the subscription's differs from the first (`montant`). */
  abonnementMontant: z.number().int().optional(),
});

/** One document of `dons`, as read: fields outside the shape are kept as they are (a later version may add some). */
export const giftSchema = giftShape.loose();

/** A gift as the ledger stores it. */
export type Gift = z.infer<typeof giftShape>;

/** What the ledger adds to a gift as Stripe first reports it, or what later events (refunds, disputes…) change. */
type LedgerFields =
  | 'date'
  | 'recu'
  | 'enregistrePar'
  | 'aNumeroter'
  | 'recuAEnvoyer'
  | 'rembourse'
  | 'litige'
  | 'recusAnnules'
  | 'abonnementStatut'
  | 'abonnementMontant';

/**
 * A gift as Stripe's session or invoice reports it: all but what the ledger adds or later events change; `moyen` when
 * the session tells it (sessionPaymentMethod), `paiement` when the event names its PaymentIntent.
 */
export type PaidGift = Omit<Gift, LedgerFields>;

/** A gift whose tax receipt can be issued: paid, one-off, numbered. */
export type ReceiptedGift = Gift & { recu: string };

/** `withConverter` of `dons`: documents are read through giftSchema (@throws ZodError for one that does not fit). */
export const giftConverter: FirestoreDataConverter<Gift> = {
  toFirestore: (gift) => gift as DocumentData,
  fromFirestore: (snapshot) => giftSchema.parse(snapshot.data()) as Gift,
};
