/**
 * Astro's cross-site form check (security.checkOrigin), done in src/middleware.ts so that a route that carries its
 * own secret can be let through: the one-click unsubscription that mail clients post (RFC 8058) without an Origin.
 */

/** The answer to a refused cross-site submission (403, plain text). */
export const CROSS_SITE_REFUSAL = 'Cette demande vient d’un autre site : elle est refusée.';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when `request` to `url` is a cross-site submission Astro's checkOrigin would refuse (403): an unsafe method
 * whose Origin is not the site's, with a form's content type or none at all. Paths in `exempt` pass.
 */
export function isForbiddenCrossSiteRequest(request: Request, url: URL, exempt: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(request.method) || exempt.has(url.pathname.replace(/\/$/, ''))) return false;
  if (request.headers.get('origin') === url.origin) return false;
  const type = request.headers.get('content-type')?.toLowerCase();
  return type === undefined || type === null || FORM_TYPES.some((form) => type.includes(form));
}
