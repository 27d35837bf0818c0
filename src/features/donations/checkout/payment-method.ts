/**
 * How a gift was paid (`moyen` of the ledger, gift.server.ts): the methods, what the receipt prints for each, and how a
 * Checkout Session tells it.
 */
import type Stripe from 'stripe';

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

/** The method of Stripe's payment method type `type`: "card" 'carte', "sepa_debit" 'prelevement', else 'en-ligne'. */
export const methodOfType = (type: string): PaymentMethod => STRIPE_METHODS[type] ?? 'en-ligne';

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
  if (type) return methodOfType(type);
  return offered.length > 1 ? 'en-ligne' : undefined;
}
