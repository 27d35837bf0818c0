/**
 * Shared helpers of the browser tests: the routes of the built site, a page
 * watcher (console errors, failed requests to our origin) and an axe-core
 * check whose failure message lists every node (target + failure summary).
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG levels checked by axe on every page and state. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/** The two viewports of the accessibility loop (pixels). */
export const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
] as const;

/** Slugs of the news pages, from the pulled data (category actualites). */
function newsSlugs(): string[] {
  const url = new URL('../../src/data/articles.json', import.meta.url);
  const articles = JSON.parse(readFileSync(url, 'utf8')) as Record<string, { cat?: string; slug?: string }>;
  return Object.entries(articles)
    .filter(([, article]) => article.cat === 'actualites')
    .map(([id, article]) => article.slug ?? id)
    .sort();
}

/** Every route of the site (status 200). */
export const ROUTES: string[] = [
  '/',
  '/asso',
  '/ecole',
  '/ecole/schema',
  '/soutenir',
  '/soutenir/annule',
  '/soutenir/valide',
  '/contact',
  ...newsSlugs().map((slug) => `/actualites/${slug}`),
];

/** Paths that are not routes: the not-found page answers with status 404. */
export const NOT_FOUND_ROUTES = ['/mentions', '/nimporte-quoi'];

/** Problems seen while a page was used: console errors, page errors, failed requests to our origin. */
export interface PageWatch {
  problems: string[];
}

/**
 * Records console errors, uncaught exceptions and failed requests to our own
 * origin. `expectedStatus` lets the not-found page's own 404 through.
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
 * Runs axe-core (AXE_TAGS) on the page as it is now and fails with every
 * violating node's target and failure summary. `excludeFrames` are CSS
 * selectors of iframes whose third-party content is not ours to fix (the
 * iframe element itself is still checked, e.g. its title).
 */
export async function expectNoAxeViolations(page: Page, state: string, excludeFrames: string[] = []): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  for (const frame of excludeFrames) builder = builder.exclude([frame, 'html']);
  const { violations } = await builder.analyze();
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
