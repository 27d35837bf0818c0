/**
 * GET /api/don?id=<index>[&email=…&prenom=…&nom=…] — the "Donation link" of
 * spec §7: creates a Stripe Checkout Session on Stripe's hosted page
 * (ui_mode 'hosted_page') for DONATION_AMOUNTS_EUR[id] (spec §9) and answers
 * `{url}`, which the island opens in a new tab. The donor's email, when given,
 * is prefilled on Stripe's page; prenom and nom go to the session's metadata
 * (the webhook's ledger records them). Any other query parameter — a price
 * above all — is refused. On demand (a Netlify Function); see
 * src/lib/stripe.server.ts and the README, "Donations (Stripe)".
 *
 * Answers (JSON, `Cache-Control: no-store`): 200 `{url}`; 400 `{ok: false,
 * message, fields}` (bad or missing id, bad email, unknown parameter);
 * 405 for any other method; 503 without STRIPE_SECRET_KEY; 502 when Stripe fails.
 */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { amountFromIndex } from '../../lib/donations';
import { jsonResponse, methodNotAllowedFor, type EndpointContext } from '../../lib/endpoint.server';
import { fieldErrors, firstError, MESSAGES, paymentDraftSchema } from '../../lib/forms';
import { createDonationSession, PAYMENT_MESSAGES, paymentFailureResponse } from '../../lib/stripe.server';

export const prerender = false;

/** The query of GET /api/don: `id` (amount index, required) and the donor's optional email and names. */
const donationLinkQuerySchema = z.strictObject(
  {
    id: z
      .string({ error: PAYMENT_MESSAGES.amountInvalid })
      .refine((value) => amountFromIndex(value) !== null, { error: PAYMENT_MESSAGES.amountInvalid }),
    email: z.optional(paymentDraftSchema.shape.email),
    prenom: z.optional(paymentDraftSchema.shape.prenom),
    nom: z.optional(paymentDraftSchema.shape.nom),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? MESSAGES.unknownField : undefined) },
);

/** Creates the hosted Checkout Session and answers `{url}` (see module doc for the other answers). */
export const GET = (async ({ request }: EndpointContext): Promise<Response> => {
  try {
    const url = new URL(request.url);
    const entries = [...url.searchParams];
    if (new Set(entries.map(([key]) => key)).size !== entries.length) {
      return jsonResponse(400, { ok: false, message: MESSAGES.badRequest });
    }
    // An empty optional field (`email=`) is the same as no field; `id` stays, to be refused.
    const query = Object.fromEntries(entries.filter(([key, value]) => key === 'id' || value.trim() !== ''));
    const result = donationLinkQuerySchema.safeParse(query);
    if (!result.success) {
      return jsonResponse(400, { ok: false, message: firstError(result.error), fields: fieldErrors(result.error) });
    }
    const { id, ...donor } = result.data;
    const amount = amountFromIndex(id);
    if (!amount) return jsonResponse(400, { ok: false, message: PAYMENT_MESSAGES.amountInvalid });
    const session = await createDonationSession({ uiMode: 'hosted_page', amount, origin: url.origin, donor });
    return jsonResponse(200, session);
  } catch (error) {
    return paymentFailureResponse('api/don', error);
  }
}) satisfies APIRoute;

/** Any other method (HEAD and POST included): 405 with `Allow: GET`. */
export const ALL = methodNotAllowedFor('GET') satisfies APIRoute;
