/**
 * Browser side of every form: a JSON POST that always resolves to a result an island can show (never throws, never
 * hangs), and drafts kept in sessionStorage.
 */
import { HTTP_MESSAGES } from './http';

/** What an island gets back: HTTP `status` (0: no answer), French `message`, `fields` (name → message), JSON `body`. */
export interface SubmitResult {
  ok: boolean;
  status: number;
  message: string;
  fields: Record<string, string>;
  /** The answer's JSON object, {} if none. */
  body: Record<string, unknown>;
}

/** How long an island waits for an answer, in ms: past the endpoints' own deadlines (8 s for a write, 9 s Stripe). */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * POSTs `payload` as JSON to `url`, waiting at most 15 s. The message is the endpoint's; else ours: 429
 * tooManyRequests, other 4xx badRequest, 5xx or no answer in time `unavailable` (default HTTP_MESSAGES.maybeRecorded:
 * the request may have been carried out), network when the server could not be reached.
 */
export async function postJson(url: string, payload: unknown, unavailable?: string): Promise<SubmitResult> {
  const maybeDone = unavailable ?? HTTP_MESSAGES.maybeRecorded;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  }).catch((error: unknown) => (error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : undefined));
  if (typeof response !== 'object') {
    const message = response === 'timeout' ? maybeDone : HTTP_MESSAGES.network;
    return { ok: false, status: 0, message, fields: {}, body: {} };
  }
  // A proxy's HTML error page, for instance, has no JSON: then our own words.
  const json: unknown = await response.json().catch(() => null);
  const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const fallback =
    response.status === 429
      ? HTTP_MESSAGES.tooManyRequests
      : response.status >= 500
        ? maybeDone
        : (unavailable ?? HTTP_MESSAGES.badRequest);
  const message = typeof body.message === 'string' && body.message ? body.message : response.ok ? '' : fallback;
  const fields = (body.fields as Record<string, string> | undefined) ?? {};
  return { ok: response.ok, status: response.status, message, fields, body };
}

/**
 * The JSON kept under sessionStorage `key`, null when none or unreadable (storage may be off: the form's state holds
 * all).
 */
export function loadDraft(key: string): unknown {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Keeps `value` as JSON under sessionStorage `key`, or removes it (no `value`); storage off or full: nothing kept. */
export function saveDraft(key: string, value?: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or a full storage: the form works without.
  }
}
