/** Card donations through Stripe Checkout: the client, a donation's Checkout Session, the endpoints' French answers. */
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

/**
 * Parses STRIPE_API_BASE (`http://127.0.0.1:12111`, `https://localhost:8443`).
 * @throws HttpError 503 (notConfigured) for anything but an http(s) origin.
 */
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

/** The process's client and the configuration it was made for. */
let cached: { client: Stripe; key: string } | undefined;

/**
 * The Stripe client for the current environment (cached per process, remade
 * when STRIPE_SECRET_KEY or STRIPE_API_BASE change): 8 s timeout, no automatic
 * retry (an answer within 10 s matters more; the donor can retry), no telemetry.
 * @param env - the environment, `process.env` by default.
 * @throws HttpError 503 (notConfigured) without STRIPE_SECRET_KEY, or with a bad STRIPE_API_BASE.
 */
export function stripeFromEnv(env: NodeJS.ProcessEnv = process.env): Stripe {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    throw notConfigured(
      'STRIPE_SECRET_KEY is not set. Set it in Netlify’s site settings (Stripe Dashboard › Developers › API keys) to take card donations.',
    );
  }
  const apiBaseValue = env.STRIPE_API_BASE?.trim() || undefined;
  const apiBase = apiBaseValue ? parseStripeApiBase(apiBaseValue) : undefined;
  const key = JSON.stringify([secretKey, apiBase]);
  if (cached?.key !== key) {
    const client = new Stripe(secretKey, {
      timeout: STRIPE_TIMEOUT_MS,
      maxNetworkRetries: 0,
      telemetry: false,
      appInfo: { name: 'petitspas-ensemble-site' },
      // Production leaves these out: the SDK's own api.stripe.com over https.
      ...(apiBase ?? {}),
    });
    cached = { client, key };
  }
  return cached.client;
}

/** Metadata of the sessions and subscriptions this site creates: the webhook records only those. */
export const SITE_MARKER = { key: 'origine', value: 'site-petitspas-ensemble' } as const;

/** A donation to open on Stripe: `cents` from amountFromIndex(), `origin` without a trailing slash. */
export interface DonationCheckout {
  /** 'hosted_page': Stripe's page in a new tab; 'embedded_page': Stripe's form inside /soutenir. */
  uiMode: 'hosted_page' | 'embedded_page';
  cents: number;
  frequency: PaymentDraft['frequence'];
  origin: string;
  /** The draft's optional donor fields, already validated and trimmed. */
  donor: Partial<Omit<PaymentDraft, 'moyen' | 'somme' | 'frequence'>>;
}

/**
 * The `checkout.sessions.create` parameters of a donation: one line item of `cents` (monthly: a
 * subscription), Stripe's page collecting name and address (the receipt's), SITE_MARKER and the donor's
 * fields in metadata, return to /soutenir/valide (hosted: cancel to /soutenir/annule).
 */
export function donationSessionParams(checkout: DonationCheckout): Stripe.Checkout.SessionCreateParams {
  const { uiMode, cents, origin, donor } = checkout;
  const monthly = checkout.frequency === 'mensuel';
  const { email, ...details } = donor;
  const metadata = Object.fromEntries(
    Object.entries({ [SITE_MARKER.key]: SITE_MARKER.value, ...details }).filter(([, value]) => value),
  );
  const successUrl = `${origin}/soutenir/valide?session_id={CHECKOUT_SESSION_ID}`;
  return {
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
    ...(monthly ? { subscription_data: { metadata: { [SITE_MARKER.key]: SITE_MARKER.value } } } : {}),
    ...(uiMode === 'hosted_page'
      ? { success_url: successUrl, cancel_url: `${origin}/soutenir/annule` }
      : { return_url: successUrl }),
  };
}

/**
 * Creates a donation's Checkout Session: `{ url }` of Stripe's page (hosted) or `{ clientSecret }` for Stripe.js.
 * @throws HttpError 503 without STRIPE_SECRET_KEY; 502 when Stripe fails, is unreachable or silent for 9 s.
 */
export async function createDonationSession(
  checkout: DonationCheckout,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string } | { clientSecret: string }> {
  const stripe = stripeFromEnv(env);
  let session: Stripe.Checkout.Session;
  try {
    // The SDK's timeout is an idle timeout: a trickle of bytes could keep it alive.
    session = await withDeadline(stripe.checkout.sessions.create(donationSessionParams(checkout)), 9000);
  } catch (error) {
    throw providerUnavailable(`Stripe did not create the ${checkout.uiMode} session`, error);
  }
  const hosted = checkout.uiMode === 'hosted_page';
  const answer = hosted ? session.url : session.client_secret;
  if (!answer) throw providerUnavailable(`Stripe session ${session.id} came back without its url or client_secret`);
  return hosted ? { url: answer } : { clientSecret: answer };
}
