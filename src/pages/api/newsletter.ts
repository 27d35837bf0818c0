/**
 * POST /api/newsletter: {email, consentement, consentementVersion} checked by newsletterSchema,
 * stored with consentementTexte and date in `newsletter` (src/lib/endpoint.server.ts).
 */
import type { APIRoute } from 'astro';
import { createSubmissionEndpoint } from '../../lib/endpoint.server';
import { MESSAGES, newsletterSchema } from '../../features/forms/forms';

export const prerender = false;

const endpoint = createSubmissionEndpoint({
  form: 'newsletter',
  path: '/api/newsletter',
  collection: 'newsletter',
  schema: newsletterSchema,
  successMessage: MESSAGES.newsletterSuccess,
});

/** The signup: JSON → JSON answer, plain form POST → 303 to `/#newsletter-<outcome>`. */
export const POST = endpoint.POST satisfies APIRoute;
/** Any other method: 405 with `Allow: POST`. */
export const ALL = endpoint.ALL satisfies APIRoute;
