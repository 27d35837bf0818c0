/** Browser side of the forms: POSTs JSON, always resolving to a result an island can show (never throws, never hangs); drafts in sessionStorage. */
import { HONEYPOT_FIELD, MESSAGES } from './form-rules';

/** What an island gets back: HTTP `status` (0: unreachable), French `message`, `fields` (name → message), JSON `body` ({} if none). */
export interface SubmitResult {
  ok: boolean;
  status: number;
  message: string;
  fields: Record<string, string>;
  body: Record<string, unknown>;
}

/** POSTs `payload` as JSON to `url` within 15 s; message: the endpoint's, else ours by status (429, `unavailable`, 5xx, 4xx) or MESSAGES.network. */
export async function postJson(url: string, payload: unknown, unavailable?: string): Promise<SubmitResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(15_000),
  }).catch(() => undefined);
  if (!response) return { ok: false, status: 0, message: MESSAGES.network, fields: {}, body: {} };
  // A proxy's HTML error page, for instance, has no JSON: then our own words.
  const json: unknown = await response.json().catch(() => null);
  const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const fallback =
    response.status === 429
      ? MESSAGES.tooManyRequests
      : (unavailable ?? (response.status >= 500 ? MESSAGES.unavailable : MESSAGES.badRequest));
  const message = typeof body.message === 'string' && body.message ? body.message : response.ok ? '' : fallback;
  const fields = (body.fields as Record<string, string> | undefined) ?? {};
  return { ok: response.ok, status: response.status, message, fields, body };
}

/** The sender of one form to `url`: it adds the key `envoi` (kept while the payload is: a retry makes no second document) and the honeypot. */
export function formSender(url: string): (payload: object, form: HTMLFormElement) => Promise<SubmitResult> {
  let last: { content: string; key: string } | undefined;
  return async (payload, form) => {
    const content = JSON.stringify(payload);
    if (last?.content !== content) last = { content, key: randomUuid() };
    const honeypot = String(new FormData(form).get(HONEYPOT_FIELD) ?? '');
    const result = await postJson(url, {
      ...payload,
      envoi: last.key,
      ...(honeypot && { [HONEYPOT_FIELD]: honeypot }),
    });
    if (result.ok) last = undefined;
    return result;
  };
}

/** A random UUID v4: crypto.randomUUID() exists only on https or localhost (not `npm start` seen from a phone). */
const randomUuid = (): string =>
  crypto.randomUUID?.() ??
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    (Number(digit) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(digit) / 4)))).toString(16),
  );

/** The JSON kept under sessionStorage `key`, null when none or unreadable (storage may be off: the form's state holds all). */
export function loadDraft(key: string): unknown {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Keeps `value` as JSON under sessionStorage `key`, or removes it (no `value`); storage off or full: nothing is kept. */
export function saveDraft(key: string, value?: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or a full storage: the form works without.
  }
}
