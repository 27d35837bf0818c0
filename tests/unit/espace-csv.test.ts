/**
 * The space's CSV for spreadsheets, read back with a CSV parser: each character a spreadsheet takes for the start of a
 * formula (`=`, `+`, `-`, `@`, tab, CR) at the start of a cell or of a line inside it gets a `'` before it, and a line
 * break stays inside its cell; other texts, numbers and empty cells stay as they are.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/lib/csv';

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
  ])('prefixes a cell starting with %s with a quote', (_, cell) => {
    expect(readBack([[cell, 'texte']])).toEqual([[`'${cell}`, 'texte']]);
  });

  it.each([
    ['a carriage return', '\r=1+1', "'\r'=1+1"],
    ['a line feed', "Léa\n=cmd|' /C calc'!A0", "Léa\n'=cmd|' /C calc'!A0"],
    ['a CRLF', 'Dupont\r\n+33 6', "Dupont\r\n'+33 6"],
    ['a bare CR', 'Dupont\r@SUM(A1)', "Dupont\r'@SUM(A1)"],
    ['two line feeds', 'a\n-1\n\t=2', "a\n'-1\n'\t=2"],
  ])('keeps a cell with %s in one quoted cell and prefixes every line that starts a formula', (_, cell, shown) => {
    expect(readBack([[cell, 'texte']])).toEqual([[shown, 'texte']]);
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
