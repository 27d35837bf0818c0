/**
 * Which paths are the staff space's, without the space's server modules: the site's middleware asks it of every
 * request and loads the space's guard (firebase-admin) only for these (src/middleware.ts).
 */

/**
 * The decoded, lower-cased path without a trailing slash (`/Espace/%70reinscriptions/` → `/espace/preinscriptions`).
 */
export function normalisedPath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape stays as it is: it matches no public path, so it is guarded.
  }
  return (
    decoded
      .toLowerCase()
      .replace(/\/{2,}/g, '/')
      .replace(/\/+$/, '') || '/'
  );
}

/** True for a path of the space (`/espace` and below). */
export function isEspacePath(pathname: string): boolean {
  const path = normalisedPath(pathname);
  return path === '/espace' || path.startsWith('/espace/');
}
