/** POST /create-checkout-session (the spec's path): opens a Checkout Session embedded in /soutenir, answers `{clientSecret}`. */
import type { APIRoute } from 'astro';
import { donationSessionHandler } from '../features/donations/donation-endpoint.server';
import { methodNotAllowedFor } from '../lib/endpoint.server';

export const prerender = false;

/** Creates the embedded Checkout Session and answers `{clientSecret}` (other answers: donationSessionHandler). */
export const POST = donationSessionHandler('embedded_page', 'create-checkout-session') satisfies APIRoute;

/** Any other method: 405 with `Allow: POST`. */
export const ALL = methodNotAllowedFor('POST') satisfies APIRoute;
