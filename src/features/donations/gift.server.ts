/**
 * A gift in the ledger (`dons/<id>`, docs/donations.md): its zod schema, the Firestore converter that reads and
 * writes it, and one mapper per Stripe object that pays it (Checkout Session, invoice of a monthly gift). Field names
 * are Firestore's.
 */
import { Timestamp, type DocumentData, type FirestoreDataConverter } from 'firebase-admin/firestore';
import type Stripe from 'stripe';
import * as z from 'zod';
import { PERSON_FIELD_MAX } from '../../lib/fields';
import { SESSION_ID_PATTERN } from './donations';
import { isSiren, SIREN_FIELD_KEY } from './company-gifts';
import { PAYMENT_METHODS, sessionPaymentMethod } from './payment-method';

/** An invoice id (`in_…`, Stripe ids are at most 255 characters): the ledger's key of a monthly payment. */
export const INVOICE_ID_PATTERN = /^in_[A-Za-z0-9_]{1,252}$/;

export { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, sessionPaymentMethod, type PaymentMethod } from './payment-method';

/** A dispute's states in the ledger (`litige`). */
export const DISPUTE_STATES = ['ouvert', 'gagne', 'perdu'] as const;

/** Why a receipt was cancelled: a refund (full or partial, then corrected) or a lost dispute. */
export const CANCEL_REASONS = ['remboursement', 'litige'] as const;

