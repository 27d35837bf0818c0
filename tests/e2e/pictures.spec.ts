/**
 * Content pictures as a visitor's browser gets them: from the site's own origin (astro:assets'
 * files under /_astro/), with width and height, lazy except the page's largest picture, and every
 * one of them loading. The demo dataset's pictures are SVG; raster formats are covered by
 * tests/build/pictures.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { loadEverything, watchPage } from './helpers';

/** Every content picture of the page (the site's own drawings under /illustrations/ aside). */
async function contentImages(page: Page) {
  return page.locator('main img, header img, footer img').evaluateAll((images) =>
    (images as HTMLImageElement[])
      .filter((image) => !image.getAttribute('src')!.startsWith('/illustrations/'))
      .map((image) => ({
        src: image.getAttribute('src')!,
        width: image.getAttribute('width'),
        height: image.getAttribute('height'),
        loading: image.getAttribute('loading'),
        fetchpriority: image.getAttribute('fetchpriority'),
        loaded: image.complete && image.naturalWidth > 0,
      })),
  );
}

for (const route of ['/', '/asso', '/ecole', '/actualites/rentree-2026']) {
  test(`${route}: every content picture comes from /_astro/ with its size, and loads`, async ({ page, baseURL }) => {
    const watch = watchPage(page, baseURL!);
    await page.goto(route);
    await loadEverything(page);
    const images = await contentImages(page);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image.src, JSON.stringify(image)).toMatch(/^\/_astro\/[\w.-]+\.(svg|avif|webp|jpg|png)$/);
      expect(Number(image.width), image.src).toBeGreaterThan(0);
      expect(Number(image.height), image.src).toBeGreaterThan(0);
      expect(image.loaded, image.src).toBe(true);
    }
    expect(watch.problems).toEqual([]);
  });
}

test('the largest picture of a page loads first; the others are lazy', async ({ page }) => {
  for (const [route, first] of [
    ['/asso', 'main li:first-child img.cover'],
    ['/ecole', 'main .article-section:first-of-type img'],
    ['/actualites/rentree-2026', 'main .news-article img'],
  ] as const) {
    await page.goto(route);
    const hero = page.locator(first).first();
    await expect(hero, route).toHaveAttribute('loading', 'eager');
    await expect(hero, route).toHaveAttribute('fetchpriority', 'high');
    const others = (await contentImages(page)).filter((image) => image.fetchpriority !== 'high');
    expect(others.length, route).toBeGreaterThan(0);
    expect(
      others.filter((image) => image.loading !== 'lazy'),
      route,
    ).toEqual([]);
    expect(
      (await contentImages(page)).filter((image) => image.fetchpriority === 'high'),
      route,
    ).toHaveLength(1);
  }
});
