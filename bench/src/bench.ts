/**
 * `npm run bench [-- --quick | --pictures | --load]`: builds, Lighthouse, page weight, pictures and the
 * form endpoints under load, in temporary copies of the project; writes bench/report.md and .json.
 * Exit 0 when everything was measured (even with a target missed), 1 when something could not be.
 * What each part measures, ports and options: docs/benchmark.md. */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoDataset, measureBuild, syntheticDataset, type BuildMeasurement } from './builds.ts';
import { runLighthouse, type LighthouseResult } from './lighthouse.ts';
import { measurePictures, withFixturePictures } from './pictures.ts';
import { ENDPOINTS, loadEndpoint, primeDatabase, type BenchDatabase, type EndpointLoad } from './endpoint-load.ts';
import { GZIP_LEVEL, measurePages } from './pages.ts';
import { measureMailLoad, type MailLoad } from './mail-load.ts';
import { measureReceipts, type ReceiptsReport } from './receipts.ts';
import { freePort, onCleanup, stopEverything } from './processes.ts';
import { evaluateTargets, kb, machineInfo, pictureTable, seconds, writeReport, type BenchReport } from './report.ts';
import { SERVED_PROJECT_ID, serveBuiltSite, type LocalSite } from './server.ts';
import { createWorkspace } from './workspace.ts';
import { measureDevStarts, type DevStart } from './dev-start.ts';
import { measureTransfers, type TransferComparison } from './transfer.ts';
import { findGoogleEmulatorJar, hasJava, startGoogleFirestore } from '../../scripts/lib/google-firestore.ts';

/** Cold starts of `npm start` (the median is the target's figure). */
const DEV_STARTS = 3;

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    pictures: { type: 'boolean', default: false },
    load: { type: 'boolean', default: false },
    mail: { type: 'boolean', default: false },
    receipts: { type: 'boolean', default: false },
    start: { type: 'boolean', default: false },
    transfer: { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    articles: { type: 'string', default: '10000' },
    lighthouse: { type: 'boolean', default: false },
    routes: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log(
    [
      'Usage: npm run bench [-- --quick | --pictures | --load | --mail | --receipts | --start | --transfer | --build ' +
        '[--articles N] | --lighthouse [--routes /,/ecole]]',
      '  --quick     no 5,000- and 10,000-article builds, scale Lighthouse at 1,000 articles, 3 s load runs, ' +
        'Lighthouse on one news page only; report in bench/reports/',
      '  --pictures  only the demo build and the pictures before/after table; merged into bench/report.md and .json',
      '  --load      only the form endpoints under load (demo build first); merged into bench/report.md and .json',
      '  --mail      only the mail burst (demo build first): 200 pre-registrations at once, ' +
        '400 mails, none lost or twice',
      '  --receipts  only the tax receipt PDF per script of the name: size and time to draw (uses the last build ' +
        'for the fonts the function carries)',
      `  --start     only \`npm start\` to its first page, ${DEV_STARTS} cold starts`,
      '  --transfer  only what a browser downloads before any interaction, beside a baseline page (demo build first)',
      '  --build     only the pull + build of --articles N articles (default 10000): phases, CPU time, load; ' +
        'replaces that dataset in bench/report.md and .json',
      "  --lighthouse  only Lighthouse (three runs a route) on the demo build's --routes (comma-separated; " +
        'default every route); replaces those routes in bench/report.md and .json',
    ].join('\n'),
  );
  process.exit(0);
}

const root = resolve(import.meta.dirname, '../..');
const quick = options.quick;
/** Requests of each endpoint's burst, all sent at once. */
const BURST_SIZE = 2000;
/** Connections of the sustained load run. */
const LOAD_CONNECTIONS = 20;
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

/** The page each route's download is compared with, in the same run: text only, no island. */
const BASELINE_ROUTE = '/mentions';
/** Routes whose download before any interaction is measured beside the baseline. */
const TRANSFER_ROUTES = ['/', '/actualites', '/ecole', '/soutenir', '/recherche'];

/** Cold starts of `npm start` in a copy of the project: prints each one's phases. */
async function startPart(): Promise<DevStart[]> {
  section(`npm start to its first page (${DEV_STARTS} cold starts)`);
  const copy = await createWorkspace(root, 'start');
  const starts = await measureDevStarts(copy, DEV_STARTS);
  await copy.remove();
  for (const start of starts) {
    const phase = (ms: number | undefined) => (ms === undefined ? '–' : seconds(ms));
    console.log(
      `first page ${seconds(start.firstPageMs)} (seeded ${phase(start.seededMs)}, pulled ${phase(start.pulledMs)}, ` +
        `Astro ready ${phase(start.astroReadyMs)}; with its files ${phase(start.assetsMs)}; ` +
        `Auth ready ${phase(start.authMs)}; CPU ${phase(start.cpuMs)}, load ${start.loadAverage?.toFixed(2) ?? '–'})`,
    );
  }
  return starts;
}

