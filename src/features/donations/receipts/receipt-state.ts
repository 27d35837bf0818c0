/**
 * Where a gift's tax receipt stands: the `etat` GET /api/recu answers (donation-ledger.server.ts) and the thank-you
 * page's blocks (`data-state` in ReceiptStatus.astro) and script, from this one list.
 */

/** The states GET /api/recu answers, as the wire (`etat`) spells them. */
export const RECEIPT_STATES = [
  'attente',
  'pret',
  'specimen',
  'mensuel',
  'impaye',
  'echec',
  'rectifie',
  'annule',
  'conteste',
  'litige',
] as const;

/**
 * 'attente' not recorded (yet), 'pret' a paid one-off gift with its number, 'specimen' a paid one-off gift made with
 * Stripe's test keys (a specimen without tax value), 'mensuel' a monthly gift (one yearly receipt), 'impaye' a payment
 * not settled yet, 'echec' a failed delayed payment; after the gift (receipt-validity.ts): 'rectifie' refunded in part
 * (its receipt cancelled and replaced by a corrected one, `numero`), 'annule' refunded in full and 'conteste' a
 * dispute lost (the receipt cancelled, none served), 'litige' a dispute open (the receipt held back until it closes).
 */
export type ReceiptState = (typeof RECEIPT_STATES)[number];

/** What the thank-you page shows: a ReceiptState, 'lent' still 'attente' after its last try, 'sans' no session id. */
export type ReceiptBlock = ReceiptState | 'lent' | 'sans';

/** True for a state GET /api/recu answers. */
export function isReceiptState(value: unknown): value is ReceiptState {
  return (RECEIPT_STATES as readonly unknown[]).includes(value);
}
