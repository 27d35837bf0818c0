/**
 * Card donations through Stripe Checkout: the client, POST /api/don (hosted page) and /create-checkout-session
 * (embedded).
 */
import { STRIPE_API_BASE, STRIPE_SECRET_KEY } from 'astro:env/server';
import Stripe from 'stripe';
import { deadlineMs, withDeadline } from '../../../lib/deadline';
import {
  errorResponse,
  isFormRequest,
  isJsonRequest,
  jsonResponse,
  readFormObject,
  readJsonObject,
  seeOther,
  type EndpointHandler,
} from '../../../lib/endpoint.server';
import { fieldErrors, firstError } from '../../../lib/field-schemas';
import { badGateway, HTTP_MESSAGES, HttpError, unavailable } from '../../../lib/http';
import { siteOrigin } from '../../../lib/site-origin';
import { SIREN_FIELD_KEY } from '../ledger/company-gifts';
import { DONATION_MESSAGES, draftCents, draftOfForm, paymentDraftSchema } from './payment-draft';
import { donationOutcome, donationOutcomeLocation, NOT_CONFIGURED, PROVIDER_UNAVAILABLE } from './form-outcomes';
import { withA } from '../../../lib/french-articles';

const FOREIGN_ORIGIN = 'Le paiement se lance depuis la page « Nous soutenir » de ce site.';

/** HttpError 503 "not configured"; `why` (how to fix it) goes to the log. */
export function notConfigured(why: string, cause?: unknown): HttpError {
  return unavailable(why, cause, { message: NOT_CONFIGURED });
}

// Stripe failed, or too slow (HTTP 502).
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
    timeout: deadlineMs(8000),
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
 * configured. The hosted route also reads the donation form posted without JavaScript (its fields: draftOfForm): 303
 * to Stripe's page, or 303 back to /soutenir with the outcome of a refusal (form-outcomes.ts), never JSON. `seller`:
 * the association (src/association.ts), named in the product. Stripe's return pages are on the configured site
 * address (siteOrigin), whatever Host the request names.
 */
export function donationSessionHandler(
  uiMode: 'hosted_page' | 'embedded_page',
  route: string,
  seller: () => Promise<{ name: string }>,
): EndpointHandler {
  const hosted = uiMode === 'hosted_page';
  return async ({ request }) => {
    // A person's browser without JavaScript (or before the island has loaded) posting the donation form.
    const fromForm = hosted && isFormRequest(request);
    try {
      // Browsers send Origin on every fetch() POST and form post; links, prefetching and crawlers do not. A cross-site
      // form post never gets here: src/middleware.ts answers it 403.
      const origin = new URL(request.url).origin;
      if (request.headers.get('origin') !== origin) return jsonResponse(403, { ok: false, message: FOREIGN_ORIGIN });
      if (!fromForm && !isJsonRequest(request)) {
        return jsonResponse(415, { ok: false, message: HTTP_MESSAGES.badRequest });
      }
      const payload = fromForm ? draftOfForm(await readFormObject(request)) : await readJsonObject(request);
      // zod's English otherwise for a non-string donor field.
      const error = (issue: { path?: PropertyKey[] }) =>
        issue.path?.[0] === 'pays' ? DONATION_MESSAGES.countryUnknown : HTTP_MESSAGES.badRequest;
      const result = paymentDraftSchema.safeParse(payload, { error });
      if (!result.success) {
        const message = firstError(result.error);
        const fields = fieldErrors(result.error);
        if (fromForm) return seeOther(donationOutcomeLocation(donationOutcome(400, message, fields.autreMontant)));
        return jsonResponse(400, { ok: false, message, fields });
      }
      // One line item (monthly: a subscription); Stripe's page collects name and address (the receipt's).
      const {
        moyen: _checkoutMode,
        somme: _amountIndex,
        autreMontant: _ownCents,
        frequence: frequency,
        donateur: donorKind,
        email,
        pays,
        ...details
      } = result.data;
      const monthly = frequency === 'mensuel';
      const company = donorKind === 'entreprise';
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
              // Computed here from the spec's list or the euros the donor typed: never a price from the client.
              unit_amount: draftCents(result.data),
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
      if (fromForm) return seeOther(answer);
      return jsonResponse(200, hosted ? { url: answer } : { clientSecret: answer });
    } catch (error) {
      const answer = errorResponse(route, error, PROVIDER_UNAVAILABLE);
      if (!fromForm) return answer;
      const message = error instanceof HttpError ? error.message : PROVIDER_UNAVAILABLE;
      return seeOther(donationOutcomeLocation(donationOutcome(answer.status, message)));
    }
  };
}
