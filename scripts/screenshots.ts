/**
 * `npm run screenshots -- [routes...]`: full-page PNGs of dist/ (served on a free port) at 375 and 1280 px in
 * /tmp/screenshots/.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_EXECUTABLE } from './lib/chromium.ts';
import { freePort } from './lib/ports.ts';
import { NOT_FOUND_ROUTES, ROUTES } from './lib/routes.ts';

const routes = process.argv.length > 2 ? process.argv.slice(2) : [...ROUTES, NOT_FOUND_ROUTES[0]!];
const outDir = '/tmp/screenshots';
await mkdir(outDir, { recursive: true });
const port = await freePort();
const site = `http://127.0.0.1:${port}`;

const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve-dist.ts', String(port)], { stdio: 'ignore' });
// Up to 30 s: the server starts slowly on a busy machine.
for (const deadline = Date.now() + 30_000; !(await fetch(site).catch(() => undefined))?.ok;) {
  if (Date.now() > deadline) throw new Error(`scripts/serve-dist.ts did not answer on ${site} within 30 s`);
  await sleep(250);
}
const browser = await chromium.launch({
  executablePath: CHROMIUM_EXECUTABLE,
  args: CHROMIUM_ARGS,
  env: CHROMIUM_ENV,
});
try {
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const route of routes) {
      await page.goto(`${site}${route}`);
      await page.evaluate(async () => {
        // A full-page capture shows only what the browser has drawn, and content-visibility: auto (the home page's
        // carousels) leaves what is off-screen undrawn.
        for (const element of document.querySelectorAll<HTMLElement>('*'))
          if (getComputedStyle(element).contentVisibility === 'auto') element.style.contentVisibility = 'visible';
        for (const image of document.querySelectorAll('img')) image.loading = 'eager';
        await Promise.all([...document.images].map((image) => image.decode().catch(() => undefined)));
      });
      const path = `${outDir}/${route.replaceAll('/', '_') || '_'}-${width}.png`;
      await page.screenshot({ path, fullPage: true });
      console.log(path);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
