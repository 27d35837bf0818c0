/**
 * Card donations through Stripe Checkout (spec §2 soutenir, §3 payment draft,
 * §7 "Donation link" and "Embedded checkout init", §9 amounts): the Stripe
 * client, the Checkout Session of a donation, and the French answers of the
 * donation endpoints. The amount always comes from DONATION_AMOUNTS_EUR by
 * index (src/lib/donations.ts): the browser never sends a price.
 *
 * Configuration is read from `process.env` at each request, never from
 * `astro:env/server`: the same code then runs unchanged in vitest (which sets
 * process.env) and in the Netlify Function (whose process.env holds the site's
 * environment variables). The variables are still declared in
 * astro.config.mjs (`env.schema`) so that Astro knows which are secrets.
 *
 * - STRIPE_SECRET_KEY (secret): the account's secret key. Unset → the
 *   endpoints answer 503 "not configured" (the embedded default of `npm start`).
 * - STRIPE_API_BASE (tests and local e2e only): e.g. `http://127.0.0.1:12111`,
 *   a fake of Stripe's API (tests/fixtures/fake-stripe.ts) that the SDK then
 *   calls instead of https://api.stripe.com. Unset in production.
 */
import Stripe from 'stripe';
import type { amountFromIndex } from './donations';
import { jsonResponse } from './endpoint.server';

/** An amount of the server's list: `{ index, euros, cents }` as amountFromIndex() returns it. */
export type DonationAmount = NonNullable<ReturnType<typeof amountFromIndex>>;

/** Give up a Stripe API call after this many milliseconds (the endpoints answer within 10 s). */
export const STRIPE_TIMEOUT_MS = 8000;

/** Hard deadline of a whole call, in ms, should the SDK's idle timeout be kept alive by a trickle of bytes. */
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

/** Every message a visitor can get from the donation endpoints (besides those of src/lib/forms.ts). */
export const PAYMENT_MESSAGES = {
  /** HTTP 503: no STRIPE_SECRET_KEY (or no STRIPE_WEBHOOK_SECRET for the webhook). */
  notConfigured: 'Le paiement en ligne n’est pas configuré sur ce site.',
  /** HTTP 502: Stripe answered an error, could not be reached, or was too slow. */
  providerUnavailable:
    'Le service de paiement ne répond pas pour le moment. Aucun montant n’a été débité : merci de réessayer dans quelques minutes.',
  /** HTTP 400: missing, non-integer or out-of-range amount index (same words as paymentDraftSchema). */
  amountInvalid: 'Merci de choisir un montant',
} as const;

/** Raised when STRIPE_SECRET_KEY (or STRIPE_API_BASE) is missing or unusable; the endpoints answer 503. */
export class StripeNotConfiguredError extends Error {
  override name = 'StripeNotConfiguredError';
}

/**
 * Raised when no Checkout Session came back: Stripe error (API, authentication,
 * invalid request), network failure or timeout. `cause` holds the SDK's error,
 * for the server log only; the endpoints answer 502 PAYMENT_MESSAGES.providerUnavailable.
 */
export class StripeUnavailableError extends Error {
  override name = 'StripeUnavailableError';
}

/** Where the SDK sends its requests when STRIPE_API_BASE is set (tests only). */
export interface StripeApiBase {
  protocol: 'http' | 'https';
  host: string;
  port: number;
}

/**
 * Parses STRIPE_API_BASE (`http://127.0.0.1:12111`, `https://localhost:8443`).
 * @throws StripeNotConfiguredError for anything but an http(s) origin.
 */
export function parseStripeApiBase(value: string): StripeApiBase {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch (error) {
    throw new StripeNotConfiguredError(
      `STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${value}".`,
      {
        cause: error,
      },
    );
  }
  const protocol = url.protocol.slice(0, -1);
  if ((protocol !== 'http' && protocol !== 'https') || (url.pathname !== '/' && url.pathname !== '')) {
    throw new StripeNotConfiguredError(
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
 * @throws StripeNotConfiguredError without STRIPE_SECRET_KEY, or with a bad STRIPE_API_BASE.
 */
export function stripeFromEnv(env: NodeJS.ProcessEnv = process.env): Stripe {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    throw new StripeNotConfiguredError(
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
 * @throws StripeNotConfiguredError without STRIPE_SECRET_KEY (nothing sent);
 *   StripeUnavailableError when Stripe fails, is unreachable, or does not answer within ~9 s.
 */
export async function createDonationSession(
  checkout: DonationCheckout,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string } | { clientSecret: string }> {
  const stripe = stripeFromEnv(env);
  let timer: NodeJS.Timeout | undefined;
  let session: Stripe.Checkout.Session;
  try {
    session = await Promise.race([
      stripe.checkout.sessions.create(donationSessionParams(checkout)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer from Stripe within ${STRIPE_DEADLINE_MS} ms`)),
          STRIPE_DEADLINE_MS,
        );
      }),
    ]);
  } catch (error) {
    throw new StripeUnavailableError(`Stripe did not create the ${checkout.uiMode} session`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  if (checkout.uiMode === 'hosted_page') {
    if (!session.url) throw new StripeUnavailableError(`Stripe session ${session.id} came back without a url`);
    return { url: session.url };
  }
  if (!session.client_secret) {
    throw new StripeUnavailableError(`Stripe session ${session.id} came back without a client_secret`);
  }
  return { clientSecret: session.client_secret };
}

/**
 * One log line's worth of a Stripe failure, without the donor's data or any
 * key: error class, Stripe type/code, HTTP status, request id and message.
 */
export function describeStripeFailure(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 3; depth++) {
    const stripeError = current as Partial<Stripe.errors.StripeError>;
    const details = [stripeError.type, stripeError.code, stripeError.statusCode, stripeError.requestId]
      .filter((value) => value !== undefined && value !== null)
      .join(' ');
    parts.push(`${current.name}${details ? ` [${details}]` : ''}: ${current.message}`);
    current = current.cause;
  }
  return parts.join(' ← ') || String(error);
}

/**
 * The answer to a failed donation request, logged on the server (never the
 * donor's data, never a key):
 * - StripeNotConfiguredError → 503 `{ok: false, message: PAYMENT_MESSAGES.notConfigured}`;
 * - StripeUnavailableError → 502 `{ok: false, message: PAYMENT_MESSAGES.providerUnavailable}`;
 * - anything else (a bug) → 500 with the same message as a 502.
 * @param route - for the log line, e.g. `api/don`.
 */
export function paymentFailureResponse(route: string, error: unknown): Response {
  if (error instanceof StripeNotConfiguredError) {
    console.warn(`[${route}] ${error.message}`);
    return jsonResponse(503, { ok: false, message: PAYMENT_MESSAGES.notConfigured });
  }
  if (error instanceof StripeUnavailableError) {
    console.error(`[${route}] ${describeStripeFailure(error)}`);
    return jsonResponse(502, { ok: false, message: PAYMENT_MESSAGES.providerUnavailable });
  }
  console.error(`[${route}] unexpected error:`, error);
  return jsonResponse(500, { ok: false, message: PAYMENT_MESSAGES.providerUnavailable });
}
