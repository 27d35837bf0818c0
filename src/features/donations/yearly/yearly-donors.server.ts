/**
 * Who gets a yearly receipt of monthly gifts and for how much: the instalments of the ledger (`dons`, nature
 * `mensualite`) that count in a year, grouped by donor. Pure; issued by yearly-receipts.server.ts. docs/donations.md,
 * « Yearly receipts ».
 */
import { logId } from '../../../lib/log-id.server';
import { receiptYear } from '../checkout/donations';
import type { Gift } from '../ledger/gift.server';
import { receiptCents } from '../receipts/receipt-validity';

/** One donor's year: its key, the instalments (`[id, gift]`, in order of payment), the total in cents. */
export interface DonorYear {
  key: string;
  instalments: [string, Gift][];
  cents: number;
}

/**
 * True when the instalment `gift` counts in a yearly receipt of `year`: a paid live instalment paid in `year`
 * (Europe/Paris), not lost in a dispute (`litige` 'perdu'), with money left after refunds (receiptCents > 0).
 */
export function countsIn(gift: Gift, year: number): boolean {
  return (
    gift.nature === 'mensualite' &&
    gift.statut === 'paid' &&
    gift.livemode &&
    // A dispute lost: the bank gave the money back, the instalment is no gift.
    gift.litige !== 'perdu' &&
    receiptCents(gift) > 0 &&
    receiptYear(gift.datePaiement.toDate()) === year
  );
}

export const byPayment = ([, a]: [string, Gift], [, b]: [string, Gift]) =>
  a.datePaiement.toMillis() - b.datePaiement.toMillis();

/**
 * The donors of `year` among `gifts` (`[id, gift]` of `dons`): the instalments that count (countsIn: paid, live, paid
 * in `year`, no dispute lost, not refunded in full) grouped by donor key (Stripe's customer id; for an instalment
 * recorded without one, its subscription's customer from another instalment, else `sub-<subscription>`, else
 * `email-<logId of the lower-case email>`), each with its total less refunds (`rembourse`, cents). Donors without any
 * are left out. Sorted by key.
 */
export function donorYears(gifts: readonly [string, Gift][], year: number): DonorYear[] {
  const paid = gifts.filter(([, gift]) => countsIn(gift, year));
  const customers = new Map(
    gifts.flatMap(([, gift]) => (gift.client && gift.abonnement ? [[gift.abonnement, gift.client] as const] : [])),
  );
  const keyOf = (gift: Gift) =>
    gift.client ||
    customers.get(gift.abonnement) ||
    (gift.abonnement ? `sub-${gift.abonnement}` : gift.email ? `email-${logId(gift.email.toLowerCase())}` : '');
  return [...Map.groupBy(paid, ([, gift]) => keyOf(gift))]
    .filter(([key]) => key)
    .map(([key, instalments]) => ({
      key,
      instalments: instalments.toSorted(byPayment),
      cents: instalments.reduce((sum, [, gift]) => sum + receiptCents(gift), 0),
    }))
    .filter((donor) => donor.cents > 0)
    .toSorted((a, b) => a.key.localeCompare(b.key));
}
