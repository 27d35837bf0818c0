/**
 * `npm run bench [-- --quick]`: measures the site and writes bench/report.md
 * and bench/report.json (`--quick`: bench/reports/report-quick.*, not
 * committed). Measured, each in temporary copies of the project so that the
 * working tree is never touched:
 * 1. pull + build time and home HTML bytes of the demo dataset and of 1,000,
 *    5,000 and 10,000 articles (the growth curve), and Lighthouse on /,
 *    /actualites and /recherche at 5,000 articles (1,000 under --quick);
 * 2. page weight of every built route of the demo (HTML, JS loaded, raw and gzip);
 * 3. Lighthouse scores and LCP/CLS/TBT of every demo route;
 * 4. POST /api/newsletter under autocannon, and one document per 2xx;
 * 5. the targets, PASS / FAIL (SKIP when not measured, e.g. with --quick);
 * 6. pictures: bytes of the fixture photos before and after astro:assets
 *    (`--pictures`: only the demo build and this table, no report written).
 * Exit status 0 when everything was measured (even if a target is missed),
 * 1 when a measurement could not be made. Servers use ports 4500–4599,
 * emulators 8290–8299; every child process is ended at exit.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoDataset, measureBuild, syntheticDataset, type BuildMeasurement } from './bench/builds.ts';
import { runLighthouse, type LighthouseResult } from './bench/lighthouse.ts';
import { measurePictures, withFixturePictures } from './bench/pictures.ts';
import { loadNewsletter } from './bench/newsletter-load.ts';
import { GZIP_LEVEL, measurePages } from './bench/pages.ts';
import { freePort, stopEverything } from './bench/processes.ts';
import {
  evaluateTargets,
  kb,
  machineInfo,
  pictureTable,
  seconds,
  writeReport,
  type BenchReport,
} from './bench/report.ts';
import { SERVED_PROJECT_ID, serveBuiltSite } from './bench/server.ts';
import { createWorkspace } from './bench/workspace.ts';

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    pictures: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log(
    'Usage: npm run bench [-- --quick | --pictures]\n  --pictures  only the demo build and the pictures before/after table (nothing written)\n  --quick  no 5,000- and 10,000-article builds, scale Lighthouse at 1,000 articles, a 3 s load test, Lighthouse on one news page only; report in bench/reports/',
  );
  process.exit(0);
}

const root = resolve(import.meta.dirname, '..');
const quick = options.quick;
/** Lighthouse runs per route (the median is kept); one under --quick. */
const LIGHTHOUSE_RUNS = 3;
/** Synthetic dataset sizes (articles) of the growth curve. */
const SIZES = quick ? [1000] : [1000, 5000, 10_000];
/** The dataset whose built site Lighthouse measures on SCALE_ROUTES. */
const SCALE_LIGHTHOUSE_ARTICLES = quick ? 1000 : 5000;
/** Pages whose weight or speed could follow the archive's size. */
const SCALE_ROUTES = ['/', '/actualites', '/recherche'];
const started = performance.now();
const machine = machineInfo(root);
const emulatorPorts = new Set<number>();
/** A free emulator port of 8290–8299 not given out before in this run. */
async function emulatorPort(): Promise<number> {
  const port = await freePort(8290, 8299, emulatorPorts);
  emulatorPorts.add(port);
  return port;
}
const section = (title: string) => console.log(`\n== ${title}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nInterrupted (${signal}): stopping servers, emulators and Chromium, removing temporary copies.`);
    void stopEverything().then(() => process.exit(130));
  });
}

