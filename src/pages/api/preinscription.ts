/**
 * POST /api/preinscription: a child's pre-registration checked by preRegistrationSchema, stored
 * with consentementTexte and date in `inscripitions`, so spelled in the database (src/lib/endpoint.server.ts).
 */
import type { APIRoute } from 'astro';
import { createSubmissionEndpoint } from '../../lib/endpoint.server';
import { MESSAGES, preRegistrationSchema } from '../../features/forms/forms';

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