/** One cancelled receipt of a gift (`recusAnnules`): its number, when it was cancelled, why. */
const cancelledReceiptShape = z.object({
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
   * The receipt number ("2026-00042") of a paid one-off live gift (src/features/donations/donations.ts); a test-mode
   * gift's (`livemode` false) is a specimen's, "TEST-2026-3f9a1c0b7e2d", outside the series (receipt-numbering.server).
   */
  recu: z.string().optional(),
  /**
   * How the money came: through Stripe absent (card: the ledger before it recorded the method), 'carte',
   * 'prelevement' or 'en-ligne' (sessionPaymentMethod); 'cheque' or 'virement' recorded by the treasurer.
   */
  moyen: z.enum(PAYMENT_METHODS).optional(),
  /** Who recorded a cheque or transfer in the space (the staff member's email); absent for Stripe's gifts. */
  enregistrePar: z.string().optional(),
  /**
   * Stripe's customer (`cus_…`) of the session or invoice, absent when Stripe made none (a one-off gift): the customer
   * portal of a monthly donor opens for it (portal.server.ts).
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

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** At most the forms' length in UTF-16 code units (`nom` may hold Stripe's full name), never half a surrogate pair. */
function clip(value: string, field: keyof typeof PERSON_FIELD_MAX): string {
  const max = field === 'nom' ? PERSON_FIELD_MAX.prenom + PERSON_FIELD_MAX.nom : PERSON_FIELD_MAX[field];
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

/** The donor's fields: what Stripe's page collected, else the draft's `metadata` (sessions only; see stripe.server). */
function donor(
  collected: { name: string; email: string; address: Stripe.Address | null | undefined },
  metadata: Stripe.Metadata = {},
) {
  const { name, email, address } = collected;
  const line = [text(address?.line1), text(address?.line2)].filter(Boolean).join(', ');
  const country = (text(address?.country) || text(metadata.pays)).toUpperCase();
  return {
    prenom: clip(name ? '' : text(metadata.prenom), 'prenom'),
    nom: clip(name || text(metadata.nom), 'nom'),
    email: clip(email, 'email'),
    adresse: clip(line || text(metadata.adresse), 'adresse'),
    postal: clip(text(address?.postal_code) || text(metadata.postal), 'postal'),
    ville: clip(text(address?.city) || text(metadata.ville), 'ville'),
    pays: /^[A-Z]{2}$/.test(country) ? country : '',
  };
}

const idOf = (value: string | { id?: string } | null | undefined) =>
  text(typeof value === 'string' ? value : value?.id);

/** A Stripe customer id (`cus_…`). */
export const CUSTOMER_ID_PATTERN = /^cus_[A-Za-z0-9_]{1,251}$/;

/** `{client}` of the Stripe customer `value` names, {} without a valid one. */
function customerOf(value: string | { id?: string } | null | undefined): { client?: string } {
  const id = idOf(value);
  return CUSTOMER_ID_PATTERN.test(id) ? { client: id } : {};
}

/**
 * The company fields of a session: `entreprise` (the business name, cut to 200 characters) and `siren` (the custom
 * field's digits, spaces removed, only when isSiren); {} for a person's gift.
 */
function companyOf(session: Partial<Stripe.Checkout.Session>): { entreprise?: string; siren?: string } {
  const name = clip(
    text(session.customer_details?.business_name) || text(session.collected_information?.business_name),
    'nom',
  );
  if (!name) return {};
  const field = (session.custom_fields ?? []).find((custom) => custom.key === SIREN_FIELD_KEY);
  const siren = text(field?.numeric?.value ?? field?.text?.value).replace(/\s/g, '');
  return { entreprise: name, ...(isSiren(siren) ? { siren } : {}) };
}

/** Seconds since the epoch as a Timestamp. */
const fromSeconds = (seconds: number) => Timestamp.fromMillis(seconds * 1000);

/**
 * The gift a Checkout Session event (`checkout.session.completed`, `…async_payment_succeeded|failed`) reports.
 * @throws Error when the session has no valid id.
 */
export function giftFromSession(event: Stripe.Event, session: Partial<Stripe.Checkout.Session>): PaidGift {
  const id = text(session.id);
  if (!SESSION_ID_PATTERN.test(id)) throw new Error(`${event.id} carries no Checkout Session id`);
  const details = session.customer_details;
  const name = text(details?.individual_name) || text(details?.name);
  const email = text(details?.email) || text(session.customer_email);
  const settled = /_(succeeded|failed)$/.exec(event.type)?.[1];
  const moyen = sessionPaymentMethod(session);
  const paiement = idOf(session.payment_intent);
  return {
    montant: session.amount_total ?? null,
    devise: session.currency ?? '',
    ...donor({ name, email, address: details?.address }, session.metadata ?? {}),
    // A session's payment_status ('paid', 'unpaid', 'no_payment_required') until a delayed payment settles.
    statut: settled === 'succeeded' ? 'paid' : settled ? 'failed' : (session.payment_status ?? 'unpaid'),
    nature: session.mode === 'subscription' ? 'abonnement' : 'don',
    livemode: event.livemode === true,
    evenement: event.type,
    session: id,
    abonnement: idOf(session.subscription),
    datePaiement: fromSeconds(event.created),
    ...(moyen ? { moyen } : {}),
    ...customerOf(session.customer),
    ...companyOf(session),
    ...(paiement ? { paiement } : {}),
  };
}

/**
 * The PaymentIntent that paid `invoice`, when the event carries it: its `payments` (included on request) or, in
 * events of API versions before 2025-03-31, its `payment_intent`. '' otherwise.
 */
function invoicePaymentIntent(invoice: Partial<Stripe.Invoice> & { payment_intent?: unknown }): string {
  const paid = invoice.payments?.data?.find((payment) => payment.status === 'paid') ?? invoice.payments?.data?.[0];
  const legacy = invoice.payment_intent as string | { id?: string } | null | undefined;
  return idOf(paid?.payment?.payment_intent) || idOf(legacy);
}

/**
 * The monthly payment an `invoice.paid` event reports, or the failed attempt an `invoice.payment_failed` reports
 * (`statut` 'failed', `montant` the amount due). @throws Error when the invoice has no valid id.
 */
export function giftFromInvoice(event: Stripe.Event, invoice: Partial<Stripe.Invoice>): PaidGift {
  const id = text(invoice.id);
  if (!INVOICE_ID_PATTERN.test(id)) throw new Error(`${event.id} carries no invoice id`);
  const name = text(invoice.customer_name);
  const failed = event.type === 'invoice.payment_failed';
  const paiement = invoicePaymentIntent(invoice);
  return {
    montant: (failed ? invoice.amount_due : invoice.amount_paid) ?? null,
    devise: invoice.currency ?? '',
    ...donor({ name, email: text(invoice.customer_email), address: invoice.customer_address }),
    statut: failed ? 'failed' : 'paid',
    nature: 'mensualite',
    livemode: event.livemode === true,
    evenement: event.type,
    session: '',
    abonnement: idOf(invoice.parent?.subscription_details?.subscription),
    ...customerOf(invoice.customer),
    datePaiement: fromSeconds((!failed && invoice.status_transitions?.paid_at) || event.created),
    ...(paiement ? { paiement } : {}),
  };
}