/** What a browser downloads from the site served from `dir`, each route beside the baseline page: prints it. */
async function transferPart(dir: string): Promise<TransferComparison> {
  const site = await serveBuiltSite(dir, await freePort(4500, 4599), await emulatorPort());
  section(`Downloads before any interaction against ${site.url}, beside ${BASELINE_ROUTE}`);
  const transfers = await measureTransfers(site.url, TRANSFER_ROUTES, BASELINE_ROUTE);
  await site.stop();
  for (const page of [transfers.baseline, ...transfers.pages]) {
    console.log(
      `${page.route.padEnd(16)} HTML ${kb(page.htmlTransferBytes).padStart(9)}   ` +
        `JS ${kb(page.jsTransferBytes).padStart(9)}   all ${kb(page.totalTransferBytes).padStart(9)}   ` +
        `(${page.encodings.join(', ')})`,
    );
  }
  return transfers;
}

/** Pre-registrations of the mail burst, all sent at once (two mails each). */
const MAIL_BURST = 200;

/**
 * The mail burst on the built site of `dir`: prints it, and fails the bench when a submission stays unanswered after
 * its retries, or a mail is lost or sent twice.
 */
async function mailPart(dir: string): Promise<MailLoad> {
  section(`Mail: ${MAIL_BURST} pre-registrations at once, two mails each, then one drain`);
  const result = await measureMailLoad(dir, await freePort(4500, 4599), await emulatorPort(), MAIL_BURST);
  console.log(
    `${result.answeredFirst} of ${result.submissions} answered 200 at once (${JSON.stringify(result.statusCounts)}), ` +
      `${result.answered} after retries with their key, in ${result.burstSeconds.toFixed(1)} s; ` +
      `${result.stored} stored; ` +
      `${result.sentByEndpoints} mails sent by the endpoints, ${result.sentByDrain} by the drain; ` +
      `${result.lost} lost, ${result.duplicated} duplicated`,
  );
  if (result.lost > 0 || result.duplicated > 0 || result.stored < result.answered || result.answered < MAIL_BURST) {
    throw new Error(
      `mail burst: ${result.answered} of ${MAIL_BURST} answered, ${result.lost} lost, ` +
        `${result.duplicated} duplicated, ${result.stored} stored`,
    );
  }
  return result;
}

/** The receipt PDF per script, and the fonts of the function built in `dir`: prints it. */
async function receiptsPart(dir: string): Promise<ReceiptsReport> {
  section('Tax receipt PDF per script of the donor’s name');
  const result = await measureReceipts(dir);
  for (const receipt of result.receipts) {
    console.log(
      `${receipt.script.padEnd(24)} ${kb(receipt.bytes).padStart(9)}   first ${Math.round(receipt.firstMs)} ms, ` +
        `median ${Math.round(receipt.medianMs)} ms`,
    );
  }
  return result;
}

if (options.receipts) {
  await runPart('The receipt part', async () => ({ receipts: await receiptsPart(root), receiptsMachine: machine }));
}

if (options.start) {
  await runPart('The start-up part', async () => ({ devStarts: await startPart(), devStartMachine: machine }));
}

if (options.transfer) {
  await runPart('The transfer part', async () => {
    section('Pull + build of the demo dataset (for the downloads)');
    const copy = await createWorkspace(root, 'transfer');
    await measureBuild(copy, 'demo', await demoDataset(root), await emulatorPort());
    const transfers = await transferPart(copy.dir);
    await copy.remove();
    return { transfers, transferMachine: machine };
  });
}

if (options.build) {
  await runPart('The build part', async () => {
    const count = Number(options.articles);
    if (!Number.isInteger(count) || count < 1) throw new Error(`--articles ${options.articles}: a number of articles`);
    const { dataset: demo } = await withFixturePictures(await demoDataset(root));
    const name = `${count.toLocaleString('en')} articles`;
    section(`Pull + build of ${name}`);
    const copy = await createWorkspace(root, String(count));
    const build = await measureBuild(copy, name, syntheticDataset(demo, count), await emulatorPort());
    await copy.remove();
    printBuild(build);
    const previous = await previousReport();
    const builds = previous.builds.some((kept) => kept.dataset === name)
      ? previous.builds.map((kept) => (kept.dataset === name ? build : kept))
      : [...previous.builds, build];
    return { builds };
  });
}

