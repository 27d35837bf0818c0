/**
 * CSV for French spreadsheets (Excel, LibreOffice, Numbers in a French locale): UTF-8 with a byte-order mark (else
 * Excel reads Windows-1252), `;` between cells (`,` is the decimal separator), CRLF between rows. Every text cell whose
 * start, or the start of any line inside it, is `=`, `+`, `-`, `@`, a tab or a CR gets a `'` there, so that no
 * spreadsheet runs it as a formula, even one that splits a cell on its line breaks (OWASP « CSV injection »). Written
 * with csv-stringify, which quotes any cell holding `;`, `"`, CR or LF: a line break inside a cell never starts a row.
 * The one writer of the space's exports (pre-registrations, gifts, newsletter subscribers).
 */
import { stringify } from 'csv-stringify/sync';

/** A cell: text (neutralised), a number (as is) or nothing (empty). */
export type CsvCell = string | number | null | undefined;

/**
 * `cell` with a `'` before a `=`, `+`, `-`, `@`, tab or CR that starts it or follows a line break (LF, CR, CRLF);
 * other texts unchanged.
 * @example neutraliseFormula('Léa\n=1+1') // "Léa\n'=1+1"
 */
export function neutraliseFormula(cell: string): string {
  return cell.replace(/(?<=^|[\r\n])(?=[=+\-@\t\r])/g, "'");
}

/** The CSV text (BOM first) of a header row and data rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify([[...header], ...rows.map((row) => [...row])], {
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    // Quoted whatever the library's defaults become: a bare LF or CR in a cell would otherwise open a new row.
    quoted_match: /[\r\n]/,
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
