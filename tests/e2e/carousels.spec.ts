/**
 * The home page carousels in Chromium (spec §2, §4, §9): what a visitor sees
 * at 375 px and 1280 px, the visible counts and the wrap-around both ways.
 * "Visible" always means on screen: a slide whose box
 * lies inside the carousel's clipping viewport, measured in the page, not the
 * island's state. Also: keyboard use, arrows only when something scrolls, no
 * layout shift at hydration, the 300 ms slide, reduced motion, the no-JS
 * fallback and axe-core after hydration.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newsVisibleCount, SLIDE_DURATION_MS, sponsorsVisibleCount } from '../../src/features/content/news/carousel';
import { HOME_NEWS_COUNT } from '../../src/features/content/news/news';
import { NEWS_SLUGS } from '../../scripts/lib/routes';
import { expectNoAxeViolations, VIEWPORTS, watchPage } from './helpers';

interface CarouselCase {
  /** Accessible name of the region (its section heading, from the demo data). */
  name: string;
  count: number;
  previous: string;
  next: string;
  /** Visible count for a window width (pixels). */
  visibleCount: (widthPx: number) => number;
}

const NEWS: CarouselCase = {
  name: 'Actualités',
  // The demo has fewer news items than the carousel's limit: it shows them all.
  count: Math.min(NEWS_SLUGS.length, HOME_NEWS_COUNT),
  previous: 'Actualité précédente',
  next: 'Actualité suivante',
  visibleCount: newsVisibleCount,
};

const SPONSORS: CarouselCase = {
  name: 'Nos partenaires',
  count: 14,
  previous: 'Partenaires précédents',
  next: 'Partenaires suivants',
  visibleCount: sponsorsVisibleCount,
};

/**
 * A window where every item of both carousels fits: floor(2940 / 420) = 7 news, round(2940 / 160) = 18 ≥ 14 sponsors.
 */
const ALL_FIT = { width: 2940, height: 900 };

const region = (page: Page, carousel: CarouselCase) => page.getByRole('region', { name: carousel.name });
const slides = (page: Page, carousel: CarouselCase) =>
  region(page, carousel).locator('[aria-roledescription="diapositive"]');

/** Positions first … first + visible − 1 (1-based). */
const positions = (first: number, visible: number) => Array.from({ length: visible }, (_, index) => first + index);

/** Whether some of `locator`'s box is inside the viewport. */
const inViewport = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  });

/**
 * Scrolls to the carousel with the mouse wheel, as a visitor (client:interaction="scrolled-to" hydrates it then), and
 * waits until the island has taken over: `ssr` gone from its astro-island and the slides out of view made inert.
 */
async function hydrate(page: Page, carousel: CarouselCase): Promise<Locator> {
  const root = region(page, carousel);
  await expect(slides(page, carousel)).toHaveCount(carousel.count);
  await page.mouse.move(1, 1);
  for (let step = 0; step === 0 || (step < 60 && !(await inViewport(root))); step += 1) {
    await page.mouse.wheel(0, 300);
    await page.waitForFunction(() => new Promise((frame) => requestAnimationFrame(() => frame(true))));
  }
  // The wheel's scroll may still be going on, and may have shown only part of it: the tests use it whole, at rest.
  await page.waitForFunction(async () => {
    const before = window.scrollY;
    await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    return window.scrollY === before;
  });
  await root.scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island', { has: root })).not.toHaveAttribute('ssr');
  const width = page.viewportSize()!.width;
  const hidden = Math.max(0, carousel.count - carousel.visibleCount(width));
  await expect(slides(page, carousel).and(page.locator('[inert]'))).toHaveCount(hidden);
  return root;
}

/**
 * 1-based positions of the slides wholly inside the carousel's viewport (±1
 * px). A slide cut by an edge (mid-animation) counts as 0; a slide on screen
 * but inert, or off screen but not inert, counts as −position: neither can
 * match an expected list.
 */
function onScreen(root: Locator): Promise<number[]> {
  return root.evaluate((element) => {
    const viewport = element.querySelector('.carousel__viewport')!.getBoundingClientRect();
    const shown: number[] = [];
    for (const slide of element.querySelectorAll('[aria-roledescription="diapositive"]')) {
      const box = slide.getBoundingClientRect();
      const position = Number(slide.getAttribute('aria-label')!.split(' ')[0]);
      const inside = box.left >= viewport.left - 1 && box.right <= viewport.right + 1;
      const outside = box.right <= viewport.left + 1 || box.left >= viewport.right - 1;
      if (!inside && !outside) shown.push(0);
      else if (inside === slide.hasAttribute('inert')) shown.push(-position);
      else if (inside) shown.push(position);
    }
    return shown;
  });
}

