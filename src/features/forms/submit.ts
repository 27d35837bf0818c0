/** Browser side of the write endpoints: POSTs JSON and always resolves to a result an island can show (never throws, never hangs). */
import { MESSAGES } from './form-rules';

/** What an island gets back from an endpoint. */
export interface SubmitResult {
  ok: boolean;
  /** HTTP status (0 when the server could not be reached). */
  status: number;
  /** French message to show (the endpoint's, or ours for network failures). */
  message: string;
  /** Field name → French message, for invalid fields. */
  fields: Record<string, string>;
  /** The endpoint's JSON answer ({} when none). */
  body: Record<string, unknown>;
}

/** Give up waiting for the server after this many milliseconds (the endpoints answer within 10 s). */
export const SUBMIT_TIMEOUT_MS = 15_000;

/**
 * POSTs `payload` as JSON to `url`: ok with the endpoint's message on 2xx; otherwise its French message,
 * MESSAGES.tooManyRequests on 429, `unavailable` (if given, for any other status) or ours by status,
 * MESSAGES.network when it cannot be reached within SUBMIT_TIMEOUT_MS.
 */
export async function postJson(url: string, payload: unknown, unavailable?: string): Promise<SubmitResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 0, message: MESSAGES.network, fields: {}, body: {} };
  }
  let body: Record<string, unknown> = {};
  try {
    const json: unknown = await response.json();
    if (json && typeof json === 'object') body = json as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page, for instance: fall back to our own words.
  }
  const message =
    typeof body.message === 'string' && body.message
      ? body.message
      : response.ok
        ? ''
        : response.status === 429
          ? MESSAGES.tooManyRequests
          : unavailable !== undefined
            ? unavailable
            : response.status >= 500
              ? MESSAGES.unavailable
              : MESSAGES.badRequest;
  const fields =
    body.fields && typeof body.fields === 'object'
      ? (body.fields as Record<string, string>)
      : ({} as Record<string, string>);
  return { ok: response.ok, status: response.status, message, fields, body };
}

/**
 * Submission keys for one form (the `envoi` field, src/features/forms/forms.ts): `keyFor(payload)` returns the
 * key of the previous call while the payload is the same (a retry after a failure), a new UUID when
 * it changed; `forget()` after a success, so that the next submission gets its own.
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
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
