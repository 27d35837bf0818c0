/**
 * What Stripe's events after the gift tell the ledger (docs/donations.md, « After the gift »): a refund, a dispute, a
 * subscription's new status or amount. Each becomes a LedgerPatch for the gift it names: by its PaymentIntent (refunds,
 * disputes) or its subscription (the session of a monthly gift). `mergePatch` is the one rule for combining patches
 * however Stripe orders or repeats its events.
 */
import type Stripe from 'stripe';
import { withDeadline } from '../../../lib/deadline';
import { unavailable } from '../../../lib/http';
import type { Gift } from './gift.server';
import { SITE_MARKER, stripeFromEnv } from '../checkout/stripe.server';

/** The fields of a gift that events after it change. */
export type LedgerPatch = Partial<Pick<Gift, 'rembourse' | 'litige' | 'abonnementStatut' | 'abonnementMontant'>>;

/** Where a patch goes: the gift paid by a PaymentIntent (or a legacy event's invoice), or a monthly gift's session. */
export type PatchTarget =
  | { kind: 'paiement'; paymentIntent: string; invoice: string; ours: boolean }
  | { kind: 'abonnement'; subscription: string };

/** One event after the gift: the patch, where it goes, and the event's type (the gift's `evenement`). */
export interface LedgerPatchEvent {
  target: PatchTarget;
  patch: LedgerPatch;
  evenement: string;
}

const idOf = (value: unknown): string => {
  const id = typeof value === 'string' ? value : (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id.trim() : '';
};

const isOurs = (metadata: Stripe.Metadata | null | undefined) => metadata?.origine === SITE_MARKER.origine;

/** A dispute's outcome in the ledger: Stripe's 'lost' is 'perdu'; 'won', an inquiry closed… are 'gagne'. */
function disputeOutcome(status: string | undefined): 'gagne' | 'perdu' {
  return status === 'lost' ? 'perdu' : 'gagne';
}

/**
 * The patch `event` carries, null for an event of another type, another site's subscription or a charge without a
 * PaymentIntent (Checkout always makes one). A charge is this
 * site's when the ledger holds its PaymentIntent (checked by the caller) or when it carries the marker (Checkout copies
 * `payment_intent_data.metadata` to it: `ours`, a refund arriving before its session completed).
 * @throws Error for an event of these types without the id it needs.
 */
export function patchFromEvent(event: Stripe.Event): LedgerPatchEvent | null {
  const object: object = event.data?.object ?? {};
  const evenement = event.type;
  if (event.type === 'charge.refunded') {
    const charge = object as Partial<Stripe.Charge> & { invoice?: unknown };
    const paymentIntent = idOf(charge.payment_intent);
    // `invoice` left charges in API version 2025-03-31; an endpoint on an older version still sends it.
    const invoice = idOf(charge.invoice);
    // A charge without either was not made by Checkout (another integration's on the same account): not this site's.
    if (!paymentIntent && !invoice) return null;
    const refunded = Number(charge.amount_refunded);
    if (!Number.isInteger(refunded) || refunded < 0) throw new Error(`${event.id} carries no amount_refunded`);
    const ours = isOurs(charge.metadata);
    return { target: { kind: 'paiement', paymentIntent, invoice, ours }, patch: { rembourse: refunded }, evenement };
  }
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
    const dispute = object as Partial<Stripe.Dispute>;
    const paymentIntent = idOf(dispute.payment_intent);
    if (!paymentIntent) return null;
    const litige = event.type === 'charge.dispute.created' ? 'ouvert' : disputeOutcome(dispute.status);
    return { target: { kind: 'paiement', paymentIntent, invoice: '', ours: false }, patch: { litige }, evenement };
  }
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    const subscription = object as Partial<Stripe.Subscription>;
    if (!isOurs(subscription.metadata)) return null;
    const id = idOf(subscription.id);
    if (!/^sub_\w+$/.test(id)) throw new Error(`${event.id} carries no subscription id`);
    const item = subscription.items?.data?.[0];
    const unit = item?.price?.unit_amount;
    const amount = typeof unit === 'number' ? unit * (item?.quantity ?? 1) : undefined;
    const status = event.type === 'customer.subscription.deleted' ? 'canceled' : String(subscription.status ?? '');
    return {
      target: { kind: 'abonnement', subscription: id },
      patch: { abonnementStatut: status, ...(amount === undefined ? {} : { abonnementMontant: amount }) },
      evenement,
    };
  }
  return null;
}

/**
 * `current` with `patch` applied, whatever order Stripe delivers its events in: `rembourse` only grows (Stripe's
 * `amount_refunded` is a running total), a closed dispute never reopens, a cancelled subscription stays cancelled;
 * `abonnementMontant` is kept only when it differs from the gift's first amount (`montant`).
 */
export function mergePatch<T extends LedgerPatch & { montant?: number | null }>(current: T, patch: LedgerPatch): T {
  const next: T = { ...current };
  if (patch.rembourse !== undefined && patch.rembourse > (current.rembourse ?? 0)) next.rembourse = patch.rembourse;
  if (patch.litige && !(patch.litige === 'ouvert' && current.litige && current.litige !== 'ouvert')) {
    next.litige = patch.litige;
  }
  if (patch.abonnementStatut && current.abonnementStatut !== 'canceled') {
    next.abonnementStatut = patch.abonnementStatut;
    if (patch.abonnementMontant !== undefined) {
      if (patch.abonnementMontant === current.montant) delete next.abonnementMontant;
      else next.abonnementMontant = patch.abonnementMontant;
    }
  }
  return next;
}

/** The invoice a PaymentIntent paid (`in_…`, '' none) and whether its subscription is this site's (the marker). */
export interface PaidInvoice {
  invoice: string;
  ours: boolean;
}

/**
 * The invoice the PaymentIntent `paymentIntent` paid ('' when it paid none), and `ours` when that invoice belongs to
 * one of this site's subscriptions (`parent.subscription_details.metadata` carries the marker; the instalment's charge
 * carries none): Stripe's charges and disputes no longer name their invoice (API 2025-03-31), nor do `invoice.paid`
 * events carry their payments, so a monthly instalment's refund or dispute is traced through the Invoice Payments API,
 * the invoice expanded (one call). Within 8 s.
 * @throws HttpError 503 when Stripe fails (the webhook answers 503: Stripe delivers the event again later).
 */
export async function invoiceOfPayment(paymentIntent: string): Promise<PaidInvoice> {
  try {
    const list = stripeFromEnv().invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      limit: 1,
      expand: ['data.invoice'],
    });
    const [payment] = (await withDeadline(list, 8000)).data;
    const invoice = payment?.invoice;
    const parent = typeof invoice === 'object' && invoice && 'parent' in invoice ? invoice.parent : undefined;
    return { invoice: idOf(invoice), ours: isOurs(parent?.subscription_details?.metadata) };
  } catch (error) {
    throw unavailable('could not find the invoice of a refunded or disputed payment', error, { retryAfterSeconds: 60 });
  }
}