/** Clicks an arrow and waits until exactly `expected` are on screen. */
async function press(root: Locator, arrow: string, expected: number[]): Promise<void> {
  await root.getByRole('button', { name: arrow }).click();
  await expect.poll(() => onScreen(root), { message: `after "${arrow}"` }).toEqual(expected);
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width}px`, () => {
    // Reduced motion: each press puts its slides in place at once, so thirty presses do not wait for thirty slides
    // (the 300 ms slide and the reduced-motion jump have their own tests below).
    test.use({ viewport, reducedMotion: 'reduce' });

    // One page load per width: the visible counts, the wrap-around, and axe before and after the arrows moved.
    const title =
      '§9 visible count (« window width divided by 420, floored », « window width divided by 160, rounded »); §4 ' +
      '« forward past the end returns to the start; backward from the start goes to the end »; axe finds no ' +
      'violation after hydration, before and after the arrows moved';
    test(title, async ({ page, baseURL }) => {
      const watch = watchPage(page, baseURL!);
      await page.goto('/');
      for (const carousel of [NEWS, SPONSORS]) {
        const root = await hydrate(page, carousel);
        // Beyond §9: at least one (floor(375 / 420) is 0). « It scrolls only when the item count exceeds the visible
        // count »: both overflow here; where every item fits, « arrows only when the items overflow » below.
        expect(carousel.visibleCount(viewport.width)).toBe(
          Math.max(1, carousel === NEWS ? Math.floor(viewport.width / 420) : Math.round(viewport.width / 160)),
        );
        expect(carousel.count).toBeGreaterThan(carousel.visibleCount(viewport.width));
        await expect.poll(() => onScreen(root)).toEqual(positions(1, carousel.visibleCount(viewport.width)));
      }
      await expectNoAxeViolations(page, `/ with hydrated carousels at ${viewport.width}px`);
      for (const carousel of [NEWS, SPONSORS]) {
        const root = region(page, carousel);
        const visible = carousel.visibleCount(viewport.width);
        const last = carousel.count - visible + 1;
        for (let first = 2; first <= last; first++) await press(root, carousel.next, positions(first, visible));
        await press(root, carousel.next, positions(1, visible));
        await press(root, carousel.previous, positions(last, visible));
      }
      await expectNoAxeViolations(page, `/ after the carousels moved at ${viewport.width}px`);
      expect(watch.problems).toEqual([]);
    });
  });
}

test.describe('keyboard and pointer (1280px)', () => {
  test.use({ viewport: VIEWPORTS[1] });

  test('Tab reaches the next arrow, Enter moves; Tab then visits only the visible cards', async ({ page }) => {
    await page.goto('/');
    const root = await hydrate(page, NEWS);
    const previous = root.getByRole('button', { name: NEWS.previous });
    const next = root.getByRole('button', { name: NEWS.next });

    await previous.focus();
    await page.keyboard.press('Tab');
    await expect(next).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => onScreen(root)).toEqual([2, 3, 4]);
    await expect(next).toBeFocused();

    for (const position of [2, 3, 4]) {
      await page.keyboard.press('Tab');
      await expect(root.getByRole('group', { name: `${position} sur 7` }).getByRole('link')).toBeFocused();
    }
    await page.keyboard.press('Tab');
    expect(await root.evaluate((element) => element.contains(document.activeElement))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await expect(root.getByRole('group', { name: '4 sur 7' }).getByRole('link')).toBeFocused();
  });

  test('a mouse drag (as a swipe) moves by one card, without following the link', async ({ page }) => {
    await page.goto('/');
    const root = await hydrate(page, NEWS);
    const box = (await root.locator('.carousel__viewport').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    // Three quarters of a card (≈ 390 px): the nearest snap even for a slow drag; embla never skips one (skipSnaps
    // false).
    await page.mouse.move(box.x + box.width / 2 - 300, y, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => onScreen(root)).toEqual([2, 3, 4]);
    await expect(page).toHaveURL('/');
    // The arrows go on from where the drag left.
    await press(root, NEWS.next, [3, 4, 5]);
  });

  test('the arrows are at least 44 × 44 px with a visible focus ring', async ({ page }) => {
    await page.goto('/');
    for (const carousel of [NEWS, SPONSORS]) {
      const root = await hydrate(page, carousel);
      for (const name of [carousel.previous, carousel.next]) {
        const arrow = root.getByRole('button', { name });
        const box = (await arrow.boundingBox())!;
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.height).toBeGreaterThanOrEqual(44);
        await arrow.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        const ring = await arrow.evaluate((element) => getComputedStyle(element));
        expect(ring.outlineStyle).toBe('solid');
        expect(Number.parseFloat(ring.outlineWidth)).toBeGreaterThanOrEqual(2);
      }
    }
  });
});

test.describe('arrows only when the items overflow', () => {
  test.use({ viewport: ALL_FIT });

  test(`at ${ALL_FIT.width}px every item fits: no arrows, nothing hidden; a resize brings them back`, async ({
    page,
  }) => {
    await page.goto('/');
    for (const carousel of [NEWS, SPONSORS]) {
      const root = await hydrate(page, carousel);
      await expect(root.locator('button')).toHaveCount(0);
      expect(await onScreen(root)).toEqual(positions(1, carousel.count));
    }

    await page.setViewportSize(VIEWPORTS[1]);
    for (const carousel of [NEWS, SPONSORS]) {
      const root = region(page, carousel);
      await expect(root.getByRole('button', { name: carousel.next })).toBeVisible();
      await expect.poll(() => onScreen(root)).toEqual(positions(1, carousel.visibleCount(VIEWPORTS[1].width)));
    }

    await page.setViewportSize(ALL_FIT);
    for (const carousel of [NEWS, SPONSORS]) await expect(region(page, carousel).locator('button')).toHaveCount(0);
  });

  test('before hydration too, the server-rendered arrows are hidden where every item fits', async ({ page }) => {
    await page.route('**/_astro/*.js', (route) => route.abort());
    await page.goto('/');
    for (const carousel of [NEWS, SPONSORS]) {
      await expect(region(page, carousel).locator('button')).toHaveCount(2);
      await expect(region(page, carousel).getByRole('button')).toHaveCount(0);
    }
  });
});

/**
 * Page-independent geometry of each carousel, scrolled into view first (off-screen, `content-visibility: auto` leaves
 * its slides undrawn at an estimated height): sizes and offsets inside its region (pixels).
 */
function frame(page: Page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const roots = [...document.querySelectorAll('[aria-roledescription="carrousel"]')];
    const geometry = [];
    for (const root of roots) {
      root.scrollIntoView({ block: 'center' });
      const track = root.querySelector('.carousel__track')!;
      for (let frames = 0; frames < 60 && !track.checkVisibility({ contentVisibilityAuto: true }); frames++)
        await new Promise((resolve) => requestAnimationFrame(resolve));
      const origin = root.getBoundingClientRect();
      const box = (selector: string) => {
        const rect = root.querySelector(selector)?.getBoundingClientRect();
        return rect && [rect.x - origin.x, rect.y - origin.y, rect.width, rect.height].map(Math.round);
      };
      geometry.push({
        region: [origin.width, origin.height].map(Math.round),
        firstSlide: box('[aria-roledescription="diapositive"]'),
        lastSlide: box('[aria-roledescription="diapositive"]:last-child'),
        arrows: box('.carousel__controls'),
      });
    }
    return geometry;
  });
}

for (const viewport of VIEWPORTS) {
  test.describe(`no layout shift at hydration (${viewport.width}px)`, () => {
    test.use({ viewport });

    test('the server-rendered frame equals the hydrated one, and no carousel node shifts', async ({ page }) => {
      await page.route('**/_astro/*.js', (route) => route.abort());
      await page.goto('/');
      const before = await frame(page);
      await page.unrouteAll();

      await page.addInitScript(() => {
        const shifts: string[] = [];
        (window as unknown as { carouselShifts: string[] }).carouselShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources: { node?: Node }[];
          })[]) {
            for (const source of entry.sources) {
              const element = source.node instanceof Element ? source.node : source.node?.parentElement;
              if (element?.closest('.carousel')) shifts.push(`${element.outerHTML.slice(0, 80)} (${entry.value})`);
            }
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto('/');
      await page.evaluate(() => document.fonts.ready);
      for (const carousel of [NEWS, SPONSORS]) await hydrate(page, carousel);
      const after = await frame(page);

      // The server frame already has the visible count of this width: its news slides share the region's width.
      expect(before).toHaveLength(2);
      const [newsRegion, newsSlide] = [before[0]!.region[0]!, before[0]!.firstSlide![2]!];
      const visible = newsVisibleCount(viewport.width);
      expect(newsSlide).toBeGreaterThan(newsRegion / visible - 30);
      expect(newsSlide).toBeLessThanOrEqual(newsRegion / visible);
      for (const [index, hydrated] of after.entries()) {
        const server = before[index]!;
        for (const key of ['region', 'firstSlide', 'lastSlide', 'arrows'] as const) {
          hydrated[key]!.forEach((value, axis) =>
            expect(
              Math.abs(value - server[key]![axis]!),
              `${key}[${axis}] of carousel ${index + 1}`,
            ).toBeLessThanOrEqual(1),
          );
        }
      }
      expect(await page.evaluate(() => (window as unknown as { carouselShifts: string[] }).carouselShifts)).toEqual([]);
    });
  });
}

/**
 * Records the track's horizontal translation (pixels) at every animation
 * frame for `durationMs`, after `action` has run.
 */
async function recordSlide(
  root: Locator,
  action: () => Promise<void>,
  durationMs: number,
): Promise<{ t: number; x: number }[]> {
  await root.evaluate((element, ms) => {
    const track = element.querySelector('.carousel__track')!;
    const samples: { t: number; x: number }[] = [];
    (element as unknown as { samples: Promise<typeof samples> }).samples = new Promise((resolve) => {
      const start = performance.now();
      const sample = (now: number) => {
        samples.push({ t: now, x: new DOMMatrix(getComputedStyle(track).transform).m41 });
        if (now - start < ms) requestAnimationFrame(sample);
        else resolve(samples);
      };
      requestAnimationFrame(sample);
    });
  }, durationMs);
  await action();
  return root.evaluate((element) => (element as unknown as { samples: Promise<{ t: number; x: number }[]> }).samples);
}

test.describe('motion (1280px)', () => {
  test.use({ viewport: VIEWPORTS[1] });

  test(`an arrow press slides for about ${SLIDE_DURATION_MS} ms`, async ({ page }, testInfo) => {
    await page.goto('/');
    const root = await hydrate(page, NEWS);
    const samples = await recordSlide(root, () => root.getByRole('button', { name: NEWS.next }).click(), 1200);
    const from = samples[0]!.x;
    const to = samples.at(-1)!.x;
    expect(to).toBeLessThan(from - 300); // one card to the left
    const start = samples.find((sample) => sample.x !== from)!.t;
    // Done when within 1 % of the distance for good.
    const settle = samples.findLast((sample) => Math.abs(sample.x - to) > Math.abs(to - from) / 100)!.t;
    const duration = settle - start;
    testInfo.annotations.push({ type: 'slide duration (ms, to 99 %)', description: duration.toFixed(0) });
    // Frames are sampled, and a busy machine drops some: the bounds say "slides, neither at once nor slowly".
    expect(samples.filter((sample) => sample.x !== from && sample.x !== to).length).toBeGreaterThan(2);
    expect(duration).toBeGreaterThan(SLIDE_DURATION_MS / 3);
    expect(duration).toBeLessThan(SLIDE_DURATION_MS * 2.5);
  });

  test.describe('prefers-reduced-motion: reduce', () => {
    test.use({ reducedMotion: 'reduce' });

    test('an arrow press puts the next slide in place at once, without sliding', async ({ page }) => {
      await page.goto('/');
      const root = await hydrate(page, NEWS);
      const samples = await recordSlide(root, () => root.getByRole('button', { name: NEWS.next }).click(), 400);
      expect(await onScreen(root)).toEqual([2, 3, 4]);
      const positions = [...new Set(samples.map((sample) => Math.round(sample.x)))];
      expect(positions, 'no frame between the two positions').toHaveLength(2);
    });
  });
});

test.describe('without JavaScript (375px)', () => {
  test.use({ javaScriptEnabled: false, viewport: VIEWPORTS[0] });

  test('the lists scroll sideways without arrows, and every news link is reachable with Tab', async ({ page }) => {
    await page.goto('/');
    const news = region(page, NEWS);
    await expect(news.locator('[inert], [tabindex="-1"]')).toHaveCount(0);
    for (const carousel of [NEWS, SPONSORS]) {
      await expect(region(page, carousel).getByRole('button')).toHaveCount(0);
      const scroller = region(page, carousel).locator('.carousel__viewport');
      // Drawn once near the viewport (content-visibility: auto); off-screen its width holds no slides.
      await scroller.scrollIntoViewIfNeeded();
      await expect
        .poll(() => scroller.evaluate((element) => element.scrollWidth > element.clientWidth + 100))
        .toBe(true);
      expect(await scroller.evaluate((element) => getComputedStyle(element).overflowX)).toBe('auto');
    }

    const links = news.getByRole('link');
    await expect(links).toHaveCount(NEWS.count);
    await links.first().focus();
    for (let index = 0; index < NEWS.count; index++) {
      const link = links.nth(index);
      if (index > 0) await page.keyboard.press('Tab');
      await expect(link).toBeFocused();
      await expect(link).toBeInViewport();
    }
    const hrefs = await links.evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
    expect(hrefs).toEqual(NEWS_SLUGS.slice(0, HOME_NEWS_COUNT).map((slug) => `/actualites/${slug}`));
  });
});
