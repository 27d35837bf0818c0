/**
 * POST /create-checkout-session — the "Embedded checkout init" of spec §7
 * (at the site's root, as the spec names it): takes the payment draft of
 * spec §3 as JSON (paymentDraftSchema: moyen, somme = INDEX of the amount in
 * DONATION_AMOUNTS_EUR, prenom, nom, email, adresse, postal, ville, pays),
 * creates a Stripe Checkout Session embedded in the page (ui_mode
 * 'embedded_page') for the server's own amount, and answers `{clientSecret}`
 * for Stripe.js. The email is prefilled on Stripe's form; name and address go
 * to the session's metadata, which the webhook's ledger records. On demand (a
 * Netlify Function); see src/lib/stripe.server.ts and the README, "Donations (Stripe)".
 *
 * Answers (JSON, `Cache-Control: no-store`): 200 `{clientSecret}`; 400 `{ok:
 * false, message, fields?}` (invalid or unknown field, unreadable JSON);
 * 405 for any other method; 413 over 16 KB; 415 not JSON; 503 without
 * STRIPE_SECRET_KEY; 502 when Stripe fails.
 */
import type { APIRoute } from 'astro';
import { amountFromIndex } from '../lib/donations';
import {
  BodyTooLargeError,
  isJsonRequest,
  jsonResponse,
  methodNotAllowedFor,
  readJsonObject,
  type EndpointContext,
} from '../lib/endpoint.server';
import { fieldErrors, firstError, MESSAGES, paymentDraftSchema } from '../lib/forms';
import { createDonationSession, PAYMENT_MESSAGES, paymentFailureResponse } from '../lib/stripe.server';

export const prerender = false;

const DRAFT_FIELDS = paymentDraftSchema.shape;

/**
 * French messages for the issues the shared schema leaves to zod's (English)
 * defaults — a missing or non-string value: the field's own message for an
 * empty value (e.g. "Merci d’indiquer votre prénom"). Schema-level messages
 * take precedence over this per-parse map.
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

/** Creates the embedded Checkout Session and answers `{clientSecret}` (see module doc for the other answers). */
export const POST = (async ({ request }: EndpointContext): Promise<Response> => {
  try {
    if (!isJsonRequest(request)) return jsonResponse(415, { ok: false, message: MESSAGES.badRequest });
    let payload: Record<string, unknown>;
    try {
      payload = await readJsonObject(request);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return jsonResponse(413, { ok: false, message: MESSAGES.tooLarge });
      return jsonResponse(400, { ok: false, message: MESSAGES.badRequest });
    }

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

    // `moyen` says which way the visitor chose; this route is the embedded one whatever it says.
    const { moyen: _moyen, somme: _somme, ...donor } = result.data;
    const origin = new URL(request.url).origin;
    const session = await createDonationSession({ uiMode: 'embedded_page', amount, origin, donor });
    return jsonResponse(200, session);
  } catch (error) {
    return paymentFailureResponse('create-checkout-session', error);
  }
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
