/** POST /api/preinscription: a child's pre-registration stored in `inscripitions` (src/lib/endpoint.server.ts); other methods 405. */
import { submissionEndpoint } from '../../lib/endpoint.server';

export const prerender = false;

export const { POST, ALL } = submissionEndpoint('preinscription');
