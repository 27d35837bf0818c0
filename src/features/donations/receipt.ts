/** Tax receipts ("reçu au titre des dons", CERFA n° 11580): numbers and dates; the PDF is receipt-pdf.server.ts. */

/** Receipts are numbered per calendar year of the payment, in the association's time zone. */
const RECEIPT_TIME_ZONE = 'Europe/Paris';

/** The calendar year (in RECEIPT_TIME_ZONE) of a payment made at `date`. */
export function receiptYear(date: Date): number {
  return Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: RECEIPT_TIME_ZONE }).format(date));
}

/** The receipt number of the `sequence`-th gift (from 1) of `year`: "2026-00042". */
export function receiptNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(5, '0')}`;
}

/** A date in French in RECEIPT_TIME_ZONE: "23 novembre 2026". */
export function frenchDate(date: Date): string {
  return new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: RECEIPT_TIME_ZONE }).format(date);
}
