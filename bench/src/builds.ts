/**
 * Pull + build time: a dataset is seeded into an embedded Firestore emulator
 * (in this process), then the project's own `scripts/build.ts` (what
 * `npm run build` runs: pull, then `astro build`, which writes the search index) runs in a
 * temporary copy of the project against it, timed on the wall clock and split
 * into phases by the arrival time of its output lines; its news archive is then read back (news-archive.ts).
 */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { articleSchema } from '../../src/content.config.ts';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server.ts';
import { startEmbeddedFirestore } from '../../scripts/lib/embedded-firestore.ts';
import { DEMO_DIR, readSeedDirectory, seedDocuments } from '../../scripts/lib/seed.ts';
import { newsArchiveProblems } from './news-archive.ts';
import { BenchError, onCleanup, runTimed } from './processes.ts';
import type { Workspace } from './workspace.ts';

/** A dataset in Firestore's shape (collection → document id → fields), as content/demo/ holds it. */
export type Dataset = Record<string, Record<string, unknown>>;

/** Project id of the benchmark's build emulators (a `demo-` id never reaches Google). */
const BENCH_PROJECT_ID = 'demo-bench';
/** A line of Astro's logger: `09:51:45 [build] …`. */
const ASTRO_LOG_LINE = /^\d{2}:\d{2}:\d{2} \[/;
/** Astro's last build line. */
const ASTRO_COMPLETE = /^\d{2}:\d{2}:\d{2} \[build\] Complete!/;
/** Astro's heading of the prerender (pages written to dist/), then its end. */
const PRERENDER_START = /^\s*prerendering static routes/;
const STEP_COMPLETED = /^\d{2}:\d{2}:\d{2} ✓ Completed in /;
/** The search index integration's line once the Pagefind index is written (scripts/lib/search-index.ts). */
const SEARCH_INDEX_DONE = /^\d{2}:\d{2}:\d{2} \[search-index\] \d+ pages/;

/** The demo dataset of content/demo/ (read from `root`). */
export function demoDataset(root: string): Promise<Dataset> {
  return readSeedDirectory(join(root, DEMO_DIR));
}

/**
 * The demo dataset grown to `articleCount` articles: the demo articles, plus
 * copies of its news articles (category `actualites`, so each one gets its own
 * /actualites/<slug> page) with their own slug, title and date, one hour apart.
 * Every synthetic article is validated with the site's `articleSchema`.
 * @throws a zod error when a synthetic article does not validate (a bug in this generator).
 */
export function syntheticDataset(demo: Dataset, articleCount: number): Dataset {
  const demoArticles = demo.articles ?? {};
  const templates = Object.values(demoArticles).filter(
    (article) => (article as { cat?: string }).cat === 'actualites',
  ) as Record<string, unknown>[];
  if (templates.length === 0) throw new Error('The demo dataset has no news article to copy.');
  const articles: Record<string, unknown> = { ...demoArticles };
  const newest = Date.UTC(2026, 0, 1) / 1000;
  for (let index = 1; Object.keys(articles).length < articleCount; index += 1) {
    const template = templates[index % templates.length] as Record<string, unknown>;
    const slug = `bench-${String(index).padStart(5, '0')}`;
    articles[slug] = articleSchema.parse({
      ...template,
      slug,
      titre: `${String(template.titre)} (n° ${index})`,
      date: newest - index * 3600,
    });
  }
  return { ...demo, articles };
}

/** Number of articles of category `actualites` in a dataset (one /actualites/<slug> page each). */
export function newsCount(dataset: Dataset): number {
  return Object.values(dataset.articles ?? {}).filter((article) => (article as { cat?: string }).cat === 'actualites')
    .length;
}

/** What one pull + build measured. */
export interface BuildMeasurement {
  /** Dataset name, e.g. `demo` or `5,000 articles`. */
  dataset: string;
  /** Documents in `articles`. */
  articles: number;
  /** News articles (each has a page). */
  news: number;
  /** Documents seeded in every collection. */
  documents: number;
  /** Seeding the emulator (not part of pull + build), in milliseconds. */
  seedMs: number;
  /** `tsx scripts/build.ts` start to the pull's last progress line (tsx start-up included), in milliseconds. */
  pullMs: number;
  /** Longest read of one collection as the pull reports it (`articles  5000 documents  1234 ms`), in milliseconds. */
  firestoreReadMs: number | undefined;
  /** The pull's last line to Astro's `[build] Complete!` (Astro's start-up included), in milliseconds. */
  buildMs: number;
  /** Of buildMs, Astro before its prerender (start-up, content sync, Vite's server and client bundles), in milliseconds. */
  bundleMs?: number;
  /** Of buildMs, Astro's prerender (every static page rendered, written and handed to Pagefind), in milliseconds. */
  prerenderMs?: number;
  /**
   * Of buildMs, the prerender's end to the search index's last line (scripts/lib/search-index.ts): the optimised
   * pictures, the adapter's function and the sitemap, with Pagefind finishing its files beside them (it starts during the
   * prerender's last pages, the news archive's), in milliseconds.
   */
  searchIndexMs?: number;
  /** CPU time (user + system) of scripts/build.ts and every process it started, in milliseconds. */
  cpuMs?: number;
  /** 1-minute load average when the pull + build started (others' work makes its wall time noisy). */
  loadAverage?: number;
  /** `[build] Complete!` to the exit of scripts/build.ts, in milliseconds. */
  afterBuildMs: number;
  /** `tsx scripts/build.ts`, start to exit (= pull + build + after), in milliseconds. */
  totalMs: number;
  /** .html files written to dist/. */
  pages: number;
  /** Size of every file of dist/, in bytes. */
  distBytes: number;
  /** Size of the built home page, in bytes. */
  homeHtmlBytes: number;
  /** What is wrong with the built news archive (bench/src/news-archive.ts); [] when complete. */
  archiveProblems: string[];
}

/**
 * Seeds `dataset` into a new embedded emulator on `port`, then runs
 * `scripts/build.ts` in `workspace` against it (FIREBASE_PROJECT_ID=demo-bench,
 * FIRESTORE_EMULATOR_HOST=127.0.0.1:<port>). The emulator is stopped afterwards.
 * @throws BenchError with the command's last output lines when the build fails.
 */
export async function measureBuild(
  workspace: Workspace,
  name: string,
  dataset: Dataset,
  port: number,
): Promise<BuildMeasurement> {
  const emulator = await startEmbeddedFirestore(port);
  const unregister = onCleanup(() => emulator.stop());
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FIREBASE_PROJECT_ID: BENCH_PROJECT_ID,
      FIRESTORE_EMULATOR_HOST: emulator.address,
    };
    delete env.FIREBASE_API_KEY;
    // A production build whoever runs it (vitest sets NODE_ENV=test, which would build React's development copy).
    for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST')) delete env[name];
    const seedStarted = performance.now();
    const connection = connectFirestore(firestoreTargetFromEnv(env));
    // seedDocuments writes with single-Commit transactions: the embedded emulator does not serve the Write stream
    // that writeBatch().commit() uses.
    const documents = await seedDocuments(connection.db, dataset).finally(() => connection.close());
    const seedMs = performance.now() - seedStarted;
    const loadAverage = loadavg()[0];
    let cpuBefore = childrenCpuMs();
    const build = () =>
      runTimed(`scripts/build.ts with the ${name} dataset`, process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
        cwd: workspace.dir,
        env,
      });
    // After a large seed, on a busy machine, the emulator (in this process) can answer the pull's first connection
    // too late: the web SDK gives up after 10 s. One more try, measured alone.
    const run = await build().catch((error: unknown) => {
      if (!String(error).includes('Failed to get documents from server')) throw error;
      console.log('The pull did not reach the emulator at its first try: once more.');
      cpuBefore = childrenCpuMs();
      return build();
    });
    const astroFirst = run.lines.findIndex((line) => ASTRO_LOG_LINE.test(line.text));
    // The pull ends with its last progress line (then writes the JSON and starts Astro).
    const pullEnd = run.lines[astroFirst - 1]?.ms;
    const cpuMs = childrenCpuMs() - cpuBefore;
    const astroEnd = run.lines.find((line) => ASTRO_COMPLETE.test(line.text))?.ms;
    const prerenderStart = run.lines.findIndex((line) => PRERENDER_START.test(line.text));
    const prerenderStartMs = run.lines[prerenderStart]?.ms;
    const prerenderEnd = run.lines.slice(prerenderStart).find((line) => STEP_COMPLETED.test(line.text))?.ms;
    const searchEnd = run.lines.find((line) => SEARCH_INDEX_DONE.test(line.text))?.ms;
    if (pullEnd === undefined || astroEnd === undefined) {
      throw new BenchError(
        `scripts/build.ts succeeded but Astro's "[build] Complete!" line was not found in its output: the phases ` +
          `cannot be told apart. Update ASTRO_LOG_LINE / ASTRO_COMPLETE in bench/src/builds.ts.`,
      );
    }
    const dist = await distFiles(join(workspace.dir, 'dist'));
    return {
      dataset: name,
      articles: Object.keys(dataset.articles ?? {}).length,
      news: newsCount(dataset),
      documents,
      seedMs,
      pullMs: pullEnd,
      firestoreReadMs: longestRead(run.lines.map((line) => line.text)),
      buildMs: astroEnd - pullEnd,
      bundleMs: prerenderStartMs === undefined ? undefined : prerenderStartMs - pullEnd,
      prerenderMs:
        prerenderStartMs !== undefined && prerenderEnd !== undefined ? prerenderEnd - prerenderStartMs : undefined,
      searchIndexMs: searchEnd === undefined || prerenderEnd === undefined ? undefined : searchEnd - prerenderEnd,
      cpuMs,
      loadAverage,
      afterBuildMs: run.ms - astroEnd,
      totalMs: run.ms,
      pages: dist.filter(([path]) => path.endsWith('.html')).length,
      distBytes: dist.reduce((sum, [, bytes]) => sum + bytes, 0),
      homeHtmlBytes: dist.find(([path]) => path === 'index.html')?.[1] ?? 0,
      archiveProblems: await newsArchiveProblems(workspace.dir),
    };
  } finally {
    emulator.stop();
    unregister();
  }
}

/**
 * CPU time (user + system) of this process's children that ended and were waited for, and of theirs, in milliseconds
 * (Linux: /proc/self/stat's cutime and cstime, in clock ticks of 1/100 s).
 */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command name: state is field 3; cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** The longest per-collection read time among the pull's progress lines, in milliseconds. */
function longestRead(lines: string[]): number | undefined {
  const times = lines.flatMap((line) => /^\w+\s+\d+ documents\s+(\d+) ms$/.exec(line.trim())?.[1] ?? []).map(Number);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** Every file under `dir`: [path relative to dir, bytes]. */
async function distFiles(dir: string): Promise<[string, number][]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return [path.slice(dir.length + 1), (await stat(path)).size] as [string, number];
      }),
  );
}
