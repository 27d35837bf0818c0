/**
 * The security headers of every answer (docs/security.md): netlify.toml's "/*" rule (kept equal by
 * tests/build/headers.test.ts) and src/middleware.ts.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * The policy of content files (pictures, fonts, the files of /_astro/ and /medias/): opened by themselves, they run no
 * script (an SVG's included) and are a sandbox; a page that shows them is governed by its own policy. netlify.toml's
 * `/_astro/*` rule holds the same text (tests/build/headers.test.ts).
 */
export const CONTENT_FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; sandbox";