if (options.lighthouse) {
  await runPart('The Lighthouse part', async () => {
    section('Pull + build of the demo dataset (for Lighthouse)');
    const copy = await createWorkspace(root, 'lighthouse');
    await measureBuild(copy, 'demo', await demoDataset(root), await emulatorPort());
    const routes =
      options.routes?.split(',').map((route) => route.trim()) ??
      (await measurePages(join(copy.dir, 'dist'))).map((page) => page.route);
    const site = await serveBuiltSite(copy.dir, await freePort(4500, 4599), await emulatorPort());
    section(`Lighthouse against ${site.url}: ${routes.join(', ')}`);
    const results = await runLighthouse(site.url, routes, LIGHTHOUSE_RUNS, printLighthouse);
    await site.stop();
    await copy.remove();
    const previous = await previousReport();
    const measured = new Set(results.map((result) => result.route));
    const kept = previous.lighthouse.filter((result) => !measured.has(result.route));
    const order = (route: string) => previous.lighthouse.findIndex((result) => result.route === route);
    const lighthouse = [...kept, ...results].toSorted((a, b) => order(a.route) - order(b.route));
    return { lighthouse, lighthouseAlone: { routes, machine } };
  });
}

if (options.mail) {
  await runPart('The mail part', async () => {
    section('Pull + build of the demo dataset (for the mail burst)');
    const copy = await createWorkspace(root, 'mail');
    await measureBuild(copy, 'demo', await demoDataset(root), await emulatorPort());
    const mail = await mailPart(copy.dir);
    await copy.remove();
    return { mail, mailMachine: machine };
  });
}

if (options.load) {
  await runPart('The load test', async () => {
    section('Pull + build of the demo dataset (for the endpoints)');
    const copy = await createWorkspace(root, 'load');
    await measureBuild(copy, 'demo', await demoDataset(root), await emulatorPort());
    const load = await measureLoad(copy.dir);
    await copy.remove();
    return { load, loadMachine: machine };
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
    await runPart('The pictures part', async () => ({ pictures, picturesMachine: machine }));
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
      `${page.route.padEnd(40)} HTML ${kb(page.htmlGzipBytes).padStart(9)} gzip   JS ` +
        `${kb(page.jsGzipBytes).padStart(9)} gzip`,
    );
  }

  const site = await serveBuiltSite(demoCopy.dir, await freePort(4500, 4599), await emulatorPort());
  section(`Lighthouse against ${site.url}`);
  const newsRoutes = pages.filter((page) => page.route.startsWith('/actualites/')).map((page) => page.route);
  const routes = pages
    .map((page) => page.route)
    .filter((route) => !quick || !route.startsWith('/actualites/') || route === newsRoutes[0]);
  const lighthouse = await runLighthouse(site.url, routes, quick ? 1 : LIGHTHOUSE_RUNS, printLighthouse);

  await site.stop();
  const transfers = await transferPart(demoCopy.dir);
  const load = await measureLoad(demoCopy.dir);
  const mail = await mailPart(demoCopy.dir);
  const receipts = await receiptsPart(demoCopy.dir);
  await demoCopy.remove();
  const devStarts = await startPart();

  const report: BenchReport = {
    machine,
    mode: quick ? 'quick' : 'full',
    gzipLevel: GZIP_LEVEL,
    durationSeconds: (performance.now() - started) / 1000,
    targets: evaluateTargets(pages, builds, lighthouse, load, scaleLighthouse, devStarts, transfers),
    pages,
    builds,
    lighthouse,
    scaleLighthouse,
    pictures,
    picturesMachine: machine,
    load,
    loadMachine: machine,
    mail,
    mailMachine: machine,
    receipts,
    receiptsMachine: machine,
    devStarts,
    devStartMachine: machine,
    transfers,
    transferMachine: machine,
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
    `${result.route.padEnd(40)} performance ${result.performance} (runs ${result.performanceRuns.join(', ')}; ` +
      `CPU index ${result.benchmarkIndexRuns?.join(', ')}), ` +
      `accessibility ${result.accessibility}, best practices ${result.bestPractices}, SEO ${result.seo}`,
  );
}

/** The committed bench/report.json, whose parts a part measured alone replaces. */
async function previousReport(): Promise<BenchReport> {
  return JSON.parse(await readFile(join(root, 'bench', 'report.json'), 'utf8')) as BenchReport;
}

/**
 * Measures one part alone and merges it into the committed bench/report.json (targets evaluated
 * again), rewrites bench/report.md, and exits: 0 when measured, 1 with a message when not.
 */
