import type { APIRoute } from 'astro';
import { association } from '../../association';
import { donationSessionHandler } from '../../features/donations/checkout/stripe.server';
import { methodNotAllowedFor } from '../../lib/endpoint.server';

export const prerender = false;

/**
 * POST /api/don: a Checkout Session on Stripe's hosted page, answers `{url}` (other answers: donationSessionHandler).
 */
export const POST = donationSessionHandler('hosted_page', 'api/don', association) satisfies APIRoute;

/** Any other method (GET and HEAD included: crawlers and prefetching open nothing): 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
