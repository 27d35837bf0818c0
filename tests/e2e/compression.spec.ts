/**
 * The built site arrives compressed as Netlify's CDN sends it (scripts/serve-dist.ts): brotli or gzip as the browser
 * accepts, `Vary: Accept-Encoding`, for a page, a stylesheet and an answer of the function; nothing for a client that
 * accepts none.
 */
import { expect, test } from '@playwright/test';

test('a page, an asset and an on-demand page arrive compressed by Accept-Encoding', async ({ request }) => {
  const page = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(page.status()).toBe(200);
  expect(page.headers()['content-encoding']).toBe('br');
  expect(page.headers()['vary']).toMatch(/accept-encoding/i);
  const html = await page.text();
  expect(html).toContain('<html lang="fr"');

  const stylesheet = /<link[^>]+rel="stylesheet"[^>]+href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1];
  expect(stylesheet, 'a stylesheet of the home page').toBeDefined();
  const asset = await request.get(stylesheet as string, { headers: { 'accept-encoding': 'gzip' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-encoding']).toBe('gzip');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(await asset.text()).toContain('{');

  const onDemand = await request.get('/espace/connexion', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(onDemand.status()).toBe(200);
  expect(onDemand.headers()['content-encoding']).toBe('br');
  expect(await onDemand.text()).toContain('<h1>Connexion à l’espace de l’association</h1>');

  const plain = await request.get('/', { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(await plain.text()).toBe(html);
});
