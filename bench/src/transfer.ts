/**
 * What a browser downloads from the served site (scripts/serve-dist.ts, which answers as Netlify does, compressed when
 * it compresses): per route, in Chromium, the bytes on the wire (Chrome's `encodedDataLength`: headers and the body as
 * sent, compressed or not; not the resource's own size) of the page's HTML and of the JavaScript it loads before any
 * interaction (at load, then two idle periods, when `client:idle` islands would hydrate; no pointer, key or scroll).
 * Each route is measured next to a baseline page in the same run (the same browser, one after the other), so that each
 * figure is also a ratio to it.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../scripts/lib/chromium.ts';
import { onCleanup } from './processes.ts';

/** One route's download before any interaction. */
export interface PageTransfer {
  /** Route, e.g. `/`. */
  route: string;
  /** Bytes on the wire of the document. */
  htmlTransferBytes: number;
  /** Bytes on the wire of every script loaded before any interaction. */
  jsTransferBytes: number;
  /** Bytes on the wire of everything loaded before any interaction (fonts, pictures, styles included). */
  totalTransferBytes: number;
  /** Scripts loaded before any interaction: site path and bytes on the wire. */
  scripts: { path: string; transferBytes: number }[];
  /** Content-Encoding of the document and of its scripts as served (`identity` when none), e.g. `br, gzip`. */
  encodings: string[];
}

/** Routes measured against the baseline: `pages[i]` is `routes[i]`, `baseline` the baseline route's. */
export interface TransferComparison {
  baseline: PageTransfer;
  pages: PageTransfer[];
}

/**
 * Measures `baselineRoute` and each of `routes` of `baseUrl` in one headless Chromium (a new cache per page, mobile
 * viewport 412 × 823 as Lighthouse's), each route after a new measure of the baseline; the baseline kept is the last.
 */
export async function measureTransfers(
  baseUrl: string,
  routes: string[],
  baselineRoute: string,
): Promise<TransferComparison> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  const unregister = onCleanup(() => browser.close());
  try {
    let baseline = await measureTransfer(browser, baseUrl, baselineRoute);
    const pages: PageTransfer[] = [];
    for (const route of routes) {
      pages.push(await measureTransfer(browser, baseUrl, route));
      baseline = await measureTransfer(browser, baseUrl, baselineRoute);
    }
    return { baseline, pages };
  } finally {
    unregister();
    await browser.close();
  }
}

async function measureTransfer(browser: Browser, baseUrl: string, route: string): Promise<PageTransfer> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const responses = new Map<string, { url: string; type: string; encoding: string }>();
    const finished: { requestId: string; bytes: number }[] = [];
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      responses.set(requestId, {
        url: response.url,
        type,
        encoding: String(headers['content-encoding'] ?? 'identity'),
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) =>
      finished.push({ requestId, bytes: encodedDataLength }),
    );
    await page.goto(new URL(route, baseUrl).href, { waitUntil: 'load' });
    await page.evaluate(() => new Promise((idle) => requestIdleCallback(() => requestIdleCallback(() => idle(true)))));
    const loaded = finished.flatMap(({ requestId, bytes }) => {
      const response = responses.get(requestId);
      return response ? [{ ...response, bytes }] : [];
    });
    const scripts = loaded.filter((entry) => entry.type === 'Script');
    const document = loaded.find((entry) => entry.type === 'Document');
    return {
      route,
      htmlTransferBytes: document?.bytes ?? 0,
      jsTransferBytes: scripts.reduce((sum, entry) => sum + entry.bytes, 0),
      totalTransferBytes: loaded.reduce((sum, entry) => sum + entry.bytes, 0),
      scripts: scripts.map((entry) => ({ path: new URL(entry.url).pathname, transferBytes: entry.bytes })),
      encodings: [...new Set([document, ...scripts].flatMap((entry) => (entry ? [entry.encoding] : [])))],
    };
  } finally {
    await context.close();
  }
}
