/** The thank-you page's receipt block (browser): polls GET /api/recu (JSON) and shows the `[data-state]` block of the gift. */
import { SESSION_ID_PATTERN } from './donations';

/** Delays between two questions, in ms: quick at first (the webhook usually lands within seconds). */
const POLL_DELAYS_MS = [1500, 2000, 3000, 3000, 5000, 5000, 10_000, 10_000, 15_000, 15_000, 30_000, 30_000];

/** Shows the block of `state` inside `section` and hides the others. */
function show(section: HTMLElement, state: string): void {
  for (const block of section.querySelectorAll<HTMLElement>('[data-state]'))
    block.hidden = block.dataset.state !== state;
}

/** Follows the receipt of `sessionId` (the URL's session_id; null or malformed → "sans"), asking again after each of `delays` (ms), then "lent". */
export async function watchReceipt(
  section: HTMLElement,
  sessionId: string | null,
  delays: readonly number[] = POLL_DELAYS_MS,
): Promise<void> {
  if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) return show(section, 'sans');
  const url = `/api/recu?session_id=${encodeURIComponent(sessionId)}`;
  for (let attempt = 0; ; attempt++) {
    const state = await fetch(url, { headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
    if (state && typeof state.etat === 'string' && state.etat !== 'attente') {
      if (state.etat === 'pret') {
        section.querySelector<HTMLAnchorElement>('[data-download]')?.setAttribute('href', url);
        const number = section.querySelector<HTMLElement>('[data-number]');
        if (number) number.textContent = String(state.numero ?? '');
      }
      return show(section, state.etat);
    }
    const delay = delays[attempt];
    if (delay === undefined) return show(section, 'lent');
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
