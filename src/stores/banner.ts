/**
 * The message banner: one message at a time, gone after 4 s; islands call `showMessage()`, the layout renders it
 * (polite).
 */
import { atom } from 'nanostores';

/** How long a message stays, in milliseconds (spec §9: 4 seconds). */
export const MESSAGE_TIMEOUT_MS = 4000;

type Tone = 'success' | 'error' | 'info';

/**
 * The message on screen, or null; `id` changes with every message (a repeated text too); `tone` sets colour and icon.
 */
export const $banner = atom<{ id: number; text: string; tone: Tone } | null>(null);

let timer: ReturnType<typeof setTimeout> | undefined;
let counter = 0;

/**
 * Shows `text` in the banner for 4 s and returns its id; a new message replaces the current one and restarts the 4 s.
 */
export function showMessage(text: string, tone: Tone = 'info'): number {
  clearTimeout(timer);
  $banner.set({ id: ++counter, text, tone });
  timer = setTimeout(() => $banner.set(null), MESSAGE_TIMEOUT_MS);
  return counter;
}
