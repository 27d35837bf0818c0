/**
 * The ledger's mappers of Stripe's objects (gift.server.ts's PaidGift): a Checkout Session (giftFromSession) and the
 * invoice of a monthly gift (giftFromInvoice), donor fields clipped, the customer, a company's name and SIREN, the
 * PaymentIntent that paid it.
 */
import { Timestamp } from 'firebase-admin/firestore';
import type Stripe from 'stripe';
import { PERSON_FIELD_MAX } from '../../../lib/fields';
import { SESSION_ID_PATTERN } from '../checkout/donations';
import { isSiren, SIREN_FIELD_KEY } from './company-gifts';
import type { PaidGift } from './gift.server';
import { sessionPaymentMethod } from '../checkout/payment-method';

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

/** An invoice id (`in_…`, Stripe ids are at most 255 characters): the ledger's key of a monthly payment. */
export const INVOICE_ID_PATTERN = /^in_[A-Za-z0-9_]{1,252}$/;

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
