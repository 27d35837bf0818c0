/**
 * Donation amounts (always chosen by index, never sent as a price), the French tax reduction, receipt numbers and
 * years.
 */

/** Spec §9: donation amounts in euros. */
export const DONATION_AMOUNTS_EUR = [10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000] as const;

/**
 * Income-tax reduction for gifts to associations of general interest: 66 % (article 200 of the Code général des
 * impôts).
 */
export const TAX_REDUCTION_RATE = 0.66;

/**
 * Years the ledger (`dons`) and the receipts are kept: accounting records ten years (Code de commerce, art. L123-22);
 * nothing deletes them sooner, and the privacy notice says so from this constant.
 */
export const GIFT_RECORDS_KEPT_YEARS = 10;

/** A Checkout Session id (`cs_…`, Stripe ids are at most 255 characters): the ledger's key and the receipt's link. */
export const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,252}$/;

/**
 * Moves the amount index by `delta`, wrapping around in both directions (spec §4: « the amount index cycles through the
 * amount list with wrap-around in both directions »): back from 10 € is 10 000 €, on from 10 000 € is 10 €. The picker
 * says each new amount aloud and shows every amount beside the stepper, so a wrap is never silent.
 */
export function stepAmountIndex(index: number, delta: number): number {
  const count = DONATION_AMOUNTS_EUR.length;
  return (((index + delta) % count) + count) % count;
}

/** Euros the French way: "10 000 €", "8,50 €" (cents shown when there are some, or always with `withCents`). */
export function formatEuros(euros: number, withCents = false): string {
  const trailingZeroDisplay = withCents ? 'auto' : 'stripIfInteger';
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', trailingZeroDisplay }).format(euros);
}

/** What a gift of `euros` costs after the reduction of `rate` (default a person's 66 %), in euros (to the cent). */
export function costAfterTaxReduction(euros: number, rate: number = TAX_REDUCTION_RATE): number {
  const cents = Math.round(euros * 100);
  return (cents - Math.round(cents * rate)) / 100;
}

/** "Votre don de 50 € [par mois] ne vous coûte que 17 € [par mois] après réduction d’impôt". */
export function taxReductionLine(euros: number, monthly = false): string {
  const period = monthly ? ' par mois' : '';
  return (
    `Votre don de ${formatEuros(euros)}${period} ne vous coûte que ` +
    `${formatEuros(costAfterTaxReduction(euros))}${period} après réduction d’impôt`
  );
}

// Receipts are numbered per calendar year of the payment, in the association's time zone.
const RECEIPT_TIME_ZONE = 'Europe/Paris';

/** The calendar year (in RECEIPT_TIME_ZONE) of a payment made at `date`. */
export function receiptYear(date: Date): number {
  return Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: RECEIPT_TIME_ZONE }).format(date));
}

/** The receipt number of the `sequence`-th gift (from 1) of `year`: "2026-00042". */
export function receiptNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(5, '0')}`;
}
