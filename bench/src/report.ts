/**
 * The benchmark's report: targets (PASS / FAIL / SKIP), Markdown tables for
 * the terminal and bench/report.md, and the JSON of bench/report.json. Both
 * files go through Prettier, so that committing them keeps `npm test` green.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import type { BuildMeasurement } from './builds.ts';
import type { LighthouseResult } from './lighthouse.ts';
import { ENDPOINTS, type Consistency, type EndpointLoad } from './endpoint-load.ts';
import type { MailLoad } from './mail-load.ts';
import type { ReceiptsReport } from './receipts.ts';
import type { PageWeight } from './pages.ts';
import type { PictureMeasurement } from './pictures.ts';
import type { DevStart } from './dev-start.ts';
import type { TransferComparison } from './transfer.ts';

/** 1 KB in the report = 1,000 bytes (as Vite prints sizes). */
const KB = 1000;

/** Target thresholds. */
export const TARGETS = {
  /** Home page JS, gzip, in bytes. */
  homeJsGzipBytes: 85 * KB,
  /** Lowest Lighthouse performance score on any route (0–100). */
  lighthousePerformance: 98,
  /** Pull + build of 10,000 articles, in milliseconds. */
  build10000Ms: 60_000,
  /** `npm start` to its first page, median of the cold starts, in milliseconds. */
  devStartMs: 10_000,
  /** The home page's JavaScript before any interaction, bytes on the wire. */
  homeJsBeforeInteractionBytes: 15 * KB,
  /** Largest difference of the home page's HTML bytes at any dataset size from the demo's, in percent. */
  homeHtmlGrowthPercent: 5,
  /** p99 latency of each form endpoint at 20 connections on the embedded emulator, in milliseconds. */
  endpointP99Ms: 50,
  /** Throughput of each form endpoint at 20 connections on the embedded emulator, in requests per second. */
  endpointRequestsPerSecond: 500,
};

/** Outcome of one target. */
export interface TargetResult {
  /** What is aimed at, e.g. `home ≤ 85 KB gzip JS`. */
  target: string;
  /** What was measured, in words. */
  measured: string;
  /** SKIP: not measured in this run (e.g. `--quick`). */
  status: 'PASS' | 'FAIL' | 'SKIP';
}

/** The machine and the code that were measured. */
export interface MachineInfo {
  /** When the benchmark started (ISO 8601). */
  date: string;
  cpuModel: string;
  cpuCount: number;
  /** Total memory, in bytes. */
  memoryBytes: number;
  /** 1-minute load average when the benchmark started (others' work makes numbers noisy). */
  loadAverage: number;
  node: string;
  os: string;
  /** HEAD commit of the measured working tree. */
  commit: string;
  /** Files that differ from HEAD or are new (measured as they are in the working tree). */
  uncommittedFiles: number;
}

/** Everything bench/report.json holds. */
export interface BenchReport {
  machine: MachineInfo;
  /** `full` or `quick` (no 5,000 dataset, shorter load test, fewer Lighthouse routes). */
  mode: 'full' | 'quick';
  /** zlib level of every gzip size. */
  gzipLevel: number;
  /** Duration of the whole benchmark, in seconds. */
  durationSeconds: number;
  targets: TargetResult[];
  pages: PageWeight[];
  builds: BuildMeasurement[];
  lighthouse: LighthouseResult[];
  /** Lighthouse on the pages that could grow with the archive (/, /actualites, /recherche), on a large dataset. */
  scaleLighthouse: { dataset: string; results: LighthouseResult[] };
  /** The form endpoints under load, per endpoint and database. */
  load: EndpointLoad[];
  /** The machine when the load part was measured (`--load` measures it alone, later). */
  loadMachine: MachineInfo;
  /** The mail burst (`--mail` measures it alone): two mails per pre-registration, none lost or twice. */
  mail?: MailLoad;
  /** The machine when the mail burst was measured. */
  mailMachine?: MachineInfo;
  /** The tax receipt PDF per script (`--receipts` measures it alone): size and time to draw. */
  receipts?: ReceiptsReport;
  /** The machine when the receipts were measured. */
  receiptsMachine?: MachineInfo;
  /** Fixture photos before and after astro:assets. */
  pictures: PictureMeasurement[];
  /** The machine when the pictures were measured (`--pictures` measures them alone, later). */
  picturesMachine: MachineInfo;
  /** Cold starts of `npm start` to its first page (`--start` measures them alone). */
  devStarts?: DevStart[];
  /** The machine when the starts were measured. */
  devStartMachine?: MachineInfo;
  /** Downloads before any interaction, each route beside a baseline page (`--transfer` measures them alone). */
  transfers?: TransferComparison;
  /** The machine when the downloads were measured. */
  transferMachine?: MachineInfo;
  /** The routes Lighthouse last measured alone (`--lighthouse`), and the machine then; the others are the run's. */
  lighthouseAlone?: { routes: string[]; machine: MachineInfo };
}

