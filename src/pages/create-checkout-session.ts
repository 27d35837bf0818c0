import type { APIRoute } from 'astro';
import { association } from '../association';
import { donationSessionHandler } from '../features/donations/checkout/stripe.server';
import { methodNotAllowedFor } from '../lib/endpoint.server';

export const prerender = false;

/** POST /create-checkout-session (spec's path): a Checkout Session embedded in /soutenir, answers `{clientSecret}`. */
export const POST = donationSessionHandler('embedded_page', 'create-checkout-session', association) satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
