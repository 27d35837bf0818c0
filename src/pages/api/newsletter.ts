/**
 * POST /api/newsletter — newsletter signup (spec §3, §5, §7): validates
 * {email, consentement, consentementVersion} with the shared newsletterSchema and
 * adds them, with consentementTexte and date, to the `newsletter` collection. On demand (a
 * Netlify Function); see src/lib/endpoint.server.ts and docs/endpoints.md.
 */
import type { APIRoute } from 'astro';
import { createSubmissionEndpoint } from '../../lib/endpoint.server';
import { MESSAGES, newsletterSchema } from '../../lib/forms';

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
