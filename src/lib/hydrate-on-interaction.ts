/**
 * Astro client directive `client:interaction` (registered in astro.config.mjs): the island's JavaScript loads and
 * hydrates at the visitor's first act on it — a pointer over it or pressed on it, a touch, the focus or a key inside
 * it — never by itself. Its server HTML works until then (a native invoker opens the newsletter dialog, the carousels
 * scroll sideways). `client:interaction="scrolled-to"` also hydrates it once it is in view after the visitor has
 * scrolled or typed (wheel, touch, key, pointer): not when a page loads with it in view.
 * `client:interaction={{ draft: key }}` also hydrates it at once when sessionStorage holds `key`: the visitor already
 * typed in this form in this tab (a reload), and the island restores the draft. Astro's islands are
 * `display: contents` (no box): the observer watches their elements, as `client:visible` does.
 */
import type { ClientDirective } from 'astro';

/** Events on the island that start its hydration (they bubble to it). */
const ACTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** The visitor's own inputs anywhere on the page after which an island in view hydrates (`scrolled-to`). */
const SCROLLS = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/** The directive's value: `"scrolled-to"`, or the sessionStorage key of a draft the island restores. */
type Options = boolean | 'scrolled-to' | { draft: string } | '';

/** Whether sessionStorage holds `key` (false when storage is off). */
function hasStored(key: string): boolean {
  try {
    return sessionStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

const hydrateOnInteraction: ClientDirective = (load, options, island) => {
  const value = options.value as Options;
  if (typeof value === 'object' && hasStored(value.draft)) {
    void load().then((hydrate) => hydrate());
    return;
  }
  const controller = new AbortController();
  const listening = { signal: controller.signal, passive: true };
  let observer: IntersectionObserver | undefined;
  const hydrate = async () => {
    if (controller.signal.aborted) return;
    controller.abort();
    observer?.disconnect();
    await (
      await load()
    )();
  };
  for (const type of ACTS) island.addEventListener(type, () => void hydrate(), listening);
  if (value !== 'scrolled-to') return;
  const watch = () => {
    if (observer || controller.signal.aborted) return;
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void hydrate();
    });
    for (const element of island.children) observer.observe(element);
  };
  for (const type of SCROLLS) window.addEventListener(type, watch, listening);
};

export default hydrateOnInteraction;

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrates at the visitor's first act on the island; `"scrolled-to"`: also once scrolled into view; `{ draft }`:
     * also at once when sessionStorage holds that key.
     */
    'client:interaction'?: boolean | 'scrolled-to' | { draft: string };
  }
}
