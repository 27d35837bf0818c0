/** What the content pages' work modules read of Astro's global: params, request, url, locals, and the response. */
import type { AstroGlobal } from 'astro';

/** A page's `Astro`, as far as a module doing its work needs it (it sets `response.status` on a failure). */
export type PageContext = Pick<AstroGlobal, 'params' | 'request' | 'url' | 'locals' | 'response'>;