async function runPart(name: string, measure: () => Promise<Partial<BenchReport>>): Promise<never> {
  try {
    const part = await measure();
    const previous = await previousReport();
    const merged: BenchReport = { ...previous, ...part };
    merged.targets = evaluateTargets(
      merged.pages,
      merged.builds,
      merged.lighthouse,
      merged.load,
      merged.scaleLighthouse,
      merged.devStarts,
      merged.transfers,
    );
    const { paths, markdown } = await writeReport(merged, join(root, 'bench'), 'report');
    console.log(`\n${markdown}`);
    console.log(`Written: ${paths.join(', ')}`);
    await stopEverything();
    process.exit(0);
  } catch (error) {
    console.error(
      `\n✖ ${name} could not measure everything: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!(error instanceof Error && error.name === 'BenchError')) console.error(error);
    await stopEverything();
    process.exit(1);
  }
}

/**
 * Both endpoints under load through the built function in `dir`: on the embedded emulator (in
 * serve-dist's process), then on Google's when Java and its jar are here (skipped with a message).
 */
async function measureLoad(dir: string): Promise<EndpointLoad[]> {
  const databases: { database: BenchDatabase; stop?: () => Promise<void> }[] = [];
  databases.push({ database: { kind: 'embedded', address: '', projectId: SERVED_PROJECT_ID } });
  const jar = findGoogleEmulatorJar();
  if (jar && hasJava()) {
    const google = await startGoogleFirestore(jar);
    onCleanup(google.stop);
    await primeDatabase({ kind: 'google', address: google.address, projectId: 'demo-bench-load' });
    databases.push({
      database: { kind: 'google', address: google.address, projectId: 'demo-bench-load' },
      stop: google.stop,
    });
  } else {
    console.log(
      "Google's Firestore emulator not installed (google-cloud-cli-firestore-emulator and Java): measuring the " +
        'embedded emulator only.',
    );
  }
  const results: EndpointLoad[] = [];
  for (const { database, stop } of databases) {
    // Ports are probed free, then bound by the server: another run on the machine may take one in
    // between, so a server that cannot bind is started again on new ports.
    let site: LocalSite | undefined;
    for (let attempt = 1; !site; attempt += 1) {
      const embeddedPort = await freePort(8200, 8399, emulatorPorts);
      if (database.kind === 'embedded') database.address = `127.0.0.1:${embeddedPort}`;
      site = await serveBuiltSite(
        dir,
        await freePort(4500, 4599),
        database.kind === 'embedded' ? embeddedPort : database,
      ).catch((error: unknown) => {
        if (attempt >= 3) throw error;
        console.log(`The server could not start (${String(error).split('\n')[0]}); trying other ports.`);
        return undefined;
      });
    }
    for (const endpoint of Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]) {
      section(
        `POST ${ENDPOINTS[endpoint].path} on the ${database.kind} emulator (${quick ? 3 : 10} s at ` +
          `${LOAD_CONNECTIONS} connections, then ${BURST_SIZE} at once)`,
      );
      const result = await loadEndpoint({
        url: site.url,
        endpoint,
        database,
        connections: LOAD_CONNECTIONS,
        durationSeconds: quick ? 3 : 10,
        burstSize: BURST_SIZE,
        measureRefused: endpoint === 'newsletter' && database.kind === 'embedded',
      }).catch((error: unknown) => {
        console.error(`Server log (last lines):\n${site.logTail()}`);
        throw error;
      });
      console.log(
        `${Math.round(result.requestsPerSecond)} requests/s, p50 ${result.latencyMs.p50} ms, p99 ` +
          `${result.latencyMs.p99} ms; sustained ${result.sustained.ok} × 2xx, ${result.sustained.missing} lost, ` +
          `${result.sustained.duplicated} duplicated; burst ${result.burst.ok} × 2xx of ${result.burst.size} in ` +
          `${result.burst.seconds.toFixed(1)} s, ${result.burst.missing} lost, ${result.burst.duplicated} duplicated`,
      );
      results.push(result);
    }
    await site.stop();
    await stop?.();
  }
  return results;
}

/** One progress line for a build, and one per problem of its news archive. */
function printBuild(build: BuildMeasurement): void {
  console.log(
    `${build.articles} articles, ${build.documents} documents: seed ${seconds(build.seedMs)}, pull ` +
      `${seconds(build.pullMs)}, astro build ${seconds(build.buildMs)}, after ${seconds(build.afterBuildMs)}: ` +
      `${seconds(build.totalMs)} (${build.pages} pages)`,
  );
  for (const problem of build.archiveProblems) console.log(`  news archive: ${problem}`);
}
