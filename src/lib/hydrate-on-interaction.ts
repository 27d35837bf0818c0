/**
 * Astro client directive `client:interaction` (registered in astro.config.mjs): the island's JavaScript loads and
 * hydrates at the visitor's first act on it — a pointer over it or pressed on it, a touch, the focus, a key or a click
 * inside it — never by itself. Its server HTML works until then (a native invoker opens the newsletter dialog, the
 * carousels scroll sideways, radios and fields take what is chosen or typed); a click on one of its buttons that only
 * its script makes work (`type="button"` without an invoker command) before it has hydrated is replayed once it has: a
 * tap is a touch then a click, often before the JavaScript has arrived, and that first act is not lost. A submit button
 * marked `data-replay` (its form posts without JavaScript, its script does more) is held the same way: not submitted
 * before hydration, clicked again after it; when the island's script fails to load, that click submits the form.
 * `client:interaction="scrolled-to"` also hydrates it once it is in view after the visitor has scrolled or typed
 * (wheel, touch, key, pointer): not when a page loads with it in view.
 * `client:interaction={{ draft: key }}` also hydrates it at once when sessionStorage holds `key`: the visitor already
 * chose or typed in this form in this tab (a reload), and the island restores the draft. Astro's islands are
 * `display: contents` (no box): the observer watches their elements, as `client:visible` does.
 */
import type { ClientDirective } from 'astro';

/**
 * Events on the island that start its hydration (they bubble to it); `click` for the clicks that come without a
 * pointer or a focus before them (a screen reader's activation).
 */
const ACTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'click'] as const;

/** The visitor's own inputs anywhere on the page after which an island in view hydrates (`scrolled-to`). */
const SCROLLS = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * Buttons whose click before hydration is replayed after it: those that do nothing without their island's script, and
 * the submit buttons marked `data-replay`, which its script takes over once loaded.
 */
const SCRIPTED_BUTTONS = 'button[type="button"]:not([commandfor]), button[data-replay]';

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

/**
 * Keeps the island's SCRIPTED_BUTTONS clicked from now on (a `data-replay` button's form is not submitted); the
 * returned function stops keeping them and clicks again, in order, those still in the page. Called once the island's
 * root exists (React handles a click from then on, even before it has finished hydrating), or once its script has
 * failed to load (a `data-replay` button's click then submits its form), within the clicks' user activation (5 s in
 * Chromium and Firefox): what a replayed click opens (window.open, a form's new tab) is not taken for a popup.
 */
function keepClicks(island: HTMLElement): () => void {
  const clicked: HTMLElement[] = [];
  const keeping = new AbortController();
  island.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLElement>(SCRIPTED_BUTTONS) : null;
      if (!button || !island.contains(button)) return;
      if (button.matches('[data-replay]')) event.preventDefault();
      clicked.push(button);
    },
    { capture: true, signal: keeping.signal },
  );
  return () => {
    keeping.abort();
    for (const button of clicked) if (button.isConnected) button.click();
  };
}

const hydrateOnInteraction: ClientDirective = (load, options, island) => {
  const value = options.value as Options;
  const replay = keepClicks(island);
  const controller = new AbortController();
  const listening = { signal: controller.signal, passive: true };
  let observer: IntersectionObserver | undefined;
  const hydrate = async () => {
    if (controller.signal.aborted) return;
    controller.abort();
    observer?.disconnect();
    try {
      await (
        await load()
      )();
    } finally {
      // Also when the script failed: a held `data-replay` button then submits its form, as without JavaScript.
      replay();
    }
  };
  if (typeof value === 'object' && hasStored(value.draft)) {
    void hydrate();
    return;
  }
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
