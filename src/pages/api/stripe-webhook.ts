/**
 * POST /api/stripe-webhook: Stripe's signed events, kept in the `dons` ledger (donation-ledger.server.ts).
 * 200 recorded, replayed or ignored; 400 bad signature or unusable event (nothing written); 405;
 * 413 over 64 KB; 503 STRIPE_WEBHOOK_SECRET unset or Firestore unavailable (Stripe retries).
 */
import type { APIRoute } from 'astro';
import {
  recordStripeEvent,
  verifyStripeEvent,
  WEBHOOK_MAX_BODY_BYTES,
  webhookSecretFromEnv,
} from '../../features/donations/donation-ledger.server';
import {
  errorResponse,
  jsonResponse,
  methodNotAllowedFor,
  readBoundedBody,
  type EndpointContext,
} from '../../lib/endpoint.server';

export const prerender = false;

/** Verifies the signature on the raw body, then records the event (see module doc for the answers). */
export const POST = (async ({ request }: EndpointContext): Promise<Response> => {
  try {
    const secret = webhookSecretFromEnv();
    const body = await readBoundedBody(request, WEBHOOK_MAX_BODY_BYTES);
    const event = await verifyStripeEvent(body, request.headers.get('stripe-signature'), secret);
    const outcome = await recordStripeEvent(event);
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    return errorResponse('api/stripe-webhook', error);
  }
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