try {
  // The demo dataset with real-size photos on a local server standing in for Firebase Storage.
  const { dataset: demo } = await withFixturePictures(await demoDataset(root));
  section('Pull + build of the demo dataset');
  const demoCopy = await createWorkspace(root, 'demo');
  const builds: BuildMeasurement[] = [await measureBuild(demoCopy, 'demo', demo, await emulatorPort())];
  printBuild(builds[0] as BuildMeasurement);

  section('Pictures before and after astro:assets');
  const pictures = await measurePictures(demoCopy.dir);
  console.log(pictureTable(pictures));
  if (options.pictures) {
    await demoCopy.remove();
    await stopEverything();
    process.exit(0);
  }

  let scaleLighthouse: BenchReport['scaleLighthouse'] = { dataset: '', results: [] };
  for (const count of SIZES) {
    const name = `${count.toLocaleString('en')} articles`;
    section(`Pull + build of ${name}`);
    const copy = await createWorkspace(root, String(count));
    builds.push(await measureBuild(copy, name, syntheticDataset(demo, count), await emulatorPort()));
    printBuild(builds.at(-1) as BuildMeasurement);
    if (count === SCALE_LIGHTHOUSE_ARTICLES) {
      const large = await serveBuiltSite(copy.dir, await freePort(4500, 4599), await emulatorPort());
      section(`Lighthouse at ${name} against ${large.url}`);
      const results = await runLighthouse(large.url, SCALE_ROUTES, quick ? 1 : LIGHTHOUSE_RUNS, printLighthouse);
      scaleLighthouse = { dataset: name, results };
      await large.stop();
    }
    await copy.remove();
  }

  section('Page weight');
  const pages = await measurePages(join(demoCopy.dir, 'dist'));
  for (const page of pages) {
    console.log(
      `${page.route.padEnd(40)} HTML ${kb(page.htmlGzipBytes).padStart(9)} gzip   JS ${kb(page.jsGzipBytes).padStart(9)} gzip`,
    );
  }

  const site = await serveBuiltSite(demoCopy.dir, await freePort(4500, 4599), await emulatorPort());
  section(`Lighthouse against ${site.url}`);
  const newsRoutes = pages.filter((page) => page.route.startsWith('/actualites/')).map((page) => page.route);
  const routes = pages
    .map((page) => page.route)
    .filter((route) => !quick || !route.startsWith('/actualites/') || route === newsRoutes[0]);
  const lighthouse = await runLighthouse(site.url, routes, quick ? 1 : LIGHTHOUSE_RUNS, printLighthouse);

  section(`POST /api/newsletter under load (${quick ? 3 : 10} s, 20 connections)`);
  const newsletter = await loadNewsletter({
    url: site.url,
    emulatorAddress: site.emulatorAddress,
    projectId: SERVED_PROJECT_ID,
    connections: 20,
    durationSeconds: quick ? 3 : 10,
  }).catch((error: unknown) => {
    console.error(`Server log (last lines):\n${site.logTail()}`);
    throw error;
  });
  console.log(
    `${Math.round(newsletter.requestsPerSecond)} requests/s, p50 ${newsletter.latencyMs.p50} ms, p99 ${newsletter.latencyMs.p99} ms; ${newsletter.ok} × 2xx, ${newsletter.documents} documents`,
  );
  await site.stop();
  await demoCopy.remove();

  const report: BenchReport = {
    machine,
    mode: quick ? 'quick' : 'full',
    gzipLevel: GZIP_LEVEL,
    durationSeconds: (performance.now() - started) / 1000,
    targets: evaluateTargets(pages, builds, lighthouse, newsletter, scaleLighthouse),
    pages,
    builds,
    lighthouse,
    scaleLighthouse,
    pictures,
    newsletter,
  };
  const { paths, markdown } = quick
    ? await writeReport(report, join(root, 'bench', 'reports'), 'report-quick')
    : await writeReport(report, join(root, 'bench'), 'report');
  console.log(`\n${markdown}`);
  console.log(`Written: ${paths.join(', ')}`);
  await stopEverything();
  process.exit(0);
} catch (error) {
  console.error(
    `\n✖ The benchmark could not measure everything: ${error instanceof Error ? error.message : String(error)}`,
  );
  if (!(error instanceof Error && error.name === 'BenchError')) console.error(error);
  await stopEverything();
  process.exit(1);
}

/** One progress line for a Lighthouse result. */
function printLighthouse(result: LighthouseResult): void {
  console.log(
    `${result.route.padEnd(40)} performance ${result.performance} (runs ${result.performanceRuns.join(', ')}), accessibility ${result.accessibility}, best practices ${result.bestPractices}, SEO ${result.seo}`,
  );
}

/** One progress line for a build. */
function printBuild(build: BuildMeasurement): void {
  console.log(
    `${build.articles} articles, ${build.documents} documents: seed ${seconds(build.seedMs)}, pull ${seconds(build.pullMs)}, astro build ${seconds(build.buildMs)}, after ${seconds(build.afterBuildMs)}: ${seconds(build.totalMs)} (${build.pages} pages)`,
  );
}
