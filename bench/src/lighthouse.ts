/**
 * Lighthouse (13, default config: mobile emulation, simulated throttling) on
 * each route of a locally served site, in Debian's Chromium launched by
 * chrome-launcher with the project's flags (scripts/lib/chromium.ts).
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../scripts/lib/chromium.ts';
import { BenchError, onCleanup } from './processes.ts';

/** Lighthouse categories of the report. */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** Scores and metrics of one route. */
export interface LighthouseResult {
  /** Route, e.g. `/asso`. */
  route: string;
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Largest Contentful Paint (simulated), in milliseconds. */
  lcpMs: number;
  /** Cumulative Layout Shift (unitless). */
  cls: number;
  /** Total Blocking Time (simulated), in milliseconds. */
  tbtMs: number;
  /** Lighthouse's CPU benchmark index of this run (lower = a slower or busier machine). */
  benchmarkIndex: number;
  /** Performance score of every run of this route, in run order (the result is the median run). */
  performanceRuns: number[];
  /** Lighthouse's CPU benchmark index of every run, in run order (absent from reports written before it). */
  benchmarkIndexRuns?: number[];
  /** Lighthouse's warnings for this run (empty when none). */
  warnings: string[];
  /** Audits that count in a category and scored below 0.9: `category: title (displayed value; first items)`. */
  issues: string[];
  /**
   * Elements that shifted, biggest contribution first: `selector ← cause (URL path)`, e.g. `main ← Web font loaded
   * (/_astro/x.woff2)`.
   */
  layoutShifts: string[];
}

/**
 * Runs Lighthouse `runs` times per route against `baseUrl` (e.g.
 * `http://127.0.0.1:4500`), one route after another in one Chromium, which is
 * ended afterwards, and keeps each route's median run by performance score
 * (Lighthouse's own advice against its run-to-run variance: on a shared CPU
 * one busy moment inflates TBT and costs a run 20 points).
 * @param onResult - called after each route (progress output).
 * @throws BenchError when Chromium cannot start or a run ends with a runtime error.
 */
export async function runLighthouse(
  baseUrl: string,
  routes: string[],
  runs: number,
  onResult: (result: LighthouseResult) => void = () => {},
): Promise<LighthouseResult[]> {
  let chrome: LaunchedChrome;
  try {
    chrome = await launch({
      chromePath: CHROMIUM_EXECUTABLE,
      chromeFlags: CHROMIUM_ARGS,
      logLevel: 'silent',
      // Its own SIGINT handler would exit before the benchmark's cleanup (servers, temporary copies).
      handleSIGINT: false,
    });
  } catch (error) {
    throw new BenchError(
      `Cannot start Chromium at ${CHROMIUM_EXECUTABLE} (${error instanceof Error ? error.message : String(error)}). ` +
        `Install it with \`apt-get install -y chromium\`.`,
    );
  }
  const unregister = onCleanup(() => chrome.kill());
  try {
    const results: LighthouseResult[] = [];
    for (const route of routes) {
      const all: LighthouseResult[] = [];
      for (let run = 0; run < runs; run += 1) all.push(await lighthouseRoute(chrome.port, baseUrl, route));
      const median = [...all].sort((a, b) => a.performance - b.performance)[Math.floor((all.length - 1) / 2)];
      const result = {
        ...(median as LighthouseResult),
        performanceRuns: all.map((item) => item.performance),
        benchmarkIndexRuns: all.map((item) => item.benchmarkIndex),
      };
      onResult(result);
      results.push(result);
    }
    return results;
  } finally {
    chrome.kill();
    unregister();
  }
}

/** Runs of one route that end in a Lighthouse runtime error (e.g. NO_NAVSTART on a loaded machine) before giving up. */
const ATTEMPTS = 3;

/** One Lighthouse report of `url`; a runtime error is tried again, then raised as BenchError. */
async function lighthouseReport(port: number, url: string) {
  for (let attempt = 1; ; attempt += 1) {
    const runner = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    const lhr = runner?.lhr;
    if (!lhr) throw new BenchError(`Lighthouse returned no result for ${url}.`);
    if (!lhr.runtimeError) return lhr;
    const problem = `${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt >= ATTEMPTS)
      throw new BenchError(`Lighthouse could not measure ${url} (${ATTEMPTS} attempts): ${problem}`);
    console.log(`Lighthouse: ${lhr.runtimeError.code} on ${url}; trying again.`);
  }
}

async function lighthouseRoute(port: number, baseUrl: string, route: string): Promise<LighthouseResult> {
  const url = new URL(route, baseUrl).href;
  const lhr = await lighthouseReport(port, url);
  const score = (id: (typeof CATEGORIES)[number]) => {
    const value = lhr.categories[id]?.score;
    if (typeof value !== 'number') throw new BenchError(`Lighthouse gave no ${id} score for ${url}.`);
    return Math.round(value * 100);
  };
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new BenchError(`Lighthouse gave no ${id} value for ${url}.`);
    return value;
  };
  return {
    route,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: metric('largest-contentful-paint'),
    cls: metric('cumulative-layout-shift'),
    tbtMs: metric('total-blocking-time'),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    performanceRuns: [],
    warnings: lhr.runWarnings.map(String),
    issues: CATEGORIES.flatMap((id) =>
      (lhr.categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0)
        .map((ref) => lhr.audits[ref.id])
        .filter((audit) => audit && audit.score !== null && audit.score < 0.9)
        .map((audit) => {
          const shown = [audit?.displayValue, ...itemLabels(audit?.details)].filter(Boolean).join('; ');
          return `${id}: ${audit?.title}${shown ? ` (${shown})` : ''}`;
        }),
    ),
    layoutShifts: layoutShifts(lhr.audits['layout-shifts']?.details),
  };
}

/** The shape of the `layout-shifts` audit's table that is read here. */
interface LayoutShiftTable {
  items?: {
    node?: { selector?: string };
    subItems?: { items?: { cause?: string; extra?: { value?: string } }[] };
  }[];
}

/**
 * `selector ← cause (path)` for each shifted element of the `layout-shifts` audit (root causes as Lighthouse found
 * them).
 */
function layoutShifts(details: unknown): string[] {
  return ((details as LayoutShiftTable | undefined)?.items ?? []).map((item) => {
    const causes = (item.subItems?.items ?? []).map((sub) => {
      const url = sub.extra?.value;
      return `${sub.cause ?? 'unknown'}${url ? ` (${URL.canParse(url) ? new URL(url).pathname : url})` : ''}`;
    });
    return (
      `${item.node?.selector ?? 'unknown element'} ← ` +
      `${causes.length ? [...new Set(causes)].join(', ') : 'cause not found'}`
    );
  });
}

/** Up to two labels of an audit's table items (issue type, console message, URL or element), for a failing audit. */
function itemLabels(details: unknown): string[] {
  const items = (details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  return items.slice(0, 2).flatMap((item) => {
    const label = item.issueType ?? item.description ?? (item.node as { selector?: string } | undefined)?.selector;
    return typeof label === 'string' ? [label.slice(0, 120)] : [];
  });
}
