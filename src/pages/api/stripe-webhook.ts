import type { APIRoute } from 'astro';
import { stripeWebhook } from '../../features/donations/ledger/donation-ledger.server';
import { methodNotAllowedFor } from '../../lib/endpoint.server';

export const prerender = false;

/**
 * Stripe's signed events into the `dons` ledger: 200 recorded, replayed or ignored; 400; 413 over 64 KB; 503 (Stripe
 * retries).
 */
export const POST = stripeWebhook satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
