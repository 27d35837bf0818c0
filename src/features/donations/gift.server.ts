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

/** An invoice id (`in_…`, Stripe ids are at most 255 characters): the ledger's key of a monthly payment. */
export const INVOICE_ID_PATTERN = /^in_[A-Za-z0-9_]{1,252}$/;

/**
 * How a gift was paid: through Stripe by card, by SEPA direct debit ('prelevement') or by another online method
 * ('en-ligne': another type, or several offered and the one used unknown); or by cheque or bank transfer, recorded in
 * the space.
 */
export const PAYMENT_METHODS = ['carte', 'cheque', 'virement', 'prelevement', 'en-ligne'] as const;

/** A payment method. */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What the receipt says under « Mode de versement » for each method. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  carte: 'Carte bancaire (paiement en ligne sécurisé par Stripe)',
  cheque: 'Chèque',
  virement: 'Virement',
  prelevement: 'Prélèvement SEPA (paiement en ligne sécurisé par Stripe)',
  'en-ligne': 'Paiement en ligne sécurisé par Stripe',
};

/** Stripe's payment method types ("card", "sepa_debit"…) that name one of PAYMENT_METHODS; others are 'en-ligne'. */
const STRIPE_METHODS: Record<string, PaymentMethod> = { card: 'carte', link: 'carte', sepa_debit: 'prelevement' };

/**
 * How a Checkout Session was paid: the type of its PaymentIntent's payment method when the object carries it
 * (`payment_intent.payment_method` expanded), else the session's `payment_method_types` when it offered one only;
 * 'en-ligne' when several were offered. Undefined for a session that says nothing (the receipt then says card).
 */
export function sessionPaymentMethod(session: Partial<Stripe.Checkout.Session>): PaymentMethod | undefined {
  const intent = session.payment_intent;
  const method = typeof intent === 'object' ? intent?.payment_method : undefined;
  const used = typeof method === 'object' && method ? method.type : undefined;
  const offered = session.payment_method_types ?? [];
  const type = used ?? (offered.length === 1 ? offered[0] : undefined);
  if (type) return STRIPE_METHODS[type] ?? 'en-ligne';
  return offered.length > 1 ? 'en-ligne' : undefined;
}

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
   * true while a paid live one-off gift waits for its receipt number (receipt-numbering.server.ts finds it by this
   * field; the number is taken after the webhook's commit, not in it), false once numbered; absent before.
   */
  aNumeroter: z.boolean().optional(),
  /** true once numbered while its receipt's mail waits to be queued, false once queued (receipt-numbering.server). */
  recuAEnvoyer: z.boolean().optional(),
  /** The Stripe customer id (`cus_…`) of a monthly instalment: the key of the donor's yearly receipt. */
  client: z.string().optional(),
  /** Cents refunded (Stripe's refunds, recorded by the webhook); absent when none. */
  rembourse: z.number().int().optional(),
});

/** One document of `dons`, as read: fields outside the shape are kept as they are (a later version may add some). */
export const giftSchema = giftShape.loose();

/** A gift as the ledger stores it. */
export type Gift = z.infer<typeof giftShape>;

/**
 * A gift as Stripe reports it: all but what the ledger adds (`date`, `recu`) and the space's fields; `moyen` when the
 * session tells it (sessionPaymentMethod).
 */
export type PaidGift = Omit<Gift, 'date' | 'recu' | 'enregistrePar' | 'aNumeroter' | 'recuAEnvoyer' | 'rembourse'>;

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
  };
}

/** The monthly payment an `invoice.paid` event reports. @throws Error when the invoice has no valid id. */
export function giftFromInvoice(event: Stripe.Event, invoice: Partial<Stripe.Invoice>): PaidGift {
  const id = text(invoice.id);
  if (!INVOICE_ID_PATTERN.test(id)) throw new Error(`${event.id} carries no invoice id`);
  const name = text(invoice.customer_name);
  const customer = idOf(invoice.customer);
  return {
    montant: invoice.amount_paid ?? null,
    devise: invoice.currency ?? '',
    ...donor({ name, email: text(invoice.customer_email), address: invoice.customer_address }),
    statut: 'paid',
    nature: 'mensualite',
    livemode: event.livemode === true,
    evenement: event.type,
    session: '',
    abonnement: idOf(invoice.parent?.subscription_details?.subscription),
    datePaiement: fromSeconds(invoice.status_transitions?.paid_at || event.created),
    ...(customer ? { client: customer } : {}),
  };
}
