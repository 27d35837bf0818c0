/**
 * Rate limit of the write and payment endpoints (issue 5, "Security"), with
 * Netlify's code-based rate limiting: the `rateLimit` of this edge function's
 * config becomes a traffic rule that Netlify's edge enforces before the
 * function runs, answering 429 once one visitor's IP address has sent more
 * than `windowLimit` requests to these paths within `windowSize` seconds.
 * The function itself changes nothing: it hands every request on.
 *
 * Every path under /api/ is limited but the exact paths of /api/stripe-webhook
 * (Stripe's retries must always get through; its signature check refuses anyone
 * else) and /api/rebuild (its secret and one-build-a-minute debounce bound it):
 * another spelling of a limited route (`/api/newsletter/`, `/api/%6Eewsletter`)
 * is limited too, and the handlers answer it 404 (nonCanonicalPath).
 * The islands show MESSAGES.tooManyRequests on a 429 and keep what the
 * visitor typed (src/lib/submit.ts, src/islands/DonationForm.tsx).
 */

/** Passes the request on unchanged (returning nothing continues to the site's function). */
export default function rateLimit(): undefined {
  return undefined;
}

/**
 * Netlify edge function declaration: the paths (URLPattern syntax), and the limit per IP address:
 * 20 requests a minute over the endpoints together, far above what a family needs (a
 * pre-registration, a subscription, two payment attempts, the thank-you page
 * asking for the receipt about 8 times in its first minute)
 * and far below what a script flooding the database or Stripe would send.
 */
export const config = {
  path: ['/api/*', '/create-checkout-session', '/create-checkout-session/*'],
  excludedPath: ['/api/stripe-webhook', '/api/rebuild'],
  rateLimit: {
    windowLimit: 20,
    /** Seconds. */
    windowSize: 60,
    aggregateBy: ['ip', 'domain'],
  },
} as const;
