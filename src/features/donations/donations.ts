/** Donation amounts and the French tax reduction; a donation's amount is always chosen by index, never sent as a price. */

/** Spec §9: donation amounts in euros. */
export const DONATION_AMOUNTS_EUR = [10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000] as const;

/** Default choice (25 €): the index the picker starts on. */
export const DEFAULT_AMOUNT_INDEX = 1;

/** Income-tax reduction for gifts to associations of general interest: 66 % (article 200 of the Code général des impôts). */
export const TAX_REDUCTION_RATE = 0.66;

/** A Checkout Session id (`cs_…`, Stripe ids are at most 255 characters): the ledger's key and the receipt's link. */
export const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,252}$/;

/** Moves the amount index by `delta`, wrapping around in both directions (spec §4). */
export function stepAmountIndex(index: number, delta: number): number {
  const count = DONATION_AMOUNTS_EUR.length;
  return (((index + delta) % count) + count) % count;
}

/** The amount of an index given as a number or text: `{ index, euros, cents }`, null for anything but an integer 0…9. */
export function amountFromIndex(value: unknown): { index: number; euros: number; cents: number } | null {
  const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '';
  if (!/^\d{1,2}$/.test(text)) return null;
  const index = Number(text);
  const euros = DONATION_AMOUNTS_EUR[index];
  return euros === undefined ? null : { index, euros, cents: euros * 100 };
}

/** Euros the French way: "10 000 €", "8,50 €" (cents shown when there are some, or always with `withCents`). */
export function formatEuros(euros: number, withCents = false): string {
  const trailingZeroDisplay = withCents ? 'auto' : 'stripIfInteger';
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', trailingZeroDisplay }).format(euros);
}

/** What a gift of `euros` costs after the 66 % reduction, in euros (to the cent). */
export function costAfterTaxReduction(euros: number): number {
  const cents = Math.round(euros * 100);
  return (cents - Math.round(cents * TAX_REDUCTION_RATE)) / 100;
}

/** "Votre don de 50 € [par mois] ne vous coûte que 17 € [par mois] après réduction d’impôt". */
export function taxReductionLine(euros: number, monthly = false): string {
  const period = monthly ? ' par mois' : '';
  return `Votre don de ${formatEuros(euros)}${period} ne vous coûte que ${formatEuros(costAfterTaxReduction(euros))}${period} après réduction d’impôt`;
}

/** The one-line note on the cap. */
export const TAX_CAP_NOTE =
  'Réduction d’impôt sur le revenu de 66 % du don, dans la limite de 20 % de votre revenu imposable (l’excédent est reportable sur cinq ans).';
