/**
 * POST /create-checkout-session (at the root, as the specification names it): the payment draft as
 * JSON, same Origin only, opens a Checkout Session embedded in /soutenir and answers
 * `{clientSecret}` for Stripe.js. Answers: docs/donations.md.
 */
import type { APIRoute } from 'astro';
import { donationSessionHandler } from '../features/donations/donation-endpoint.server';
import { methodNotAllowedFor } from '../lib/endpoint.server';

export const prerender = false;

/** Creates the embedded Checkout Session and answers `{clientSecret}`. */
export const POST = donationSessionHandler('embedded_page', 'create-checkout-session') satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
