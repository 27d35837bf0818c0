/**
 * Carousel arithmetic shared by the island and its server-rendered media queries; widths in CSS pixels (as `min-width`
 * compares), indexes 0-based.
 */

/** Spec §9: slide duration (ms). */
export const SLIDE_DURATION_MS = 300;

/** News items visible in a window `widthPx` wide (pixels): floor(width / 420), at least 1 (spec §9). */
export function newsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.floor(widthPx / 420));
}

/** Sponsors visible in a window `widthPx` wide (pixels): round(width / 160), at least 1 (spec §9). */
export function sponsorsVisibleCount(widthPx: number): number {
  return Math.max(1, Math.round(widthPx / 160));
}

/**
 * The first visible index after one arrow press (`step` ±1, spec §4) within [0, count − visible], wrapping at both
 * ends; `index` is clamped first.
 */
export function stepIndex(index: number, step: 1 | -1, count: number, visible: number): number {
  const last = Math.max(0, count - visible);
  const current = Math.min(Math.max(0, index), last);
  if (step === 1) return current >= last ? 0 : current + 1;
  return current <= 0 ? last : current - 1;
}

/**
 * Where a visible-count rule changes, as `min-width` steps in pixels up to 3840 (a 4K screen; wider keeps its count):
 * news 0 → 1, 840 → 2 …
 */
export function visibleBreakpoints(
  visibleCount: (widthPx: number) => number,
): { minWidthPx: number; visible: number }[] {
  const steps = [{ minWidthPx: 0, visible: visibleCount(0) }];
  for (let width = 1; width <= 3840; width++) {
    const visible = visibleCount(width);
    if (visible !== steps.at(-1)!.visible) steps.push({ minWidthPx: width, visible });
  }
  return steps;
}
