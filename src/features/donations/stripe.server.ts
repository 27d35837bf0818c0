/**
 * Card donations through Stripe Checkout: the client (STRIPE_SECRET_KEY; STRIPE_API_BASE points it
 * at tests/fixtures/fake-stripe.ts), a donation's Checkout Session, the endpoints' French answers.
 * The amount comes from DONATION_AMOUNTS_EUR by index: the browser never sends a price.
 */
import { STRIPE_API_BASE, STRIPE_SECRET_KEY } from 'astro:env/server';
import Stripe from 'stripe';
import type { amountFromIndex } from './donations';
import { errorResponse } from '../../lib/endpoint.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';

/** An amount of the server's list: `{ index, euros, cents }` as amountFromIndex() returns it. */
export type DonationAmount = NonNullable<ReturnType<typeof amountFromIndex>>;

/** Give up a Stripe API call after this many milliseconds (the endpoints answer within 10 s). */
export const STRIPE_TIMEOUT_MS = 8000;

/** Hard deadline of a whole call, in ms. */
const STRIPE_DEADLINE_MS = 9000;

/** Name of the line item the donor sees on Stripe's page and receipt. */
export const DONATION_PRODUCT_NAME = 'Don à Les Petits Pas Ensemble';

/** Name of the line item of a monthly gift. */
export const MONTHLY_PRODUCT_NAME = 'Don mensuel à Les Petits Pas Ensemble';

/** Currency of every donation (ISO 4217, lowercase as Stripe writes it). */
export const DONATION_CURRENCY = 'eur';

/** Where Stripe sends the donor back, relative to the site's origin (spec §2 soutenir/{checkout}). */
export const RETURN_PATHS = {
  /** After a payment; Stripe replaces `{CHECKOUT_SESSION_ID}` with the session id. */
  success: '/soutenir/valide?session_id={CHECKOUT_SESSION_ID}',
  /** When the donor leaves Stripe's hosted page without paying. */
  cancel: '/soutenir/annule',
} as const;

