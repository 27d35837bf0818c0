/**
 * The site's RGAA 4.1 grid (docs/accessibilite-rgaa.md, one table row per criterion) read at build time, and what the
 * accessibility statement says from it: the conformance rate, the level, the non-conformities and the criteria not yet
 * verified. The grid is the one source: the statement cannot claim more than the grid shows.
 */
import grid from '../../../docs/accessibilite-rgaa.md?raw';

/** C conformant, NC not conformant, NA not applicable, AV applicable but not yet shown (« à vérifier »). */
export type RgaaStatus = 'C' | 'NC' | 'NA' | 'AV';

/** One criterion of the grid: its number (« 8.2 »), short title, status, and the test or check that shows it. */
export interface RgaaCriterion {
  id: string;
  title: string;
  status: RgaaStatus;
  proof: string;
}

/** RGAA 4.1's number of criteria. */
export const RGAA_CRITERIA_COUNT = 106;

const ROW = /^\|\s*(\d{1,2}\.\d{1,2})\s*\|\s*(.+?)\s*\|\s*(C|NC|NA|AV)\s*\|\s*(.+?)\s*\|$/;

/**
 * The criteria of a grid in Markdown (rows `| 8.2 | title | C | proof |`), in order.
 * @throws Error when a criterion is missing, repeated or without a status (the build stops: fix the grid).
 */
export function parseGrid(markdown: string): RgaaCriterion[] {
  const criteria = markdown
    .split('\n')
    .map((line) => ROW.exec(line.trim()))
    .filter((match) => match !== null)
    .map(([, id, title, status, proof]) => ({ id: id!, title: title!, status: status as RgaaStatus, proof: proof! }));
  const ids = new Set(criteria.map(({ id }) => id));
  if (criteria.length !== RGAA_CRITERIA_COUNT || ids.size !== RGAA_CRITERIA_COUNT) {
    throw new Error(
      `docs/accessibilite-rgaa.md: ${ids.size} distinct criteria in ${criteria.length} rows, ` +
        `RGAA 4.1 has ${RGAA_CRITERIA_COUNT}. Give each criterion one row: ` +
        '| number | title | C, NC, NA or AV | proof |.',
    );
  }
  return criteria;
}

/** What the statement says: RGAA's level for a rate (100 %: totally, from 50 %: partially, else not conformant). */
export type RgaaLevel = 'totalement conforme' | 'partiellement conforme' | 'non conforme';

/** The statement's figures: conformant and applicable counts, the rate (percent), level and the criteria to list. */
export interface Conformance {
  conformant: number;
  applicable: number;
  /** C ÷ (C + NC + AV) in percent, rounded down to one decimal: never more than the grid shows. */
  rate: number;
  level: RgaaLevel;
  nonConformities: RgaaCriterion[];
  unverified: RgaaCriterion[];
}

/** The conformance of `criteria` as RGAA computes it, criteria not yet verified counted as not conformant. */
export function conformance(criteria: readonly RgaaCriterion[]): Conformance {
  const applicable = criteria.filter(({ status }) => status !== 'NA');
  const conformant = applicable.filter(({ status }) => status === 'C').length;
  const rate = applicable.length === 0 ? 0 : Math.floor((1000 * conformant) / applicable.length) / 10;
  return {
    conformant,
    applicable: applicable.length,
    rate,
    level: rate === 100 ? 'totalement conforme' : rate >= 50 ? 'partiellement conforme' : 'non conforme',
    nonConformities: criteria.filter(({ status }) => status === 'NC'),
    unverified: criteria.filter(({ status }) => status === 'AV'),
  };
}

/** The site's grid, as docs/accessibilite-rgaa.md has it. */
export const RGAA_GRID: readonly RgaaCriterion[] = parseGrid(grid);

/** The site's conformance, from its grid: what /accessibilite states. */
export const SITE_CONFORMANCE: Conformance = conformance(RGAA_GRID);
