/** POST /api/don: opens a Checkout Session on Stripe's hosted page and answers `{url}`; GET answers 405, so that crawlers and prefetching open nothing. */
import type { APIRoute } from 'astro';
import { donationSessionHandler } from '../../features/donations/donation-endpoint.server';
import { methodNotAllowedFor } from '../../lib/endpoint.server';

export const prerender = false;

/** Creates the hosted Checkout Session and answers `{url}` (other answers: donationSessionHandler). */
export const POST = donationSessionHandler('hosted_page', 'api/don') satisfies APIRoute;

/** Any other method (GET and HEAD included): 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
