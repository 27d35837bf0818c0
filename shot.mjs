import { chromium } from 'playwright-core';
const [widthArg, ...routes] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const width = Number(widthArg);
const page = await browser.newPage({ viewport: { width, height: 900 } });
for (const r of routes) {
  await page.goto('http://127.0.0.1:4322' + r);
  await page.evaluate(() => document.querySelectorAll('img[loading=lazy]').forEach((i) => { i.loading = 'eager'; }));
  await page.evaluate(async () => { for (let y = 0; y < document.body.scrollHeight; y += 500) { window.scrollTo(0, y); await new Promise(r => setTimeout(r, 30)); } window.scrollTo(0, 0); });
  await page.waitForTimeout(300);
  const h = await page.evaluate(() => document.documentElement.scrollHeight);
  const name = (r.replace(/[\/#]/g, '_') || '_') + '-' + width;
  const chunk = width < 500 ? 1400 : 2400;
  for (let y = 0, i = 0; y < h; y += chunk, i++) {
    await page.screenshot({ path: `/tmp/shots/${name}-${i}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(chunk, h - y) } });
  }
}
await browser.close();
