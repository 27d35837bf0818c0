/**
 * The space's CSV for spreadsheets, read back with a CSV parser: each character a spreadsheet takes for the start of a
 * formula (`=`, `+`, `-`, `@`, tab, CR) gets a `'` before it; other texts, numbers and empty cells stay as they are.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/features/espace/csv';

/** The data rows of `toCsv` read back as a spreadsheet would split them (BOM, `;`, CRLF). */
const readBack = (rows: (string | number | null)[][]): string[][] =>
  parse(toCsv(['A', 'B'], rows), { bom: true, delimiter: ';', relax_column_count: true }).slice(1);

describe('the CSV export neutralises formulas', () => {
  it.each([
    ['=', '=HYPERLINK("http://x.example","clic")'],
    ['+', '+33 6 12 34 56 78'],
    ['-', '-2+3'],
    ['@', '@SUM(A1:A2)'],
    ['a tab', '\t=1+1'],
    ['a carriage return', '\r=1+1'],
  ])('prefixes a cell starting with %s with a quote', (_, cell) => {
    expect(readBack([[cell, 'texte']])).toEqual([[`'${cell}`, 'texte']]);
  });

  it('leaves other texts, a sign inside a text, numbers and empty cells as they are', () => {
    expect(
      readBack([
        ['Saint-Étienne', 'a=b'],
        [-5, null],
        [' =1', ''],
      ]),
    ).toEqual([
      ['Saint-Étienne', 'a=b'],
      ['-5', ''],
      [' =1', ''],
    ]);
  });
});