/** Every message a visitor can get from the donation endpoints (besides those of src/features/forms/forms.ts). */
export const PAYMENT_MESSAGES = {
  /** HTTP 503: no STRIPE_SECRET_KEY (or no STRIPE_WEBHOOK_SECRET for the webhook). */
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

/**
 * A Stripe client for STRIPE_SECRET_KEY, at STRIPE_API_BASE when set (the tests' fake), from astro:env unless `env`
 * says otherwise: 8 s timeout, no automatic retry (an answer within 10 s matters more; the donor can retry), no telemetry.
 * @throws HttpError 503 (notConfigured) without STRIPE_SECRET_KEY, or with a bad STRIPE_API_BASE.
 */
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

/** What the donor told us (payment draft, spec §3); every field optional, already validated and trimmed. */
export interface DonorDetails {
  prenom?: string;
  nom?: string;
  email?: string;
  adresse?: string;
  postal?: string;
  ville?: string;
  /** ISO 3166-1 alpha-2 code, e.g. "FR". */
  pays?: string;
}

/** The donor fields copied into the session's metadata, the ledger's fallback for what Stripe's page did not give. */
const METADATA_FIELDS = [
  'prenom',
  'nom',
  'adresse',
  'postal',
  'ville',
  'pays',
] as const satisfies readonly (keyof DonorDetails)[];

/**
 * Metadata that marks the sessions (and subscriptions) this site creates: the webhook records
 * only those, so that other payments of the same Stripe account never enter the `dons` ledger.
 */
export const SITE_MARKER = { key: 'origine', value: 'site-petitspas-ensemble' } as const;

/** 'ponctuel': one payment; 'mensuel': a Stripe subscription charged every month. */
export type DonationFrequency = 'ponctuel' | 'mensuel';

/** A donation to open on Stripe. */
export interface DonationCheckout {
  /** 'hosted_page': Stripe's page, opened in a new tab; 'embedded_page': Stripe's form inside /soutenir. */
  uiMode: 'hosted_page' | 'embedded_page';
  /** From amountFromIndex(): the server's own amount (cents = euros × 100). */
  amount: DonationAmount;
  /** 'ponctuel' (default) or 'mensuel' (subscription mode, the amount every month). */
  frequency?: DonationFrequency;
  /** The site's origin, e.g. `https://petitspas-ensemble.netlify.app` (no trailing slash). */
  origin: string;
  donor: DonorDetails;
}

/**
 * The parameters of `checkout.sessions.create` for a donation (pure; exported
 * for tests): payment mode (a one-off gift, submit button "Faire un don") or
 * subscription mode (`price_data.recurring` monthly), one line item of
 * `amount.cents` euro cents, French locale, Stripe's page collecting the
 * donor's name and postal address (the tax receipt's fields), the email
 * prefilled when given, SITE_MARKER and the draft's details in metadata,
 * success/cancel URLs (hosted) or return URL (embedded).
 */
export function donationSessionParams(checkout: DonationCheckout): Stripe.Checkout.SessionCreateParams {
  const { uiMode, amount, origin, donor } = checkout;
  const monthly = checkout.frequency === 'mensuel';
  const metadata: Record<string, string> = { [SITE_MARKER.key]: SITE_MARKER.value };
  for (const field of METADATA_FIELDS) {
    const value = donor[field];
    if (value) metadata[field] = value;
  }
  const successUrl = `${origin}${RETURN_PATHS.success}`;
  return {
    mode: monthly ? 'subscription' : 'payment',
    ui_mode: uiMode,
    // Stripe allows submit_type in payment mode only; a subscription's button says "S'abonner".
    ...(monthly ? {} : { submit_type: 'donate' as const }),
    locale: 'fr',
    line_items: [
      {
        price_data: {
          currency: DONATION_CURRENCY,
          unit_amount: amount.cents,
          product_data: { name: monthly ? MONTHLY_PRODUCT_NAME : DONATION_PRODUCT_NAME },
          ...(monthly ? { recurring: { interval: 'month' as const } } : {}),
        },
        quantity: 1,
      },
    ],
    billing_address_collection: 'required',
    name_collection: { individual: { enabled: true, optional: false } },
    ...(donor.email ? { customer_email: donor.email } : {}),
    metadata,
    // Each monthly invoice carries its subscription's metadata: the webhook recognises them by it.
    ...(monthly ? { subscription_data: { metadata: { [SITE_MARKER.key]: SITE_MARKER.value } } } : {}),
    ...(uiMode === 'hosted_page'
      ? { success_url: successUrl, cancel_url: `${origin}${RETURN_PATHS.cancel}` }
      : { return_url: successUrl }),
  };
}

/**
 * Creates the Checkout Session of a donation (see donationSessionParams).
 * @returns for 'hosted_page' `{ url }` (Stripe's page, https://checkout.stripe.com/...),
 *   for 'embedded_page' `{ clientSecret }` (for Stripe.js createEmbeddedCheckoutPage).
 * @throws HttpError 503 (notConfigured) without STRIPE_SECRET_KEY (nothing sent);
 *   HttpError 502 (providerUnavailable) when Stripe fails, is unreachable, or does not answer within ~9 s.
 */
export async function createDonationSession(
  checkout: DonationCheckout,
): Promise<{ url: string } | { clientSecret: string }> {
  const stripe = stripeFromEnv();
  let session: Stripe.Checkout.Session;
  try {
    // The SDK's timeout is an idle timeout: a trickle of bytes could keep it alive.
    session = await withDeadline(stripe.checkout.sessions.create(donationSessionParams(checkout)), STRIPE_DEADLINE_MS);
  } catch (error) {
    throw providerUnavailable(`Stripe did not create the ${checkout.uiMode} session`, error);
  }
  if (checkout.uiMode === 'hosted_page') {
    if (!session.url) throw providerUnavailable(`Stripe session ${session.id} came back without a url`);
    return { url: session.url };
  }
  if (!session.client_secret) {
    throw providerUnavailable(`Stripe session ${session.id} came back without a client_secret`);
  }
  return { clientSecret: session.client_secret };
}

/** The answer to a failed donation request (errorResponse): 503, 502, or 500 with providerUnavailable. */
export function paymentFailureResponse(route: string, error: unknown): Response {
  return errorResponse(route, error, PAYMENT_MESSAGES.providerUnavailable);
}
