/**
 * POST /api/don — the "Donation link" of spec §7, made safe: the payment draft as JSON (amount
 * index `somme`, `frequence`), from a page of this site only (same Origin), opens a Checkout
 * Session on Stripe's hosted page and answers `{url}`, which the island opens in a new tab.
 * The spec's GET (which crawlers and prefetching would call) answers 405: docs/donations.md.
 */
import type { APIRoute } from 'astro';
import { donationSessionHandler } from '../../lib/donation-endpoint.server';
import { methodNotAllowedFor } from '../../lib/endpoint.server';

export const prerender = false;

/** Creates the hosted Checkout Session and answers `{url}` (other answers: donationSessionHandler). */
export const POST = donationSessionHandler('hosted_page', 'api/don') satisfies APIRoute;

/** Any other method (GET and HEAD included): 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
