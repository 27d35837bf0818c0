/**
 * Donation amounts (one of the spec's, chosen by index, or the donor's own typed in euros: the server computes the
 * cents), the French tax reduction, receipt numbers and years.
 */

/** Spec §9: donation amounts in euros. */
export const DONATION_AMOUNTS_EUR = [10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000] as const;

/** Bounds of an amount of the donor's own (« Autre montant »), in euros: 1 € to 100 000 €. */
export const OWN_AMOUNT_MIN_EUR = 1;
export const OWN_AMOUNT_MAX_EUR = 100_000;

/** Why an amount typed in « Autre montant » is refused, in French (the island and the endpoints say the same). */
export const OWN_AMOUNT_MESSAGES = {
  required: 'Indiquez le montant de votre don en euros, par exemple 37 ou 37,50',
  notAmount: 'Indiquez un montant en euros, en chiffres : par exemple 37 ou 37,50',
  tooPrecise: 'Indiquez au plus deux chiffres après la virgule : par exemple 37,50',
  tooSmall: 'Le montant minimum d’un don est de 1 €',
  tooLarge:
    'Le montant maximum d’un don en ligne est de 100 000 €. Pour donner davantage, écrivez-nous ou donnez par chèque.',
} as const;

/**
 * The cents of an amount typed in euros (« 37 », « 37,50 », « 37.5 », « 1 000 », « 37 € »), or the French reason it is
 * not a gift between OWN_AMOUNT_MIN_EUR and OWN_AMOUNT_MAX_EUR. Computed from the digits, never through a float: « 37,5
 * » is 3 750 cents. A point is a decimal separator like the comma, so « 1.000 » is refused (three decimals) rather than
 * read as 1 €.
 */
export function parseOwnAmount(typed: string): { cents: number } | { error: string } {
  const compact = typed.replace(/[\s\u00a0\u202f]/g, '').replace(/(^€|€$|eur(os?)?$)/i, '');
  if (compact === '') return { error: OWN_AMOUNT_MESSAGES.required };
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(compact);
  if (!match) return { error: OWN_AMOUNT_MESSAGES.notAmount };
  const [, whole = '', decimals = ''] = match;
  if (decimals.length > 2) return { error: OWN_AMOUNT_MESSAGES.tooPrecise };
  // Past 9 digits the amount is far over the bound (and a Number would start rounding).
  if (whole.replace(/^0+/, '').length > 9) return { error: OWN_AMOUNT_MESSAGES.tooLarge };
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  if (cents < OWN_AMOUNT_MIN_EUR * 100) return { error: OWN_AMOUNT_MESSAGES.tooSmall };
  if (cents > OWN_AMOUNT_MAX_EUR * 100) return { error: OWN_AMOUNT_MESSAGES.tooLarge };
  return { cents };
}

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

/**
 * Where the stepper goes from an amount of the donor's own (`euros`, undefined while what is typed is not one): the
 * next proposed amount above it (`delta` +1) or below it (-1), wrapping around like stepAmountIndex.
 */
export function stepFromOwnAmount(euros: number | undefined, delta: number): number {
  const last = DONATION_AMOUNTS_EUR.length - 1;
  if (euros === undefined) return delta > 0 ? 0 : last;
  const index =
    delta > 0
      ? DONATION_AMOUNTS_EUR.findIndex((amount) => amount > euros)
      : DONATION_AMOUNTS_EUR.findLastIndex((amount) => amount < euros);
  return index === -1 ? (delta > 0 ? 0 : last) : index;
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
