/**
 * POST /api/preinscription: a child's pre-registration stored in `inscripitions`
 * (src/features/forms/submissions.server.ts); other methods 405.
 */
import { submissionEndpoint } from '../../features/forms/submissions.server';

export const prerender = false;

export const { POST, ALL } = submissionEndpoint('preinscription');
