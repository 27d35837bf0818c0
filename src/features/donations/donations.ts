/**
 * Donation amounts and the French tax reduction. A donation's amount is always one of
 * DONATION_AMOUNTS_EUR, chosen by index: the browser never sends a price.
 */

/** Spec §9: donation amounts in euros. */
export const DONATION_AMOUNTS_EUR = [10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000] as const;

/** Default choice (25 €): the index the picker starts on. */
export const DEFAULT_AMOUNT_INDEX = 1;

/**
 * Income-tax reduction for gifts to associations of general interest
 * (article 200 of the French Code général des impôts): 66 % of the gift,
 * within 20 % of the taxable income.
 */
export const TAX_REDUCTION_RATE = 0.66;

/**
 * Moves the amount index by `delta` with wrap-around in both directions
 * (spec §4): after the last amount comes the first, before the first the last.
 */
export function stepAmountIndex(index: number, delta: number): number {
  const count = DONATION_AMOUNTS_EUR.length;
  return (((index + delta) % count) + count) % count;
}

/**
 * The amount for an index given as text (query string, form field).
 * @returns euros and cents, or null for a missing, non-integer or out-of-range index.
 */
export function amountFromIndex(
  value: string | number | null | undefined,
): { index: number; euros: number; cents: number } | null {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (!/^\d{1,2}$/.test(text)) return null;
  const index = Number(text);
  const euros = DONATION_AMOUNTS_EUR[index];
  return euros === undefined ? null : { index, euros, cents: euros * 100 };
}

const WHOLE_EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
const EUROS_AND_CENTS = new Intl.NumberFormat('fr-FR', {
  style: 'currency',
  currency: 'EUR',
  minimumFractionDigits: 2,
});

/** Formats euros the French way: "10 000 €", "8,50 €" (cents shown only when there are some). */
export function formatEuros(euros: number): string {
  return Number.isInteger(euros) ? WHOLE_EUROS.format(euros) : EUROS_AND_CENTS.format(euros);
}

/** What a gift of `euros` costs after the 66 % reduction, in euros (to the cent). */
export function costAfterTaxReduction(euros: number): number {
  const cents = Math.round(euros * 100);
  return (cents - Math.round(cents * TAX_REDUCTION_RATE)) / 100;
}

/**
 * "Votre don de 50 € ne vous coûte que 17 € après réduction d’impôt"; with `monthly`,
 * "Votre don de 50 € par mois ne vous coûte que 17 € par mois après réduction d’impôt".
 */
export function taxReductionLine(euros: number, monthly = false): string {
  const period = monthly ? ' par mois' : '';
  return `Votre don de ${formatEuros(euros)}${period} ne vous coûte que ${formatEuros(costAfterTaxReduction(euros))}${period} après réduction d’impôt`;
}

/** The one-line note on the cap. */
export const TAX_CAP_NOTE =
  'Réduction d’impôt sur le revenu de 66 % du don, dans la limite de 20 % de votre revenu imposable (l’excédent est reportable sur cinq ans).';
