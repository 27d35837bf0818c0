import { describe, expect, it } from 'vitest';
import {
  newsVisibleCount,
  sponsorsVisibleCount,
  stepIndex,
  visibleBreakpoints,
} from '../../src/features/content/news/carousel';

describe('visible counts (spec §9)', () => {
  it('news: window width / 420, floored', () => {
    expect([300, 419, 420, 1280, 1920].map(newsVisibleCount)).toEqual([1, 1, 1, 3, 4]);
    expect(newsVisibleCount(839)).toBe(1);
    expect(newsVisibleCount(840)).toBe(2);
  });

  it('sponsors: window width / 160, rounded (half up)', () => {
    expect([300, 419, 420, 1280, 1920].map(sponsorsVisibleCount)).toEqual([2, 3, 3, 8, 12]);
    expect(sponsorsVisibleCount(399)).toBe(2);
    expect(sponsorsVisibleCount(400)).toBe(3); // 2.5 rounds up
  });

  it('never shows fewer than one item', () => {
    for (const width of [0, 1, 79, 80, 200, 239]) {
      expect(newsVisibleCount(width)).toBe(1);
      expect(sponsorsVisibleCount(width)).toBe(1);
    }
  });
});

describe('carousel index (spec §4)', () => {
  // 7 news, 3 visible: the first visible item goes 0 … 4.
  it('moves one item per press within [0, count − visible]', () => {
    expect(stepIndex(0, 1, 7, 3)).toBe(1);
    expect(stepIndex(3, 1, 7, 3)).toBe(4);
    expect(stepIndex(4, -1, 7, 3)).toBe(3);
    expect(stepIndex(1, -1, 7, 3)).toBe(0);
  });

  // The wrap-around at both ends is tested in the browser (tests/e2e/carousels.spec.ts).
  it('does not move when count ≤ visible', () => {
    for (const [count, visible] of [
      [7, 7],
      [3, 4],
      [1, 1],
      [0, 2],
    ] as const) {
      expect(stepIndex(0, 1, count, visible)).toBe(0);
      expect(stepIndex(0, -1, count, visible)).toBe(0);
    }
    expect(stepIndex(0, 1, 8, 7)).toBe(1);
  });

  it('clamps an index left out of range by a resize', () => {
    // Was at 4 with 3 visible; now 5 are visible, so the last position is 2.
    expect(stepIndex(4, 1, 7, 5)).toBe(0);
    expect(stepIndex(4, -1, 7, 5)).toBe(1);
  });
});

describe('media query steps (no layout shift at hydration)', () => {
  it('news: a step at every multiple of 420 px', () => {
    const steps = visibleBreakpoints(newsVisibleCount);
    expect(steps.slice(0, 4)).toEqual([
      { minWidthPx: 0, visible: 1 },
      { minWidthPx: 840, visible: 2 },
      { minWidthPx: 1260, visible: 3 },
      { minWidthPx: 1680, visible: 4 },
    ]);
    expect(steps.at(-1)).toEqual({ minWidthPx: 3780, visible: 9 });
  });

  it('sponsors: a step at 160 × (n − 0.5) px', () => {
    const steps = visibleBreakpoints(sponsorsVisibleCount);
    expect(steps.slice(0, 4)).toEqual([
      { minWidthPx: 0, visible: 1 },
      { minWidthPx: 240, visible: 2 },
      { minWidthPx: 400, visible: 3 },
      { minWidthPx: 560, visible: 4 },
    ]);
    expect(steps.at(-1)).toEqual({ minWidthPx: 3760, visible: 24 });
  });

  it('agree with the rule at every whole width up to the maximum', () => {
    for (const rule of [newsVisibleCount, sponsorsVisibleCount]) {
      const steps = visibleBreakpoints(rule);
      for (let width = 0; width <= 3840; width++) {
        const step = steps.findLast(({ minWidthPx }) => minWidthPx <= width)!;
        expect(step.visible).toBe(rule(width));
      }
    }
  });
});
