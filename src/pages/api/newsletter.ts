/** POST /api/newsletter: {email, consentement, consentementVersion} stored in `newsletter` (src/lib/endpoint.server.ts); other methods 405. */
import { submissionEndpoint } from '../../lib/endpoint.server';

export const prerender = false;

export const { POST, ALL } = submissionEndpoint('newsletter');
