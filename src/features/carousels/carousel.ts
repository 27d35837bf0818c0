/**
 * Carousel arithmetic, pure, shared by the island, its server-rendered media queries and the tests.
 * Widths in CSS pixels (window.innerWidth, as `min-width` compares); indexes 0-based.
 */

/** Spec §9: slide duration (ms). */
export const SLIDE_DURATION_MS = 300;

/** Widest window the generated media queries cover (pixels, a 4K screen); above it the server frame keeps this width's count. */
export const BREAKPOINTS_MAX_WIDTH_PX = 3840;

/** News items visible in a window `widthPx` wide (pixels): floor(width / 420), at least 1 (spec §9). */
export function newsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.floor(widthPx / 420));
}

/** Sponsors visible in a window `widthPx` wide (pixels): round(width / 160), at least 1 (spec §9). */
export function sponsorsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.round(widthPx / 160));
}

/**
 * The first visible item's index after one arrow press (`step` +1 next, −1 previous; spec §4): one item within
 * [0, count − visible], next from the last position goes to 0, previous from 0 to count − visible, 0 when nothing
 * scrolls (count ≤ visible); an `index` out of range is clamped first.
 */
export function stepIndex(index: number, step: 1 | -1, count: number, visible: number): number {
  const last = Math.max(0, count - visible);
  const current = Math.min(Math.max(0, index), last);
  if (step === 1) return current >= last ? 0 : current + 1;
  return current <= 0 ? last : current - 1;
}

/**
 * Where a visible-count rule changes, as `min-width` steps (pixels) from 0, scanning whole widths up to `maxWidthPx`,
 * so that CSS gives the server-rendered frame the count the island computes: news 0 → 1, 840 → 2, 1260 → 3 …
 */
export function visibleBreakpoints(
  visibleCount: (widthPx: number) => number,
  maxWidthPx = BREAKPOINTS_MAX_WIDTH_PX,
): { minWidthPx: number; visible: number }[] {
  const steps = [{ minWidthPx: 0, visible: visibleCount(0) }];
  for (let width = 1; width <= maxWidthPx; width++) {
    const visible = visibleCount(width);
    if (visible !== steps.at(-1)!.visible) steps.push({ minWidthPx: width, visible });
  }
  return steps;
}
