/**
 * POST /api/preinscription — pre-registration of a child (spec §3, §7):
 * validates the pre-registration fields with the shared preRegistrationSchema
 * and adds them, with consentementTexte and `date`, to the `inscripitions` collection (spelled so in
 * the database). On demand (a Netlify Function); see
 * src/lib/endpoint.server.ts and docs/endpoints.md.
 */
import type { APIRoute } from 'astro';
import { createSubmissionEndpoint } from '../../lib/endpoint.server';
import { MESSAGES, preRegistrationSchema } from '../../lib/forms';

export const prerender = false;

const endpoint = createSubmissionEndpoint({
  form: 'preinscription',
  path: '/api/preinscription',
  collection: 'inscripitions',
  schema: preRegistrationSchema,
  successMessage: MESSAGES.preRegistrationSuccess,
});

/** The pre-registration: JSON → JSON answer, plain form POST → 303 to `/ecole#preinscription-<outcome>`. */
export const POST = endpoint.POST satisfies APIRoute;
/** Any other method: 405 with `Allow: POST`. */
export const ALL = endpoint.ALL satisfies APIRoute;
