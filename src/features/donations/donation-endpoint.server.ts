/**
 * The two routes that open a Checkout Session (POST /api/don: Stripe's hosted page; POST
 * /create-checkout-session: Stripe's form embedded in /soutenir). Both take the JSON payment
 * draft, only from a page of this site (same Origin), and answer `{url}` or `{clientSecret}`.
 */
import { amountFromIndex } from './donations';
import {
  isJsonRequest,
  jsonResponse,
  readJsonObject,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { fieldErrors, firstError, MESSAGES, paymentDraftSchema } from '../forms/forms';
import {
  createDonationSession,
  PAYMENT_MESSAGES,
  paymentFailureResponse,
  type DonationCheckout,
} from './stripe.server';

const DRAFT_FIELDS = paymentDraftSchema.shape;

/** HTTP 403: a request without this site's Origin (another site, a crawler, a prefetch). */
export const FOREIGN_ORIGIN_MESSAGE = 'Le paiement se lance depuis la page « Nous soutenir » de ce site.';

/**
 * True when the request carries an `Origin` header equal to its own URL's origin: browsers send it
 * on every cross-site and every same-site POST from fetch(); links, prefetching and crawlers do not.
 */
export function isSameOrigin(request: Request): boolean {
  return request.headers.get('origin') === new URL(request.url).origin;
}

/**
 * French messages for the issues the shared schema leaves to zod's (English) defaults — a
 * missing or non-string value: the field's own message for an empty value. Schema-level
 * messages take precedence over this per-parse map.
 */
function draftFallback(issue: { code?: string; path?: PropertyKey[]; maximum?: unknown }): string {
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') return MESSAGES.tooLong(issue.maximum);
  const field = issue.path?.[0];
  if (typeof field === 'string' && Object.hasOwn(DRAFT_FIELDS, field)) {
    const message = DRAFT_FIELDS[field as keyof typeof DRAFT_FIELDS].safeParse('').error?.issues[0]?.message;
    if (message) return message;
  }
  return MESSAGES.badRequest;
}

/**
 * The POST handler of a session route (answers in docs/donations.md): 200 `{url}` or
 * `{clientSecret}`; 400 invalid draft (`fields`), unreadable JSON or a malformed string;
 * 403 another Origin; 413 over 16 KB; 415 not JSON; 502 Stripe failed; 503 not configured.
 * @param uiMode - which Checkout the route opens, whatever the draft's `moyen` says.
 * @param route - for the log lines, e.g. `api/don`.
 */
export function donationSessionHandler(uiMode: DonationCheckout['uiMode'], route: string): EndpointHandler {
  return async ({ request }: EndpointContext): Promise<Response> => {
    try {
      if (!isSameOrigin(request)) return jsonResponse(403, { ok: false, message: FOREIGN_ORIGIN_MESSAGE });
      if (!isJsonRequest(request)) return jsonResponse(415, { ok: false, message: MESSAGES.badRequest });
      const payload = await readJsonObject(request);
      const result = paymentDraftSchema.safeParse(payload, { error: draftFallback });
      // The schema coerces `somme` ("" and null would become 0): the index itself must be an integer 0..9.
      const rawIndex = payload.somme;
      const amount = typeof rawIndex === 'number' || typeof rawIndex === 'string' ? amountFromIndex(rawIndex) : null;
      if (!result.success || !amount) {
        const fields = result.success ? {} : fieldErrors(result.error);
        if (!amount) fields.somme ??= PAYMENT_MESSAGES.amountInvalid;
        const message = result.success ? PAYMENT_MESSAGES.amountInvalid : firstError(result.error);
        return jsonResponse(400, { ok: false, message, fields });
      }
      const { moyen: _moyen, somme: _somme, frequence, pays, ...donor } = result.data;
      // The schema's default country means nothing without an address.
      if (donor.adresse) Object.assign(donor, { pays });
      const origin = new URL(request.url).origin;
      return jsonResponse(200, await createDonationSession({ uiMode, amount, frequency: frequence, origin, donor }));
    } catch (error) {
      return paymentFailureResponse(route, error);
    }
  };
}
