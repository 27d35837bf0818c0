/**
 * The transient message banner (spec §2, §4, §9): one message at a time,
 * shown at the bottom of every page and gone after 4 seconds. Any island
 * calls `showMessage()`; the layout's banner script (no framework) renders
 * the current message into the polite live region. Shared through nanostores
 * as in Astro's recipe for sharing state between islands.
 */
import { atom } from 'nanostores';

/** How long a message stays, in milliseconds (spec §9: 4 seconds). */
export const MESSAGE_TIMEOUT_MS = 4000;

/** Kind of message: drives the banner's colour and icon, never its only cue. */
export type MessageTone = 'success' | 'error' | 'info';

/** The message on screen, or null. `id` changes with every message (even a repeated text). */
export interface BannerMessage {
  id: number;
  text: string;
  tone: MessageTone;
}

/** Current banner message. */
export const $banner = atom<BannerMessage | null>(null);

let timer: ReturnType<typeof setTimeout> | undefined;
let counter = 0;

/**
 * Shows `text` in the banner for 4 s (a new message replaces the current one
 * and restarts the 4 s).
 */
export function showMessage(text: string, tone: MessageTone = 'info'): void {
  clearTimeout(timer);
  $banner.set({ id: ++counter, text, tone });
  timer = setTimeout(() => $banner.set(null), MESSAGE_TIMEOUT_MS);
}

/** Removes the message at once (e.g. the banner's close button). */
export function clearMessage(): void {
  clearTimeout(timer);
  $banner.set(null);
}
