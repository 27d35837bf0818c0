/** POST /api/don (Stripe's hosted page) and POST /create-checkout-session (embedded): the JSON payment draft, same Origin only. */
import { amountFromIndex } from './donations';
import {
  errorResponse,
  isJsonRequest,
  jsonResponse,
  readJsonObject,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { fieldErrors, firstError, MESSAGES, paymentDraftSchema } from '../forms/forms';
import { createDonationSession, PAYMENT_MESSAGES } from './stripe.server';

/** HTTP 403: a request without this site's Origin (another site, a crawler, a prefetch). */
export const FOREIGN_ORIGIN_MESSAGE = 'Le paiement se lance depuis la page « Nous soutenir » de ce site.';

// The schema's own messages cover every issue but a non-string donor field (zod's English otherwise).
const draftFallback = (issue: { path?: PropertyKey[] }) =>
  issue.path?.[0] === 'pays' ? MESSAGES.countryUnknown : MESSAGES.badRequest;

/**
 * A session route's POST handler: 200 `{url}` or `{clientSecret}`; 400 (`fields`), 403 another Origin, 413 over
 * 16 KB, 415 not JSON, 502 Stripe failed, 503 not configured (docs/donations.md). `route` names the log lines.
 */
export function donationSessionHandler(uiMode: 'hosted_page' | 'embedded_page', route: string): EndpointHandler {
  return async ({ request }: EndpointContext): Promise<Response> => {
    try {
      // Browsers send Origin on every fetch() POST; links, prefetching and crawlers do not.
      const origin = new URL(request.url).origin;
      if (request.headers.get('origin') !== origin) {
        return jsonResponse(403, { ok: false, message: FOREIGN_ORIGIN_MESSAGE });
      }
      if (!isJsonRequest(request)) return jsonResponse(415, { ok: false, message: MESSAGES.badRequest });
      const payload = await readJsonObject(request);
      const result = paymentDraftSchema.safeParse(payload, { error: draftFallback });
      // The schema coerces `somme` ("" and null would become 0): the index itself must be an integer 0..9.
      const amount = amountFromIndex(payload.somme);
      if (!result.success || !amount) {
        const fields = result.success ? {} : fieldErrors(result.error);
        if (!amount) fields.somme ??= PAYMENT_MESSAGES.amountInvalid;
        const message = result.success ? PAYMENT_MESSAGES.amountInvalid : firstError(result.error);
        return jsonResponse(400, { ok: false, message, fields });
      }
      const answer = await createDonationSession({ uiMode, cents: amount.cents, origin, draft: result.data });
      return jsonResponse(200, answer);
    } catch (error) {
      return errorResponse(route, error, PAYMENT_MESSAGES.providerUnavailable);
    }
  };
}
