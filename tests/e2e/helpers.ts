/**
 * Shared helpers of the browser tests (the routes of the built site are in scripts/lib/routes.ts): a page
 * watcher (console errors, failed requests to our origin) and an axe-core
 * check whose failure message lists every node (target + failure summary).
 */
import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** WCAG levels checked by axe on every page and state. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/** The two viewports of the accessibility loop (pixels). */
export const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
] as const;

/** Problems seen while a page was used: console errors, page errors, failed requests to our origin. */
export interface PageWatch {
  problems: string[];
}

/**
 * Records console errors, uncaught exceptions and failed requests to our own
 * origin. `allowed404Path` lets the not-found page's own 404 through.
 */
export function watchPage(page: Page, baseURL: string, allowed404Path?: string): PageWatch {
  const origin = new URL(baseURL).origin;
  const watch: PageWatch = { problems: [] };
  const ours = (url: string) => url.startsWith(origin);
  const isAllowed404 = (url: string) => allowed404Path !== undefined && new URL(url).pathname === allowed404Path;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const location = message.location().url;
    // Chromium logs the document's own 404 as "Failed to load resource".
    if (location && isAllowed404(location) && message.text().includes('404')) return;
    watch.problems.push(`console error: ${message.text()} (${location})`);
  });
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (ours(request.url())) watch.problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    const url = response.url();
    if (!ours(url) || response.status() < 400) return;
    if (response.status() === 404 && isAllowed404(url)) return;
    watch.problems.push(`HTTP ${response.status()}: ${url}`);
  });
  return watch;
}

/**
 * Screenshots for a person to look at, taken only when SCREENSHOTS_DIR names a folder
 * (`SCREENSHOTS_DIR=/tmp/shots npx playwright test …`): nothing asserts them, so the full run does not pay for them.
 * Writes `${name}-${width}.png` at each of `viewports` (the page's own when absent): the whole page, or `target`'s box.
 * Leaves the page at the last viewport, with or without screenshots, so that what follows runs the same.
 */
export async function lookAt(
  page: Page,
  name: string,
  { target, viewports }: { target?: Locator; viewports?: readonly { width: number; height: number }[] } = {},
): Promise<void> {
  const folder = process.env.SCREENSHOTS_DIR;
  const sizes = viewports ?? [page.viewportSize() ?? VIEWPORTS[0]];
  if (!folder) {
    if (viewports) await page.setViewportSize(sizes.at(-1)!);
    return;
  }
  for (const size of sizes) {
    await page.setViewportSize(size);
    const path = join(folder, `${name}-${size.width}.png`);
    await (target ? target.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
  }
}

/**
 * Runs axe-core (AXE_TAGS) on the page as it is now, same-origin frames included but the editors' files of /contenu/:
 * their policy runs no script at all (a sandbox, docs/security.md), so axe cannot run inside them and would wait until
 * the test's end. Fails with every violating node's target and failure summary.
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    // Only violations are asserted: axe need not describe every passing node. First: options() replaces withTags'.
    .options({ resultTypes: ['violations'] })
    .withTags(AXE_TAGS)
    .exclude('iframe[src^="/contenu/"]')
    // axe.run in the page itself: the default (runPartial) opens a blank page at every run to merge the frames'
    // results, half of a run's CPU. It leaves out only cross-origin frames: the site's own are same-origin, and a
    // video's player is not ours (and unreachable here).
    .setLegacyMode(true)
    .analyze();
  const report = violations
    .map((violation) => {
      const nodes = violation.nodes
        .map(
          (node) =>
            `    - ${JSON.stringify(node.target)}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
        )
        .join('\n');
      return `  ${violation.id} (${violation.impact}): ${violation.help}\n${nodes}`;
    })
    .join('\n');
  expect(violations.length, `axe violations on ${state}:\n${report}`).toBe(0);
}

/**
 * Runs axe once on a further state of a page (a dialog, an error, a step, a list after an act) at VIEWPORTS[0]
 * (375 px), where its content has the least room, then gives the page back its viewport: a page's plain state is
 * checked at both widths by its own sweep (docs/testing.md, « Browser tests »).
 */
export async function expectNoAxeViolationsNarrow(page: Page, state: string): Promise<void> {
  const before = page.viewportSize();
  const narrow = VIEWPORTS[0];
  if (before?.width !== narrow.width) await page.setViewportSize(narrow);
  await expectNoAxeViolations(page, `${state} at ${narrow.width} px`);
  if (before && before.width !== narrow.width) await page.setViewportSize(before);
}

/**
 * Turns lazy images eager, loads lazy iframes (scrolled into view) and waits
 * until everything has loaded or failed, so that a broken URL shows up as a
 * failed request and axe sees the frames' content. Scrolls back to the top.
 */
export async function loadEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = 'eager';
    await Promise.all(
      images.map((image) =>
        image.complete
          ? undefined
          : new Promise((resolve) => {
              image.addEventListener('load', resolve, { once: true });
              image.addEventListener('error', resolve, { once: true });
            }),
      ),
    );
  });
  for (const iframe of await page.locator('iframe').all()) {
    // A frame the layout hides (/ecole/schema's on a phone) loads all the same, without being scrolled to.
    if (await iframe.isVisible()) await iframe.scrollIntoViewIfNeeded();
    const frame = await (await iframe.elementHandle())?.contentFrame();
    await frame?.waitForLoadState('load');
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * Collects the Content-Security-Policy issues Chromium reports for a page
 * (an eval, inline code or a URL the policy refuses): an eval refused inside
 * a library's try/catch logs no console error, so watchPage alone misses it.
 * Returns the live list of issues, one JSON line each.
 */
export async function watchCspIssues(page: Page): Promise<string[]> {
  const issues: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') issues.push(JSON.stringify(issue.details));
  });
  await cdp.send('Audits.enable');
  return issues;
}

/**
 * Opens `path` and moves the pointer over `target`, the visitor's first act that hydrates a `client:interaction`
 * island; resolves once `island` has hydrated.
 */
async function hydrateByPointer(page: Page, path: string, target: string, island: string): Promise<void> {
  await page.goto(path);
  await page.locator(target).hover();
  await page.locator(`${island}:not([ssr])`).waitFor({ state: 'attached' });
}

/** Opens a donation page (/soutenir or /soutenir/annule) with its donation form hydrated (or at once: a stored choice). */
export const openDonationForm = (page: Page, path = '/soutenir') =>
  hydrateByPointer(page, path, '.donation', 'astro-island:has(.donation)');

/** Opens /ecole with its pre-registration form hydrated. */
export const openPreRegistration = (page: Page) =>
  hydrateByPointer(page, '/ecole', '#preinscription form', '#preinscription astro-island');

/** Opens `path` and waits for the load event, then for two idle periods of the main thread (when client:idle ran). */
export async function loadAndIdle(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'load' });
  await page.evaluate(() => new Promise((idle) => requestIdleCallback(() => requestIdleCallback(() => idle(true)))));
}

/**
 * Holds the module of the island `island` (a selector) until the returned function is called: the visitor acts on
 * the server's HTML while React loads, on a slow network made certain.
 */
export async function holdIsland(page: Page, island: string): Promise<() => void> {
  const component = (await page.locator(island).getAttribute('component-url')) as string;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === component,
    async (route) => {
      await held;
      await route.continue();
    },
  );
  return release;
}
