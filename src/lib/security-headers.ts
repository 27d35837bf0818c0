/**
 * The security headers every answer carries (docs/security.md): netlify.toml's "/*" rule gives them to static
 * files (tests/build/headers.test.ts keeps the two lists equal), src/middleware.ts to on-demand answers.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
