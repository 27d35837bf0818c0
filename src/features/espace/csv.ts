/**
 * CSV for French spreadsheets (Excel, LibreOffice, Numbers in a French locale): UTF-8 with a byte-order mark (else
 * Excel reads Windows-1252), `;` between cells (`,` is the decimal separator), CRLF between rows, and every text
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a CR prefixed with `'` so that no spreadsheet runs it as a
 * formula (OWASP « CSV injection »). Written with csv-stringify, which quotes cells holding `;`, `"` or line breaks.
 */
import { stringify } from 'csv-stringify/sync';

/** A cell: text (neutralised), a number (as is) or nothing (empty). */
export type CsvCell = string | number | null | undefined;

/** `cell` with a `'` before a leading `=`, `+`, `-`, `@`, tab or CR; other texts unchanged. */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** The CSV text (BOM first) of a header row and data rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify([[...header], ...rows.map((row) => [...row])], {
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    cast: { string: neutraliseFormula },
  });
}

/** A CSV download: `text/csv; charset=utf-8`, saved as `filename`, never cached. */
export function csvResponse(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}