/** The median of `values` (the lower middle one of an even count); undefined when empty. */
export function median(values: number[]): number | undefined {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Machine and working-tree facts for the report (`root`: the repository). */
export function machineInfo(root: string): MachineInfo {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  return {
    date: new Date().toISOString(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus().length,
    memoryBytes: totalmem(),
    loadAverage: loadavg()[0] ?? 0,
    node: process.version,
    os: `${process.platform} ${release()}`,
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommittedFiles: git('status', '--porcelain').split('\n').filter(Boolean).length,
  };
}

/** Difference of a build's home HTML bytes from the demo's (`builds[0]`), in percent (signed). */
export function homeGrowthPercent(build: BuildMeasurement, demo: BuildMeasurement): number {
  return ((build.homeHtmlBytes - demo.homeHtmlBytes) / demo.homeHtmlBytes) * 100;
}

/** Evaluates the targets; a missing 10,000-article build or load run is SKIP. */
export function evaluateTargets(
  pages: PageWeight[],
  builds: BuildMeasurement[],
  lighthouse: LighthouseResult[],
  load: EndpointLoad[],
  scale: BenchReport['scaleLighthouse'],
  devStarts: DevStart[] = [],
  transfers?: TransferComparison,
): TargetResult[] {
  const status = (pass: boolean): TargetResult['status'] => (pass ? 'PASS' : 'FAIL');
  const withoutIslands = pages.filter((page) => page.islands === 0);
  const leaking = withoutIslands.filter((page) => page.frameworkGzipBytes > 0);
  const home = pages.find((page) => page.route === '/');
  const slowest = lighthouse.toSorted((a, b) => a.performance - b.performance)[0];
  const below = lighthouse.filter((result) => result.performance < TARGETS.lighthousePerformance);
  const build10000 = builds.find((build) => build.articles === 10_000);
  const [demo, ...grown] = builds;
  const farthest = demo
    ? grown.toSorted((a, b) => Math.abs(homeGrowthPercent(b, demo)) - Math.abs(homeGrowthPercent(a, demo)))[0]
    : undefined;
  // The demo has fewer news items than the home carousel's limit: from the first synthetic size on, the
  // carousel is full, and the home page must not grow any more.
  const [firstFull, ...larger] = grown;
  const farthestLarger = firstFull
    ? larger.toSorted(
        (a, b) => Math.abs(homeGrowthPercent(b, firstFull)) - Math.abs(homeGrowthPercent(a, firstFull)),
      )[0]
    : undefined;
  const scaleSlowest = scale.results.toSorted((a, b) => a.performance - b.performance)[0];
  // Reports written before the archive was checked have no archiveProblems.
  const checked = builds.filter((build) => build.archiveProblems !== undefined);
  const broken = checked.filter((build) => build.archiveProblems.length > 0);
  const startMs = median(devStarts.map((start) => start.firstPageMs));
  const homeTransfer = transfers?.pages.find((page) => page.route === '/');
  return [
    {
      target: `\`npm start\` to its first page < ${seconds(TARGETS.devStartMs)} (median of the cold starts)`,
      measured:
        startMs === undefined
          ? 'not measured (`npm run bench -- --start`)'
          : `${seconds(startMs)} (${devStarts.map((start) => seconds(start.firstPageMs)).join(', ')})`,
      status: startMs === undefined ? 'SKIP' : status(startMs < TARGETS.devStartMs),
    },
    {
      target: `Home JS before any interaction ≤ ${kb(TARGETS.homeJsBeforeInteractionBytes)} on the wire`,
      measured: homeTransfer
        ? `${kb(homeTransfer.jsTransferBytes)} (${homeTransfer.encodings.join(', ')}; ` +
          `${ratio(homeTransfer.jsTransferBytes, transfers!.baseline.jsTransferBytes)} the baseline page's)`
        : 'not measured (`npm run bench -- --transfer`)',
      status: homeTransfer ? status(homeTransfer.jsTransferBytes <= TARGETS.homeJsBeforeInteractionBytes) : 'SKIP',
    },
    {
      target: 'News archive complete at every size (index pages, links, sitemap, feed, search, home)',
      measured: broken.length
        ? broken.map((build) => `${build.dataset}: ${build.archiveProblems.slice(0, 3).join('; ')}`).join(' · ')
        : `complete in ${checked.map((build) => build.dataset).join(', ') || 'no build'}`,
      status: checked.length ? status(broken.length === 0) : 'SKIP',
    },
    {
      target: 'No React/react-dom on pages without islands',
      measured: leaking.length
        ? `${leaking.length} of ${withoutIslands.length} pages without islands load it: ` +
          `${leaking.map((page) => page.route).join(', ')}`
        : `none of the ${withoutIslands.length} pages without islands loads it`,
      status: status(leaking.length === 0),
    },
    {
      target: `Home ≤ ${kb(TARGETS.homeJsGzipBytes)} gzip JS`,
      measured: home ? `${kb(home.jsGzipBytes)} (${kb(home.frameworkGzipBytes)} of it React)` : 'no home page',
      status: status(home !== undefined && home.jsGzipBytes <= TARGETS.homeJsGzipBytes),
    },
    {
      target: `Lighthouse performance ≥ ${TARGETS.lighthousePerformance} on every route`,
      measured: slowest
        ? `lowest ${slowest.performance} (${slowest.route}); ${below.length} of ${lighthouse.length} routes below`
        : 'no route measured',
      status: status(lighthouse.length > 0 && below.length === 0),
    },
    {
      target: `10,000 articles pull + build < ${TARGETS.build10000Ms / 1000} s`,
      measured: build10000 ? seconds(build10000.totalMs) : 'not measured (--quick)',
      status: build10000 ? status(build10000.totalMs < TARGETS.build10000Ms) : 'SKIP',
    },
    {
      target: `Home HTML within ${TARGETS.homeHtmlGrowthPercent} % of the demo's at every size`,
      measured:
        demo && farthest
          ? `farthest ${signedPercent(homeGrowthPercent(farthest, demo))} (${farthest.dataset}: ` +
            `${kb(farthest.homeHtmlBytes)} vs ${kb(demo.homeHtmlBytes)})`
          : 'no large dataset built',
      status:
        demo && farthest
          ? status(Math.abs(homeGrowthPercent(farthest, demo)) <= TARGETS.homeHtmlGrowthPercent)
          : 'SKIP',
    },
    {
      target:
        `Home HTML within ${TARGETS.homeHtmlGrowthPercent} % of the ${firstFull?.dataset ?? 'first synthetic'} ` +
        `build's at every larger size`,
      measured:
        firstFull && farthestLarger
          ? `farthest ${signedPercent(homeGrowthPercent(farthestLarger, firstFull))} (${farthestLarger.dataset}: ` +
            `${kb(farthestLarger.homeHtmlBytes)} vs ${kb(firstFull.homeHtmlBytes)})`
          : 'fewer than two large datasets built',
      status:
        firstFull && farthestLarger
          ? status(Math.abs(homeGrowthPercent(farthestLarger, firstFull)) <= TARGETS.homeHtmlGrowthPercent)
          : 'SKIP',
    },
    {
      target:
        `Lighthouse performance ≥ ${TARGETS.lighthousePerformance} on ` +
        `${scale.results.map((result) => result.route).join(', ') || 'the scale routes'} at ` +
        `${scale.dataset || 'a large dataset'}`,
      measured: scaleSlowest
        ? scale.results.map((result) => `${result.route} ${result.performance}`).join(', ')
        : 'not measured',
      status: scaleSlowest ? status(scaleSlowest.performance >= TARGETS.lighthousePerformance) : 'SKIP',
    },
    ...load
      .filter((result) => result.database === 'embedded')
      .map((result) => ({
        target:
          `POST ${ENDPOINTS[result.endpoint].path} ≥ ${TARGETS.endpointRequestsPerSecond} requests/s and p99 ≤ ` +
          `${TARGETS.endpointP99Ms} ms at ${result.connections} connections (embedded emulator)`,
        measured: `${Math.round(result.requestsPerSecond)} requests/s, p99 ${result.latencyMs.p99} ms`,
        status: status(
          result.requestsPerSecond >= TARGETS.endpointRequestsPerSecond &&
            result.latencyMs.p99 <= TARGETS.endpointP99Ms,
        ),
      })),
    {
      target: 'Every 2xx of the form endpoints left exactly one document (sustained run and burst, every database)',
      measured: load.length
        ? load
            .map(
              (result) =>
                `${result.endpoint}/${result.database}: ${result.sustained.ok + result.burst.ok} × 2xx, ` +
                `${result.sustained.missing + result.burst.missing} lost, ` +
                `${result.sustained.duplicated + result.burst.duplicated} duplicated`,
            )
            .join('; ')
        : 'not measured',
      status: load.length
        ? status(load.every((result) => result.sustained.consistent && result.burst.consistent))
        : 'SKIP',
    },
  ];
}

/** `value / baseline` as `1.42×` (`–` when the baseline is 0). */
export function ratio(value: number, baseline: number): string {
  return baseline > 0 ? `${(value / baseline).toFixed(2)}×` : '–';
}

/** `0.42` → `+0.4 %`, `-1.25` → `-1.3 %`. */
export function signedPercent(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)} %`;
}

/** `12345` bytes → `12.3 KB` (1 KB = 1,000 bytes). */
export function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** `83456` ms → `83.5 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A Markdown table, columns padded (readable in a terminal as it is); numeric-looking columns right-aligned. */
export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const numeric = headers.map((_, column) =>
    cells.every((row) => /^[-\d.,\s%]+(?:\s?(?:KB|ms|s|×))?$|^$/.test(row[column] ?? '')),
  );
  const widths = headers.map((header, column) =>
    Math.max(3, header.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]) =>
    `| ${row
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column] as number) : cell.padEnd(widths[column] as number),
      )
      .join(' | ')} |`;
  const dashes = (width: number, column: number) => (numeric[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width));
  const rule = `| ${widths.map(dashes).join(' | ')} |`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

/** Pictures before → after: one row per picture and output format (widths and bytes of each file). */
export function pictureTable(pictures: PictureMeasurement[]): string {
  const rows = pictures.flatMap((picture) => {
    const { original } = picture;
    const byFormat = Map.groupBy(
      // A file the same size as the original is its untouched copy, not an optimised version.
      picture.outputs.filter((output) => output.bytes !== original.bytes),
      (output) => output.format,
    );
    return [...byFormat].map(([format, outputs]) => [
      picture.name,
      `${original.format} ${original.width} × ${original.height}, ${kb(original.bytes)}`,
      format,
      outputs.map((output) => `${output.width} px ${kb(output.bytes)}`).join(', '),
      `${((100 * Math.max(...outputs.map((output) => output.bytes))) / original.bytes).toFixed(1)} %`,
    ]);
  });
  return markdownTable(['picture', 'original', 'served as', 'files (width, size)', 'largest / original'], rows);
}

/**
 * The phases of the builds that measured them (`npm run bench -- --build`): wall time of each phase, and the CPU time of
 * the whole, less noisy on a shared machine.
 */
function phaseSection(builds: BuildMeasurement[]): string {
  const measured = builds.filter((build) => build.cpuMs !== undefined);
  if (measured.length === 0) return '';
  const rows = measured.map((build) => {
    const other =
      build.totalMs - build.pullMs - (build.bundleMs ?? 0) - (build.prerenderMs ?? 0) - (build.searchIndexMs ?? 0);
    return [
      build.dataset,
      build.loadAverage === undefined ? '' : build.loadAverage.toFixed(2),
      seconds(build.pullMs),
      build.bundleMs === undefined ? '' : seconds(build.bundleMs),
      build.prerenderMs === undefined ? '' : seconds(build.prerenderMs),
      build.searchIndexMs === undefined ? '' : seconds(build.searchIndexMs),
      seconds(other),
      seconds(build.totalMs),
      seconds(build.cpuMs ?? 0),
    ];
  });
  return `Phases (wall time; \`npm run bench -- --build\` measures them): pull as above; bundles = Astro's start-up,
content sync and Vite's server and client bundles, to « prerendering static routes »; prerender = from there to its
« Completed » (every page rendered, written and handed to Pagefind, which parses it in its own process meanwhile, and
starts writing its files once the last searchable page is rendered, before the news archive's pages);
after prerender = from its end to the search index's last line (the optimised pictures, the adapter's function and
the sitemap, with Pagefind finishing its files beside them); other = the rest (Astro's last lines, the exit).
CPU = user + system time of \`scripts/build.ts\` and every process it started (Pagefind's index binary included when
it is waited for), less noisy than wall time on this shared machine. Load = the 1-minute load average at the start.

${markdownTable(['dataset', 'load', 'pull', 'bundles', 'prerender', 'after prerender', 'other', 'pull + build', 'CPU'], rows)}`;
}

/** The receipts' table: per script, the PDF's size and the time to draw it; the fonts the function carries. */
function receiptSection({ receipts, functionFonts }: ReceiptsReport, measured: MachineInfo): string {
  const rows = receipts.map((receipt) => [
    receipt.script,
    receipt.name,
    kb(receipt.bytes),
    `${Math.round(receipt.firstMs)} ms`,
    `${Math.round(receipt.medianMs)} ms`,
  ]);
  const fonts = functionFonts
    ? `The built Netlify function carries ${functionFonts.files} font files (.woff slices), ` +
      `${kb(functionFonts.bytes)} in all; a receipt reads only the slices its text needs.`
    : 'No build was there to measure the fonts the function carries.';
  return `${measuredOn(measured)}
\`receiptPdf\` in the bench's process (src/features/donations/receipts/receipt-pdf.server.ts, fonts in docs/donations.md): the
first receipt of each script reads and parses its fonts, the median is of the next 15.

${markdownTable(['script', 'name', 'PDF', 'first', 'median'], rows)}

${fonts}`;
}

/** The report as Markdown (the terminal prints the same text). */
export function renderMarkdown(report: BenchReport): string {
  const { machine, load, loadMachine, picturesMachine, mail, mailMachine, receipts, receiptsMachine } = report;
  const refused = load.find((result) => result.refused)?.refused;
  const pageRows = report.pages.map((page) => [
    page.route,
    page.islands,
    kb(page.htmlBytes),
    kb(page.htmlGzipBytes),
    page.scripts.length,
    kb(page.jsBytes),
    kb(page.jsGzipBytes),
    kb(page.frameworkGzipBytes),
    page.beforeInteractionGzipBytes === undefined ? '' : kb(page.beforeInteractionGzipBytes),
  ]);
  const baseline = report.builds[0];
  const buildRows = report.builds.map((build) => [
    build.dataset,
    build.articles,
    build.pages,
    seconds(build.seedMs),
    seconds(build.pullMs),
    build.firestoreReadMs === undefined ? '' : seconds(build.firestoreReadMs),
    seconds(build.buildMs),
    seconds(build.afterBuildMs),
    seconds(build.totalMs),
    baseline ? `${(build.totalMs / baseline.totalMs).toFixed(1)}×` : '',
    `${(build.buildMs / build.pages).toFixed(1)} ms`,
    kb(build.homeHtmlBytes),
    baseline ? signedPercent(homeGrowthPercent(build, baseline)) : '',
    kb(build.distBytes),
  ]);
  const lighthouseRow = (result: LighthouseResult) => [
    result.route,
    result.performance,
    result.accessibility,
    result.bestPractices,
    result.seo,
    `${Math.round(result.lcpMs)} ms`,
    result.cls.toFixed(3),
    `${Math.round(result.tbtMs)} ms`,
    result.benchmarkIndex,
    result.performanceRuns.join(', '),
  ];
  const lighthouseHeaders = [
    'route',
    'performance',
    'accessibility',
    'best practices',
    'SEO',
    'LCP',
    'CLS',
    'TBT',
    'CPU index',
    'runs',
  ];
  const lighthouseRows = report.lighthouse.map(lighthouseRow);
  const scaleRows = report.scaleLighthouse.results.map(lighthouseRow);
  const date = machine.date.slice(0, 16).replace('T', ' ');
  const uncommitted = machine.uncommittedFiles ? ` plus ${machine.uncommittedFiles} uncommitted file(s)` : '';
  const warnings = [...new Set(report.lighthouse.flatMap((result) => result.warnings))];
  const findings = groupRoutes(report.lighthouse.map((result) => [result.route, result.issues]));
  const shifts = groupRoutes(report.lighthouse.map((result) => [result.route, result.layoutShifts.slice(0, 3)]));
  return `# Benchmark report

Measured by \`npm run bench${report.mode === 'quick' ? ' -- --quick' : ''}\` on ${date} UTC
in ${seconds(report.durationSeconds * 1000)}: commit \`${machine.commit}\`${uncommitted},
${machine.cpuCount} × ${machine.cpuModel}, ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB, Node ${machine.node},
${machine.os}; 1-minute load average at start: ${machine.loadAverage.toFixed(2)}.
The CPU is shared: timings are noisy. Sizes: 1 KB = 1,000 bytes; gzip = node:zlib \`gzipSync\` level
${report.gzipLevel}, each file on its own.

## Targets

${markdownTable(
  ['target', 'measured', 'status'],
  report.targets.map((target) => [target.target, target.measured, `**${target.status}**`]),
)}

## \`npm start\` to its first page

${startSection(report.devStarts, report.devStartMachine)}

## Downloads before any interaction (bytes on the wire)

${transferSection(report.transfers, report.transferMachine)}

## Page weight (demo dataset)

HTML includes inline scripts and styles. JS = the external modules the page loads: \`<script src>\`, static
imports of inline module scripts, \`modulepreload\`, island \`component-url\` / \`renderer-url\`, and their static
\`import\` graph (modules only imported with \`import()\` are not counted). React = the part of it that is
React or react-dom. "Before any act": without what only \`client:interaction\` islands load when the visitor acts.

${markdownTable(
  ['route', 'islands', 'HTML', 'HTML gzip', 'JS files', 'JS', 'JS gzip', 'React gzip', 'JS gzip before any act'],
  pageRows,
)}

## Pull + build time

Each dataset is seeded into an embedded Firestore emulator (seed: not part of pull + build), then the project's
\`scripts/build.ts\` (what \`npm run build\` runs) runs in a temporary copy of the project (cold caches). Phases by
the arrival of output lines: pull = start to the pull's last progress line (tsx start-up included; "of which
reading" = the longest collection read it reports), astro build = to Astro's \`[build] Complete!\` (Astro's
start-up included, and the search index, which it writes), after build = to the exit of \`scripts/build.ts\`.
The synthetic datasets are the demo dataset plus copies of its news articles (each with its own
\`/actualites/<slug>\` page) up to the number of articles. "× demo" compares pull + build.

${markdownTable(
  [
    'dataset',
    'articles',
    'pages',
    'seed',
    'pull',
    'of which reading',
    'astro build',
    'after build',
    'pull + build',
    '× demo',
    'build per page',
    'home HTML',
    'home vs demo',
    'dist/',
  ],
  buildRows,
)}

${phaseSection(report.builds)}

Growth curve (pull + build, seconds, one \`█\` per 5 s):

\`\`\`
${report.builds.map(growthBar).join('\n')}
\`\`\`

## Lighthouse at ${report.scaleLighthouse.dataset || 'a large dataset'} (/, the news index, the search page)

The same Lighthouse runs as below, on the site built from that dataset: the pages whose size could follow the
archive's.

${scaleRows.length ? markdownTable(lighthouseHeaders, scaleRows) : 'Not measured.'}

## Lighthouse (mobile, simulated throttling)

Lighthouse 13 default configuration, Chromium headless, against \`scripts/serve-dist.ts\`: three runs per route
(one under --quick), the median run by performance score shown, every run's score in the last column.
"CPU index" is Lighthouse's benchmark index of the run: a busy machine lowers it and inflates TBT.
${
  report.lighthouseAlone
    ? `${report.lighthouseAlone.routes.join(', ')} measured alone (\`--lighthouse\`). ` +
      `${measuredOn(report.lighthouseAlone.machine)}\n`
    : ''
}
${markdownTable(lighthouseHeaders, lighthouseRows)}

Audits that count and scored below 0.9, with their routes:

${findings.map(([issue, routes]) => `- ${issue}: ${routes}`).join('\n') || '- none'}

Elements that shifted (CLS; up to three per route) ← root causes found by Lighthouse:

${shifts.map(([selector, routes]) => `- \`${selector}\`: ${routes}`).join('\n') || '- none'}
${warnings.length ? `\nLighthouse warnings: ${warnings.join(' ')}\n` : ''}
## Pictures (before → after)

The demo build with two fixture pictures served over HTTP as Firebase Storage serves them
(scripts/lib/picture-server.ts: a photo generated with sharp, 2,800 px wide, and a transparent PNG logo).
The pull downloads each once; astro:assets writes AVIF and WebP (and a JPEG or PNG fallback) at 1×, 1.5×
and 2× of the width it is shown at. A browser downloads one file of one format.
${report.pictures.length ? measuredOn(picturesMachine) : ''}

${report.pictures.length ? pictureTable(report.pictures) : PICTURES_NOT_MEASURED}

## Mail burst

${
  mail
    ? `${measuredOn(mailMachine ?? loadMachine)}
${mail.submissions} pre-registrations at once through the built function, two mails each to a local SMTP server,
each not answered 200 sent again with its key (as the form offers), then one drain (as the scheduled function):
${mail.answeredFirst} answered 200 at once (${JSON.stringify(mail.statusCounts)}), ${mail.answered} after retries, in
${mail.burstSeconds.toFixed(1)} s; ${mail.stored} stored;
${mail.sentByEndpoints} mails sent by the endpoints' first try, ${mail.sentByDrain} by the drain;
**${mail.lost} lost, ${mail.duplicated} duplicated**.`
    : 'Not measured (`npm run bench -- --mail` measures it alone).'
}

## Tax receipt PDF per script

${receipts ? receiptSection(receipts, receiptsMachine ?? machine) : 'Not measured (`npm run bench -- --receipts`).'}

## Form endpoints under load

${load.length ? '' : 'Not measured (`npm run bench -- --load` measures it alone).'}

${measuredOn(loadMachine)}
autocannon, ${load[0]?.connections ?? 20} connections, ${(load[0]?.durationSeconds ?? 0).toFixed(1)} s after a
warm-up, a new email in each request, against \`scripts/serve-dist.ts\` (the built Netlify function, firebase-admin
\`create()\`) writing to the embedded emulator (in the server's process) or to Google's emulator (a Java process
beside it). Then ${load[0]?.burst.size ?? 0} submissions sent at once.
Every document is read back with firebase-admin: each 2xx must have left exactly one.

${markdownTable(
  ['endpoint', 'database', 'requests', 'requests/s', 'p50', 'p90', 'p99', 'max', 'mean'],
  [
    ...load.map((result) => [ENDPOINTS[result.endpoint].path, result.database, result] as const),
    ...(refused ? [['/api/newsletter, invalid email (400, no write)', 'none', refused] as const] : []),
  ].map(([endpoint, database, run]) => [
    endpoint,
    database,
    run.requests,
    Math.round(run.requestsPerSecond),
    `${run.latencyMs.p50} ms`,
    `${run.latencyMs.p90} ms`,
    `${run.latencyMs.p99} ms`,
    `${run.latencyMs.max} ms`,
    `${run.latencyMs.mean.toFixed(1)} ms`,
  ]),
)}

${markdownTable(
  [
    'endpoint',
    'database',
    'run',
    'answers by status',
    'errors',
    '2xx',
    'documents',
    'lost',
    'duplicated',
    'unanswered',
  ],
  load.flatMap((result) =>
    (
      [
        ['sustained (warm-up + run)', result.sustained],
        [
          `${result.burst.size} at once (${result.burst.seconds.toFixed(1)} s: ${Object.entries(
            result.burst.firstStatuses ?? {},
          )
            .map(([status, count]) => `${status} × ${count}`)
            .join(', ')}), then ${result.burst.retries ?? 0} retries with the same key`,
          result.burst,
        ],
      ] as [string, Consistency][]
    ).map(([run, check]) => [
      ENDPOINTS[result.endpoint].path,
      result.database,
      run,
      Object.entries(check.statusCounts)
        .map(([status, count]) => `${status} × ${count}`)
        .join(', '),
      check.errors,
      check.ok,
      check.documents,
      check.missing,
      check.duplicated,
      check.unanswered,
    ]),
  ),
)}

"answers by status": the last answer to each submission. "unanswered": documents of submissions never answered 2xx
(in flight when autocannon stopped, or given up after 8 s and landed later). A retry of a submission that
landed after its 503 reuses its key (\`envoi\`, the document id) and leaves no second document.
`;
}

/** The cold starts' table: the first page and the phases, in seconds after the spawn, the CPU time and the load. */
function startSection(starts: DevStart[] | undefined, measured: MachineInfo | undefined): string {
  if (!starts?.length || !measured) return 'Not measured (`npm run bench -- --start` measures it alone).';
  const phase = (ms: number | undefined) => (ms === undefined ? '' : seconds(ms));
  const firstPage = seconds(median(starts.map((start) => start.firstPageMs)) ?? 0);
  const cpu = median(starts.flatMap((start) => (start.cpuMs === undefined ? [] : [start.cpuMs])));
  return `${measuredOn(measured)}
Cold starts (no \`.astro/\`, Vite or Netlify cache) of \`scripts/dev.ts\` in a copy of the project, on the embedded
demo database, one after the other; times after the spawn: the database seeded, the pull done (Astro starts at the
spawn, beside the pull, and its content collections wait for it), Astro's « ready », the first \`200\` of \`GET /\`
(Astro compiles the page on that request), every stylesheet and script that page links answered (a browser can draw
it), the Auth emulator ready (it starts beside Astro at a lower priority: only /espace's sign-in waits for it). « CPU »: user + system
time of all the start's processes until the first page, less noisy than the clock on this shared machine; « load »:
the 1-minute load average when the start began. Median first page: **${firstPage}**${
    cpu === undefined ? '' : `, median CPU time ${seconds(cpu)}`
  }.

${markdownTable(
  ['run', 'load', 'seeded', 'pulled', 'Astro ready', 'first page', 'with its files', 'Auth ready', 'CPU'],
  starts.map((start, index) => [
    index + 1,
    start.loadAverage === undefined ? '' : start.loadAverage.toFixed(2),
    phase(start.seededMs),
    phase(start.pulledMs),
    phase(start.astroReadyMs),
    seconds(start.firstPageMs),
    phase(start.assetsMs),
    phase(start.authMs),
    phase(start.cpuMs),
  ]),
)}`;
}

/** The downloads' table: each route beside the baseline page, bytes on the wire and ratios. */
function transferSection(transfers: TransferComparison | undefined, measured: MachineInfo | undefined): string {
  if (!transfers || !measured) return 'Not measured (`npm run bench -- --transfer` measures it alone).';
  const { baseline } = transfers;
  return `${measuredOn(measured)}
Chromium (412 × 823, no cache) against \`scripts/serve-dist.ts\` (the site as Netlify serves it, compressed when it
compresses: the « encoding » column): bytes on the wire (headers and the body as sent, Chrome's \`encodedDataLength\`)
loaded at load and two idle periods later, with no pointer, key or scroll. Each route is measured next to the baseline
page \`${baseline.route}\` (text only, no island) in the same browser, and compared with it.

${markdownTable(
  ['route', 'HTML', 'JS', 'JS × baseline', 'everything', 'everything × baseline', 'encoding'],
  [baseline, ...transfers.pages].map((page) => [
    page.route,
    kb(page.htmlTransferBytes),
    kb(page.jsTransferBytes),
    ratio(page.jsTransferBytes, baseline.jsTransferBytes),
    kb(page.totalTransferBytes),
    ratio(page.totalTransferBytes, baseline.totalTransferBytes),
    page.encodings.join(', '),
  ]),
)}`;
}

const PICTURES_NOT_MEASURED = 'Not measured (`npm run bench -- --pictures` measures it alone).';

/** One line of the growth curve: dataset, one `█` per 5 s of pull + build, the time. */
function growthBar(build: BuildMeasurement): string {
  const bar = '█'.repeat(Math.max(1, Math.round(build.totalMs / 5000)));
  return `${build.dataset.padEnd(16)} ${bar} ${seconds(build.totalMs)}`;
}

/** `Measured on <date> UTC, commit <sha>…, load average…` for a part measured apart from the rest. */
function measuredOn(machine: MachineInfo): string {
  const uncommitted = machine.uncommittedFiles ? ` plus ${machine.uncommittedFiles} uncommitted file(s)` : '';
  const date = machine.date.slice(0, 16).replace('T', ' ');
  const load = machine.loadAverage.toFixed(2);
  return `Measured on ${date} UTC, commit \`${machine.commit}\`${uncommitted}, 1-minute load average at start ${load}.`;
}

/** Inverts route → items into item → routes (`every route` when all of them), most routes first. */
function groupRoutes(entries: [string, string[]][]): [string, string][] {
  const byItem = new Map<string, string[]>();
  for (const [route, items] of entries) {
    for (const item of items) byItem.set(item, [...(byItem.get(item) ?? []), route]);
  }
  return [...byItem]
    .toSorted((a, b) => b[1].length - a[1].length)
    .map(([item, routes]) => [item, routes.length === entries.length ? 'every route' : routes.join(', ')]);
}

/**
 * Writes `<dir>/<name>.md` and `<dir>/<name>.json`, both formatted by Prettier
 * with the project's config.
 * @returns the paths written and the Markdown as written (for the terminal).
 */
export async function writeReport(
  report: BenchReport,
  dir: string,
  name: string,
): Promise<{ paths: string[]; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    [join(dir, `${name}.md`), renderMarkdown(report)],
    [join(dir, `${name}.json`), JSON.stringify(report)],
  ];
  const written: string[] = [];
  for (const [path, text] of files) {
    const options = (await resolveConfig(path)) ?? {};
    const formatted = await format(text, { ...options, filepath: path });
    await writeFile(path, formatted);
    written.push(formatted);
  }
  return { paths: files.map(([path]) => path), markdown: written[0] as string };
}
