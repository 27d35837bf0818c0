/** Card donations through Stripe Checkout: the client, a donation's Checkout Session, the endpoints' French answers. */
import { STRIPE_API_BASE, STRIPE_SECRET_KEY } from 'astro:env/server';
import Stripe from 'stripe';
import type { PaymentDraft } from '../forms/forms';
import { HttpError, withDeadline } from '../../lib/http-error.server';

/** Give up a Stripe API call after this many milliseconds (the endpoints answer within 10 s). */
export const STRIPE_TIMEOUT_MS = 8000;

/** Every message a visitor can get from the donation endpoints (besides the forms' MESSAGES). */
export const PAYMENT_MESSAGES = {
  /** HTTP 503: no STRIPE_SECRET_KEY (or STRIPE_WEBHOOK_SECRET). */
  notConfigured: 'Le paiement en ligne n’est pas configuré sur ce site.',
  /** HTTP 502: Stripe answered an error, could not be reached, or was too slow. */
  providerUnavailable:
    'Le service de paiement ne répond pas pour le moment. Aucun montant n’a été débité : merci de réessayer dans quelques minutes.',
  /** HTTP 400: missing, non-integer or out-of-range amount index (same words as paymentDraftSchema). */
  amountInvalid: 'Merci de choisir un montant',
} as const;

/** HttpError 503 PAYMENT_MESSAGES.notConfigured; `why` (how to fix it) goes to the log. */
export function notConfigured(why: string, cause?: unknown): HttpError {
  return new HttpError(503, PAYMENT_MESSAGES.notConfigured, { cause: new Error(why, { cause }) });
}

/** HttpError 502 PAYMENT_MESSAGES.providerUnavailable; `what` and Stripe's error go to the log. */
function providerUnavailable(what: string, cause?: unknown): HttpError {
  return new HttpError(502, PAYMENT_MESSAGES.providerUnavailable, { cause: new Error(what, { cause }) });
}

/** Where the SDK sends its requests when STRIPE_API_BASE is set (tests only). */
export interface StripeApiBase {
  protocol: 'http' | 'https';
  host: string;
  port: number;
}

/** Parses STRIPE_API_BASE (`http://127.0.0.1:12111`); @throws HttpError 503 for anything but an http(s) origin. */
export function parseStripeApiBase(value: string): StripeApiBase {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch (error) {
    throw notConfigured(`STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${value}".`, error);
  }
  const protocol = url.protocol.slice(0, -1);
  if ((protocol !== 'http' && protocol !== 'https') || (url.pathname !== '/' && url.pathname !== '')) {
    throw notConfigured(
      `STRIPE_API_BASE must be an http(s) origin without a path, such as http://127.0.0.1:12111, got "${value}".`,
    );
  }
  const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
  return { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/** A Stripe client (8 s timeout, no retry: the donor can; no telemetry) from astro:env unless `env` says otherwise; @throws HttpError 503 without STRIPE_SECRET_KEY. */
export function stripeFromEnv(
  env: { STRIPE_SECRET_KEY?: string; STRIPE_API_BASE?: string } = { STRIPE_SECRET_KEY, STRIPE_API_BASE },
): Stripe {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    throw notConfigured(
      'STRIPE_SECRET_KEY is not set. Set it in Netlify’s site settings (Stripe Dashboard › Developers › API keys) to take card donations.',
    );
  }
  const apiBase = env.STRIPE_API_BASE?.trim();
  return new Stripe(secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'petitspas-ensemble-site' },
    // Production leaves these out: the SDK's own api.stripe.com over https.
    ...(apiBase ? parseStripeApiBase(apiBase) : {}),
  });
}

/** Metadata of the sessions and subscriptions this site creates: the webhook records only those. */
export const SITE_MARKER = { key: 'origine', value: 'site-petitspas-ensemble' } as const;

/**
 * Creates a donation's Checkout Session for the valid `draft`: one line item of `cents` (monthly: a subscription), Stripe's
 * page collecting name and address (the receipt's), SITE_MARKER and the draft's details in metadata.
 * @returns `{ url }` of Stripe's page (hosted) or `{ clientSecret }` for Stripe.js (embedded).
 * @throws HttpError 503 without STRIPE_SECRET_KEY; 502 when Stripe fails, is unreachable or silent for 9 s.
 */
export async function createDonationSession(checkout: {
  uiMode: 'hosted_page' | 'embedded_page';
  cents: number;
  origin: string;
  draft: PaymentDraft;
}): Promise<{ url: string } | { clientSecret: string }> {
  const stripe = stripeFromEnv();
  const { uiMode, cents, origin } = checkout;
  const { moyen: _moyen, somme: _somme, frequence, email, pays, ...details } = checkout.draft;
  const monthly = frequence === 'mensuel';
  const marker = { [SITE_MARKER.key]: SITE_MARKER.value };
  // The schema's default country means nothing without an address.
  const metadata = Object.fromEntries(
    Object.entries({ ...marker, ...details, pays: details.adresse && pays }).filter(
      (entry): entry is [string, string] => Boolean(entry[1]),
    ),
  );
  const successUrl = `${origin}/soutenir/valide?session_id={CHECKOUT_SESSION_ID}`;
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: monthly ? 'subscription' : 'payment',
    ui_mode: uiMode,
    // Stripe allows submit_type in payment mode only; a subscription's button says "S'abonner".
    ...(monthly ? {} : { submit_type: 'donate' as const }),
    locale: 'fr',
    line_items: [
      {
        price_data: {
          currency: 'eur',
          unit_amount: cents,
          product_data: { name: `Don ${monthly ? 'mensuel ' : ''}à Les Petits Pas Ensemble` },
          ...(monthly ? { recurring: { interval: 'month' as const } } : {}),
        },
        quantity: 1,
      },
    ],
    billing_address_collection: 'required',
    name_collection: { individual: { enabled: true, optional: false } },
    ...(email ? { customer_email: email } : {}),
    metadata,
    // Each monthly invoice carries its subscription's metadata: the webhook recognises them by it.
    ...(monthly ? { subscription_data: { metadata: marker } } : {}),
    ...(uiMode === 'hosted_page'
      ? { success_url: successUrl, cancel_url: `${origin}/soutenir/annule` }
      : { return_url: successUrl }),
  };
  let session: Stripe.Checkout.Session;
  try {
    // The SDK's timeout is an idle timeout: a trickle of bytes could keep it alive.
    session = await withDeadline(stripe.checkout.sessions.create(params), 9000);
  } catch (error) {
    throw providerUnavailable(`Stripe did not create the ${uiMode} session`, error);
  }
  const answer = uiMode === 'hosted_page' ? session.url : session.client_secret;
  if (!answer) throw providerUnavailable(`Stripe session ${session.id} came back without its url or client_secret`);
  return uiMode === 'hosted_page' ? { url: answer } : { clientSecret: answer };
}
