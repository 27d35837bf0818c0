/**
 * The payment method Stripe says paid a gift, when the webhook's event does not tell it: a Checkout Session that
 * offered several types (its PaymentIntent, `payment_method` expanded) and a monthly instalment (`invoice.paid` carries
 * no payment: the Invoice Payments API, the PaymentIntent and its method expanded). One bounded call; a failure keeps
 * what the event said (logged). docs/donations.md, « The mode of payment ».
 */
import type Stripe from 'stripe';
import { withDeadline } from '../../../lib/deadline';
import { logId } from '../../../lib/log-id.server';
import type { PaidGift } from '../ledger/gift.server';
import { methodOfType } from './payment-method';
import { stripeFromEnv } from './stripe.server';

/** How long the webhook waits for Stripe's answer (ms): the gift is recorded without it after that. */
const LOOKUP_DEADLINE_MS = 3000;

/** The type of an expanded payment method ("card", "sepa_debit"…), '' when not expanded or absent. */
const typeOf = (method: string | Stripe.PaymentMethod | null | undefined) =>
  typeof method === 'object' && method ? method.type : '';

/**
 * The method, and for an instalment the PaymentIntent, that paid `dons/<id>` as Stripe tells it: `{}` when nothing is
 * to be asked (a gift whose event named its method, a session of a monthly gift, a failed payment) or Stripe did not
 * answer within LOOKUP_DEADLINE_MS. Never throws: the gift is recorded either way.
 */
async function lookup(id: string, gift: PaidGift): Promise<Partial<Pick<PaidGift, 'moyen' | 'paiement'>>> {
  if (gift.statut === 'failed') return {};
  if (gift.nature === 'don' && gift.moyen === 'en-ligne' && gift.paiement) {
    const intent = stripeFromEnv().paymentIntents.retrieve(gift.paiement, { expand: ['payment_method'] });
    const type = typeOf((await withDeadline(intent, LOOKUP_DEADLINE_MS)).payment_method);
    return type ? { moyen: methodOfType(type) } : {};
  }
  if (gift.nature !== 'mensualite' || gift.moyen) return {};
  const list = stripeFromEnv().invoicePayments.list({
    invoice: id,
    status: 'paid',
    limit: 1,
    expand: ['data.payment.payment_intent.payment_method'],
  });
  const intent = (await withDeadline(list, LOOKUP_DEADLINE_MS)).data[0]?.payment.payment_intent;
  if (typeof intent !== 'object' || !intent) return {};
  const type = typeOf(intent.payment_method);
  return { ...(type ? { moyen: methodOfType(type) } : {}), ...(gift.paiement ? {} : { paiement: intent.id }) };
}

/**
 * `gift` (`dons/<id>` as the event reports it) with the payment method Stripe says paid it (`moyen`: « Prélèvement
 * SEPA » rather than « Paiement en ligne » or a card assumed), and an instalment's PaymentIntent (`paiement`, how its
 * refunds and disputes find it): one Stripe call for a session that offered several types or an instalment, none
 * otherwise. Stripe failing or slow: `gift` as it was (logged by logId), never an error.
 */
export async function withPaymentMethod(id: string, gift: PaidGift): Promise<PaidGift> {
  try {
    return { ...gift, ...(await lookup(id, gift)) };
  } catch (error) {
    console.warn(`[api/stripe-webhook] payment method of dons/${logId(id)} unknown: ${String(error)}`);
    return gift;
  }
}
