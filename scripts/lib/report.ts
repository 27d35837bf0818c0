/** The content report as terminal tables, for `npm run pull`, `npm run build` and `npm start`. */
import type { ContentReport } from '../../src/content.config.ts';

/** Left-aligned columns separated by two spaces, a rule under the header. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.map(line)];
}

/** The report's lines: documents read and shown per collection, one row per problem (what was left out, where, why), then pictures. */
export function formatReport({ collections, problems, pictures }: ContentReport): string[] {
  const counts = Object.entries(collections).map(([name, { read, shown }]) => [name, String(read), String(shown)]);
  const rows = problems.map((problem) => [
    problem.leftOut,
    `${problem.collection}/${problem.id}${problem.titre ? ` « ${problem.titre} »` : ''}`,
    problem.field,
    problem.reason,
  ]);
  return [
    ...table(['collection', 'read', 'shown'], counts),
    '',
    ...(problems.length === 0
      ? ['No problem: every document is published.']
      : [
          `${problems.length} problem(s), the rest is published:`,
          ...table(['left out', 'document', 'field', 'reason'], rows),
        ]),
    '',
    `Pictures: ${pictures.fetched} fetched, ${pictures.failed.length} failed.`,
    ...pictures.failed.map((picture) => `  ${picture.src} — ${picture.reason}`),
  ];
}
