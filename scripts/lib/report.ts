/** The content report as terminal tables, for `npm run pull`, `npm run build` and `npm start`. */
import type { ContentReport } from '../../src/content.config.ts';

/** Left-aligned columns separated by two spaces, a rule under the header. */
function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(rows[0] ?? []), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.slice(1).map(line)];
}

/**
 * Formats a report: documents read and shown per collection, then one row per
 * problem (what was left out, where, and the editor's reason), then pictures.
 * @returns the lines to print.
 */
export function formatReport(report: ContentReport): string[] {
  const lines = table([
    ['collection', 'read', 'shown'],
    ...Object.entries(report.collections).map(([name, counts]) => [name, String(counts.read), String(counts.shown)]),
  ]);
  if (report.problems.length === 0) lines.push('', 'No problem: every document is published.');
  else {
    lines.push('', `${report.problems.length} problem(s), the rest is published:`);
    lines.push(
      ...table([
        ['left out', 'document', 'field', 'reason'],
        ...report.problems.map((problem) => [
          problem.leftOut,
          `${problem.collection}/${problem.id}${problem.titre ? ` « ${problem.titre} »` : ''}`,
          problem.field,
          problem.reason,
        ]),
      ]),
    );
  }
  const { fetched, failed } = report.pictures;
  lines.push('', `Pictures: ${fetched} fetched, ${failed.length} failed.`);
  for (const picture of failed) lines.push(`  ${picture.src} — ${picture.reason}`);
  return lines;
}
