/**
 * When a gift's tax receipt stays valid after the gift: refunds (`rembourse`) and disputes (`litige`) of the ledger
 * (gift.server.ts), and the one rule that says whether a receipt must be cancelled and whether the gift needs a new
 * number. Pure: the webhook (donation-ledger.server.ts) applies it inside its transaction, the space reads it.
 */

/** The fields of a gift this rule reads (a `dons` document). */
export interface ReceiptFacts {
  nature: string;
  statut: string;
  /** Cents paid; null when Stripe sent none. */
  montant: number | null;
  /** Cents refunded in total. */
  rembourse?: number | undefined;
  litige?: 'ouvert' | 'gagne' | 'perdu' | undefined;
  /** The receipt number held, if any. */
  recu?: string | undefined;
}

/** The amount in cents a receipt of `gift` certifies: what was paid minus what was refunded (never below 0). */
export function receiptCents(gift: Pick<ReceiptFacts, 'montant' | 'rembourse'>): number {
  return Math.max(0, (gift.montant ?? 0) - (gift.rembourse ?? 0));
}

/** True when `gift` may hold a valid receipt: a paid one-off gift, not refunded in full, not lost in a dispute. */
export function deservesReceipt(gift: ReceiptFacts): boolean {
  return gift.nature === 'don' && gift.statut === 'paid' && receiptCents(gift) > 0 && gift.litige !== 'perdu';
}

/**
 * What a change of a gift from `previous` to `next` (whose `recu` is still the previous one) does to its receipt:
 * `cancel`, the number to cancel (kept in `recusAnnules`, never reused), with why; `needsNumber`, whether the gift
 * must get a new number. A receipt is cancelled when the gift no longer deserves one (refunded in full, dispute lost)
 * or when the amount it certifies changed (a partial refund: then a corrected receipt gets a new number). A dispute
 * opened keeps the number (the receipt is only held back until it closes). This is the one place that decides that a
 * gift needs a number.
 */
export function receiptChange(
  previous: Pick<ReceiptFacts, 'rembourse'> | undefined,
  next: ReceiptFacts,
): { cancel?: { numero: string; motif: 'remboursement' | 'litige' }; needsNumber: boolean } {
  const deserved = deservesReceipt(next);
  const held = next.recu;
  const amountChanged = (previous?.rembourse ?? 0) !== (next.rembourse ?? 0);
  const stale = Boolean(held) && (!deserved || amountChanged);
  const motif = next.litige === 'perdu' ? ('litige' as const) : ('remboursement' as const);
  return {
    ...(stale && held ? { cancel: { numero: held, motif } } : {}),
    needsNumber: deserved && (!held || stale),
  };
}
