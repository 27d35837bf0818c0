/**
 * Card donations through Stripe Checkout: the client, POST /api/don (hosted page) and /create-checkout-session
 * (embedded).
 */
import { STRIPE_API_BASE, STRIPE_SECRET_KEY } from 'astro:env/server';
import Stripe from 'stripe';
import { withDeadline } from '../../../lib/deadline';
import {
  errorResponse,
  isJsonRequest,
  jsonResponse,
  readJsonObject,
  type EndpointHandler,
} from '../../../lib/endpoint.server';
import { fieldErrors, firstError } from '../../../lib/field-schemas';
import { badGateway, HTTP_MESSAGES, unavailable, type HttpError } from '../../../lib/http';
import { siteOrigin } from '../../../lib/site-origin';
import { DONATION_AMOUNTS_EUR } from './donations';
import { SIREN_FIELD_KEY } from '../ledger/company-gifts';
import { DONATION_MESSAGES, paymentDraftSchema } from './payment-draft';
import { withA } from '../../../lib/french-articles';

const NOT_CONFIGURED = 'Le paiement en ligne n’est pas configuré sur ce site.';
const FOREIGN_ORIGIN = 'Le paiement se lance depuis la page « Nous soutenir » de ce site.';

/** HttpError 503 "not configured"; `why` (how to fix it) goes to the log. */
export function notConfigured(why: string, cause?: unknown): HttpError {
  return unavailable(why, cause, { message: NOT_CONFIGURED });
}

// Stripe failed, or too slow (HTTP 502).
const PROVIDER_UNAVAILABLE =
  'Le service de paiement ne répond pas pour le moment. Aucun montant n’a été débité : merci de réessayer dans ' +
  'quelques minutes.';
const providerUnavailable = (what: string, cause?: unknown) => badGateway(PROVIDER_UNAVAILABLE, what, cause);

/**
 * The SDK's protocol, host and port for STRIPE_API_BASE (tests only: `http://127.0.0.1:12111`).
 * @throws HttpError 503 for anything but an http(s) origin.
 */
function apiBase(value: string) {
  const url = URL.parse(value);
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/') {
    throw notConfigured(`STRIPE_API_BASE must be an http(s) origin such as http://127.0.0.1:12111, got "${value}".`);
  }
  const protocol = url.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return {
    protocol,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (protocol === 'http' ? 80 : 443),
  };
}

/**
 * A Stripe client (8 s timeout, no retry: the donor can; no telemetry) from astro:env unless `env` says otherwise.
 * @throws HttpError 503 without STRIPE_SECRET_KEY.
 */
export function stripeFromEnv(
  env: { STRIPE_SECRET_KEY?: string; STRIPE_API_BASE?: string } = { STRIPE_SECRET_KEY, STRIPE_API_BASE },
): Stripe {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    throw notConfigured(
      'STRIPE_SECRET_KEY is not set. Set it in Netlify’s site settings (Stripe Dashboard › Developers › API keys) to ' +
        'take card donations.',
    );
  }
  const base = env.STRIPE_API_BASE?.trim();
  return new Stripe(secretKey, {
    timeout: 8000,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'ecole-inclusive-site' },
    // Production leaves these out: the SDK's own api.stripe.com over https.
    ...(base ? apiBase(base) : {}),
  });
}

/** Metadata of the sessions and subscriptions this site creates: the webhook records only those. */
export const SITE_MARKER = { origine: 'site-association' } as const;

/** The metadata that marks a company's session and subscription (`donateur: entreprise`), {} for a person's. */
const companyMarker = (company: boolean): Record<string, string> => (company ? { donateur: 'entreprise' } : {});

/**
 * What Checkout collects from a company: its business name (required), the name of the person paying (optional), and
 * its SIREN in a custom field (optional, 9 digits; the ledger keeps it only when its checksum is right).
 */
const companyCollection = {
  name_collection: { business: { enabled: true, optional: false }, individual: { enabled: true, optional: true } },
  custom_fields: [
    {
      key: SIREN_FIELD_KEY,
      // Stripe allows 50 characters; it adds « (facultatif) » to an optional field itself.
      label: { type: 'custom', custom: 'Numéro SIREN de l’entreprise (9 chiffres)' },
      type: 'numeric',
      numeric: { minimum_length: 9, maximum_length: 9 },
      optional: true,
    },
  ],
} satisfies Pick<Stripe.Checkout.SessionCreateParams, 'name_collection' | 'custom_fields'>;

