/**
 * POST /api/stripe-webhook — Stripe's notifications, kept in the donation ledger (Firestore
 * `dons`, written with firebase-admin; src/lib/donation-ledger.server.ts, docs/donations.md).
 * Answers: 200 recorded, replayed or ignored; 400 missing, wrong, stale or future signature, or
 * a signed body that is no usable event (nothing written); 405 other methods; 413 over 64 KB;
 * 503 STRIPE_WEBHOOK_SECRET unset or Firestore unavailable (Stripe delivers the event again).
 */
import type { APIRoute } from 'astro';
import {
  recordStripeEvent,
  verifyStripeEvent,
  WEBHOOK_MAX_BODY_BYTES,
  WebhookPayloadError,
  WebhookSignatureError,
  webhookSecretFromEnv,
} from '../../lib/donation-ledger.server';
import {
  BodyTooLargeError,
  jsonResponse,
  methodNotAllowedFor,
  readBoundedBody,
  type EndpointContext,
} from '../../lib/endpoint.server';
import { MESSAGES } from '../../lib/forms';
import { PAYMENT_MESSAGES, StripeNotConfiguredError } from '../../lib/stripe.server';
import { SubmissionUnavailableError } from '../../lib/submissions.server';

export const prerender = false;

const ROUTE = '[api/stripe-webhook]';

/** Verifies the signature on the raw body, then records the event (see module doc for the answers). */
export const POST = (async ({ request }: EndpointContext): Promise<Response> => {
  try {
    const secret = webhookSecretFromEnv();
    let body: Uint8Array;
    try {
      body = await readBoundedBody(request, WEBHOOK_MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return jsonResponse(413, { ok: false, message: MESSAGES.tooLarge });
      return jsonResponse(400, { ok: false, message: MESSAGES.badRequest });
    }
    const event = await verifyStripeEvent(body, request.headers.get('stripe-signature'), secret);
    const outcome = await recordStripeEvent(event);
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      console.warn(`${ROUTE} refused: ${error.message}`);
      return jsonResponse(400, { ok: false, message: 'Signature Stripe absente ou invalide.' });
    }
    if (error instanceof WebhookPayloadError) {
      console.error(`${ROUTE} ${error.message}`);
      return jsonResponse(400, { ok: false, message: MESSAGES.badRequest });
    }
    if (error instanceof StripeNotConfiguredError) {
      console.error(`${ROUTE} ${error.message}`);
      return jsonResponse(503, { ok: false, message: PAYMENT_MESSAGES.notConfigured });
    }
    if (error instanceof SubmissionUnavailableError) {
      console.error(`${ROUTE} donation not recorded:`, error);
      return jsonResponse(503, { ok: false, message: MESSAGES.unavailable }, { 'retry-after': '60' });
    }
    console.error(`${ROUTE} unexpected error:`, error);
    return jsonResponse(500, { ok: false, message: MESSAGES.unavailable });
  }
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
