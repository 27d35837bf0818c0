/**
 * Carousel arithmetic, pure, shared by the islands, the media queries of their server-rendered frame
 * and the tests. Widths in CSS pixels (window.innerWidth, as `min-width` compares); indexes 0-based.
 */

/** Spec §9: width divided by this (floored) gives the news visible count (pixels). */
export const NEWS_ITEM_WIDTH_PX = 420;

/** Spec §9: width divided by this (rounded) gives the sponsors visible count (pixels). */
export const SPONSOR_ITEM_WIDTH_PX = 160;

/** Spec §9: slide duration (milliseconds). */
export const SLIDE_DURATION_MS = 300;

/**
 * Widest window the generated media queries cover (pixels, a 4K screen).
 * Above it the server-rendered frame keeps the count of this width.
 */
export const BREAKPOINTS_MAX_WIDTH_PX = 3840;

/** News items visible at once for a window `widthPx` wide: floor(width / 420), at least 1. */
export function newsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.floor(widthPx / NEWS_ITEM_WIDTH_PX));
}

/** Sponsors visible at once for a window `widthPx` wide: round(width / 160), at least 1. */
export function sponsorsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.round(widthPx / SPONSOR_ITEM_WIDTH_PX));
}

/** A window-width → visible-count rule (widths in pixels). */
export type VisibleCount = (widthPx: number) => number;

/** Whether `count` items scroll in a window of `visible` (spec §4: only when count exceeds it). */
export function canScroll(count: number, visible: number): boolean {
  return count > visible;
}

/** Index of the first visible item at the last position: count − visible, or 0 when nothing scrolls. */
export function lastIndex(count: number, visible: number): number {
  return Math.max(0, count - visible);
}

/**
 * The first visible item's index after one arrow press (spec §4), with
 * wrap-around: within [0, count − visible] it moves by one item; next from
 * the last position goes to 0, previous from 0 goes to count − visible; when
 * count ≤ visible it stays 0. `index` out of range is clamped first.
 *
 * @param index first visible item now (0-based)
 * @param step +1 (next) or −1 (previous)
 * @param count number of items
 * @param visible number of items visible at once
 */
export function stepIndex(index: number, step: 1 | -1, count: number, visible: number): number {
  const last = lastIndex(count, visible);
  if (last === 0) return 0;
  const current = Math.min(Math.max(0, index), last);
  if (step === 1) return current >= last ? 0 : current + 1;
  return current <= 0 ? last : current - 1;
}

/** A media query step: from `minWidthPx` (inclusive, pixels) on, `visible` items show. */
export interface VisibleBreakpoint {
  minWidthPx: number;
  visible: number;
}

/**
 * Where a visible-count rule changes, as `min-width` steps, so that CSS can
 * give the server-rendered frame the count the island computes from
 * window.innerWidth after hydration. The first step has minWidthPx 0;
 * integer widths are scanned up to `maxWidthPx` (pixels, inclusive), so the
 * steps agree with the rule for every whole window width in that range.
 * News: 0 → 1, 840 → 2, 1260 → 3 …; sponsors: 0 → 1, 240 → 2, 400 → 3 …
 */
export function visibleBreakpoints(
  visibleCount: VisibleCount,
  maxWidthPx: number = BREAKPOINTS_MAX_WIDTH_PX,
): VisibleBreakpoint[] {
  const steps: VisibleBreakpoint[] = [{ minWidthPx: 0, visible: visibleCount(0) }];
  for (let width = 1; width <= maxWidthPx; width++) {
    const visible = visibleCount(width);
    if (visible !== steps.at(-1)!.visible) steps.push({ minWidthPx: width, visible });
  }
  return steps;
}
