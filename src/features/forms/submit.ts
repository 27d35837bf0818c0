/** Browser side of the write endpoints: POSTs JSON and always resolves to a result an island can show (never throws, never hangs). */
import { MESSAGES } from './form-rules';

/** What an island gets back: HTTP `status` (0: unreachable), French `message`, `fields` (name → message), JSON `body` ({} if none). */
export interface SubmitResult {
  ok: boolean;
  status: number;
  message: string;
  fields: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * POSTs `payload` as JSON to `url`, waiting at most 15 s (the endpoints answer within 10 s). Message: the endpoint's,
 * else MESSAGES.tooManyRequests on 429, `unavailable` if given, or ours by status; MESSAGES.network when unreachable.
 */
export async function postJson(url: string, payload: unknown, unavailable?: string): Promise<SubmitResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    return { ok: false, status: 0, message: MESSAGES.network, fields: {}, body: {} };
  }
  // A proxy's HTML error page, for instance, has no JSON: then our own words.
  const json: unknown = await response.json().catch(() => null);
  const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const fallback =
    response.status === 429
      ? MESSAGES.tooManyRequests
      : (unavailable ?? (response.status >= 500 ? MESSAGES.unavailable : MESSAGES.badRequest));
  const message = typeof body.message === 'string' && body.message ? body.message : response.ok ? '' : fallback;
  return {
    ok: response.ok,
    status: response.status,
    message,
    fields: (body.fields as Record<string, string> | undefined) ?? {},
    body,
  };
}

/**
 * Submission keys of one form (the `envoi` field): `keyFor(payload)` returns the previous key while the payload
 * is the same (a retry after a failure), a new UUID when it changed; `forget()` after a success.
 */
export function submissionKeys(): { keyFor(payload: unknown): string; forget(): void } {
  let last: { content: string; key: string } | undefined;
  return {
    keyFor(payload) {
      const content = JSON.stringify(payload);
      if (last?.content !== content) last = { content, key: randomUuid() };
      return last.key;
    },
    forget() {
      last = undefined;
    },
  };
}

/** A random UUID v4; crypto.randomUUID() exists only on https or localhost (not `npm start` seen from a phone). */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const random = crypto.getRandomValues(new Uint8Array(31));
  let index = 0;
  // x: any hex digit; y: the variant (8, 9, a or b).
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (digit) =>
    ((digit === 'x' ? random[index++]! : (random[index++]! & 3) | 8) & 15).toString(16),
  );
}
