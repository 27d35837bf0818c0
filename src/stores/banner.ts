/**
 * The message banner: one message at a time, gone after 4 s; islands call `showMessage()`, the layout renders it
 * (polite).
 */
import { atom } from 'nanostores';

/** How long a message stays, in milliseconds (spec §9: 4 seconds). */
export const MESSAGE_TIMEOUT_MS = 4000;

type Tone = 'success' | 'error' | 'info';

/**
 * The message on screen, or null; `id` changes with every message (a repeated text too); `tone` sets colour and icon;
 * `announce` false when the page already says it in a lasting place that takes the focus (an error summary, a
 * confirmation panel): the banner then only shows it, so a screen reader hears each message once.
 */
export const $banner = atom<{ id: number; text: string; tone: Tone; announce: boolean } | null>(null);

let timer: ReturnType<typeof setTimeout> | undefined;
let counter = 0;

/**
 * Shows `text` in the banner for 4 s and returns its id; a new message replaces the current one and restarts the 4 s.
 * The banner is never the only place a message lives: pass `{ announce: false }` when the page keeps it on screen and
 * moves the focus to it.
 */
export function showMessage(text: string, tone: Tone = 'info', { announce = true } = {}): number {
  clearTimeout(timer);
  $banner.set({ id: ++counter, text, tone, announce });
  timer = setTimeout(() => $banner.set(null), MESSAGE_TIMEOUT_MS);
  return counter;
}
