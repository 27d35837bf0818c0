/**
 * The newsletter sign-up's rules that pages need without the database (the legal pages state them):
 * subscription.server.ts applies them.
 */

/** A sign-up never confirmed is deleted this many ms (30 days) after its last confirmation mail. */
export const UNCONFIRMED_KEPT_MS = 30 * 86_400_000;
