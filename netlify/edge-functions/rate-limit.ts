/**
 * Rate limit of the write and payment endpoints: Netlify enforces this function's `rateLimit` config at the edge (429
 * per IP address) before the function, which only hands the request on. Only /api/stripe-webhook (Stripe must retry) is
 * left out, by exact path, so other spellings of a limited route stay limited (the handlers answer them 404);
 * /api/rebuild is limited: its publish form takes a password, and so is the staff space's sign-in page
 * (/espace/connexion), beside Firebase Authentication's own limits per account.
 */

/** Passes the request on unchanged (returning nothing continues to the site's function). */
export default function rateLimit(): undefined {
  return undefined;
}

/**
 * Paths (URLPattern syntax) and the limit per IP address: 20 requests a minute over all endpoints, far above
 * a family's needs (the thank-you page alone asks for the receipt about 8 times) and far below a flood.
 */
export const config = {
  path: [
    '/api/*',
    '/create-checkout-session',
    '/create-checkout-session/*',
    '/espace/connexion',
    '/espace/connexion/*',
    // A monthly donor's link by mail: the page posts to itself (each address gets one mail an hour at most).
    '/soutenir/gerer',
    '/soutenir/gerer/*',
  ],
  excludedPath: ['/api/stripe-webhook'],
  rateLimit: {
    windowLimit: 20,
    /** Seconds. */
    windowSize: 60,
    aggregateBy: ['ip', 'domain'],
  },
} as const;
