/**
 * The RGAA 4.1 grid (docs/accessibilite-rgaa.md) and the statement's figures computed from it (rgaa.ts): every
 * criterion once, each C with its proof, and the rate RGAA's way — conformant ÷ applicable, the criteria not yet
 * verified counted as not conformant, rounded down.
 */
import { describe, expect, it } from 'vitest';
import {
  conformance,
  parseGrid,
  RGAA_GRID,
  SITE_CONFORMANCE,
  type RgaaCriterion,
} from '../../src/features/accessibility/rgaa';

const criterion = (id: string, status: RgaaCriterion['status']): RgaaCriterion => ({
  id,
  title: id,
  status,
  proof: '',
});

describe('the RGAA grid', () => {
  it('lists the 106 criteria of RGAA 4.1 once each, theme by theme, each C or NC with what shows it', () => {
    const perTheme = Object.groupBy(RGAA_GRID, ({ id }) => id.split('.')[0]!);
    expect(Object.fromEntries(Object.entries(perTheme).map(([theme, rows]) => [theme, rows!.length]))).toEqual({
      1: 9,
      2: 2,
      3: 3,
      4: 13,
      5: 8,
      6: 2,
      7: 5,
      8: 10,
      9: 4,
      10: 14,
      11: 13,
      12: 11,
      13: 12,
    });
    expect(RGAA_GRID.filter(({ status, proof }) => status !== 'NA' && proof.length < 10)).toEqual([]);
  });

  it('refuses a grid without its 106 criteria', () => {
    expect(() => parseGrid('| 1.1 | Images | C | test |')).toThrow(/1 distinct criteria in 1 rows, RGAA 4.1 has 106/);
  });

  it('computes the rate as RGAA does, unverified criteria counted against it, rounded down', () => {
    const figures = conformance([
      criterion('1.1', 'C'),
      criterion('1.2', 'C'),
      criterion('1.3', 'AV'),
      criterion('1.4', 'NA'),
      criterion('1.5', 'NC'),
      criterion('1.6', 'C'),
    ]);
    expect(figures).toMatchObject({ conformant: 3, applicable: 5, rate: 60, level: 'partiellement conforme' });
    expect(figures.nonConformities.map(({ id }) => id)).toEqual(['1.5']);
    expect(figures.unverified.map(({ id }) => id)).toEqual(['1.3']);
    // 2 of 3: 66.666… % is stated 66.6 %, never 66.7 %.
    expect(conformance([criterion('1', 'C'), criterion('2', 'C'), criterion('3', 'AV')]).rate).toBe(66.6);
    expect(conformance([criterion('1', 'C')]).level).toBe('totalement conforme');
    expect(conformance([criterion('1', 'C'), criterion('2', 'NC'), criterion('3', 'AV')]).level).toBe('non conforme');
  });

  it('gives the site’s statement the grid’s own figures', () => {
    const applicable = RGAA_GRID.filter(({ status }) => status !== 'NA');
    const conformant = applicable.filter(({ status }) => status === 'C');
    expect(SITE_CONFORMANCE.applicable).toBe(applicable.length);
    expect(SITE_CONFORMANCE.rate).toBe(Math.floor((1000 * conformant.length) / applicable.length) / 10);
  });
});
