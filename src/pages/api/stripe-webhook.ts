/** POST /api/stripe-webhook: Stripe's signed events, kept in the `dons` ledger (donation-ledger.server.ts). */
import type { APIRoute } from 'astro';
import { stripeWebhook } from '../../features/donations/donation-ledger.server';
import { methodNotAllowedFor } from '../../lib/endpoint.server';

export const prerender = false;

/** 200 recorded, replayed or ignored; 400 bad signature or event; 413 over 64 KB; 503 (Stripe retries). */
export const POST = stripeWebhook satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