/**
 * A session route's POST handler for the JSON payment draft: 200 `{url}` (hosted) or `{clientSecret}` (embedded); 400
 * (`fields`), 403 another Origin, 413 over 16 KB, 415 not JSON, 502 Stripe failed or silent for 9 s, 503 not
 * configured. `seller`: the association (src/association.ts), named in the product. Stripe's return pages are on the
 * configured site address (siteOrigin), whatever Host the request names.
 */
export function donationSessionHandler(
  uiMode: 'hosted_page' | 'embedded_page',
  route: string,
  seller: () => Promise<{ name: string }>,
): EndpointHandler {
  return async ({ request }) => {
    try {
      // Browsers send Origin on every fetch() POST; links, prefetching and crawlers do not.
      const origin = new URL(request.url).origin;
      if (request.headers.get('origin') !== origin) return jsonResponse(403, { ok: false, message: FOREIGN_ORIGIN });
      if (!isJsonRequest(request)) return jsonResponse(415, { ok: false, message: HTTP_MESSAGES.badRequest });
      const payload = await readJsonObject(request);
      // zod's English otherwise for a non-string donor field.
      const error = (issue: { path?: PropertyKey[] }) =>
        issue.path?.[0] === 'pays' ? DONATION_MESSAGES.countryUnknown : HTTP_MESSAGES.badRequest;
      const result = paymentDraftSchema.safeParse(payload, { error });
      if (!result.success) {
        return jsonResponse(400, { ok: false, message: firstError(result.error), fields: fieldErrors(result.error) });
      }
      // One line item (monthly: a subscription); Stripe's page collects name and address (the receipt's).
      const {
        moyen: _checkoutMode,
        somme: amountIndex,
        frequence: frequency,
        donateur: donorKind,
        email,
        pays,
        ...details
      } = result.data;
      const monthly = frequency === 'mensuel';
      const company = donorKind === 'entreprise';
      const hosted = uiMode === 'hosted_page';
      // The schema's default country means nothing without an address.
      const metadata = Object.fromEntries(
        Object.entries({ ...SITE_MARKER, ...details, pays: details.adresse && pays, ...companyMarker(company) }).filter(
          (entry): entry is [string, string] => Boolean(entry[1]),
        ),
      );
      // The configured address, never the request's: a forged Host would send the session id (the receipt's key) away.
      const site = siteOrigin();
      const successUrl = `${site}/soutenir/valide?session_id={CHECKOUT_SESSION_ID}`;
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
              unit_amount: DONATION_AMOUNTS_EUR[amountIndex]! * 100,
              product_data: { name: `Don ${monthly ? 'mensuel ' : ''}${withA((await seller()).name)}` },
              ...(monthly ? { recurring: { interval: 'month' as const } } : {}),
            },
            quantity: 1,
          },
        ],
        billing_address_collection: 'required',
        ...(company ? companyCollection : { name_collection: { individual: { enabled: true, optional: false } } }),
        ...(email ? { customer_email: email } : {}),
        metadata,
        // Each monthly invoice carries its subscription's metadata: the webhook recognises them by it. A one-off
        // gift's charge carries its PaymentIntent's: a refund arriving before the session completed is recognised.
        ...(monthly
          ? { subscription_data: { metadata: { ...SITE_MARKER, ...companyMarker(company) } } }
          : { payment_intent_data: { metadata: SITE_MARKER } }),
        ...(hosted ? { success_url: successUrl, cancel_url: `${site}/soutenir/annule` } : { return_url: successUrl }),
      };
      // The SDK's timeout is an idle timeout: a trickle of bytes could keep it alive.
      const session = await withDeadline(stripeFromEnv().checkout.sessions.create(params), 9000).catch(
        (error: unknown) => {
          throw providerUnavailable(`Stripe did not create the ${uiMode} session`, error);
        },
      );
      const answer = hosted ? session.url : session.client_secret;
      if (!answer) throw providerUnavailable(`Stripe session ${session.id} came back without its url or client_secret`);
      return jsonResponse(200, hosted ? { url: answer } : { clientSecret: answer });
    } catch (error) {
      return errorResponse(route, error, PROVIDER_UNAVAILABLE);
    }
  };
}
