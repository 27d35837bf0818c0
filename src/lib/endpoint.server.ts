/**
 * The shared machinery of the two write endpoints (POST /api/newsletter,
 * POST /api/preinscription): read a bounded body, tell a fetch from the
 * islands (JSON in, JSON out) from a plain HTML form POST (form in, 303
 * redirect to an outcome fragment out), re-validate with the shared zod
 * schema, honour the honeypot, write one document, and answer in French
 * without leaking any internals (errors are logged server-side).
 *
 * Statuses: 200 written (or honeypot), 400 invalid, 404 a non-canonical
 * path (`/api/newsletter/`, `/api/%6Eewsletter`), 405 not POST, 413 body over
 * MAX_BODY_BYTES, 415 neither JSON nor a form, 503 database unavailable,
 * 500 unexpected. Form POSTs get 303 instead, with Location = outcomeLocation().
 *
 * The donation endpoints (src/pages/api/don.ts, src/pages/create-checkout-session.ts,
 * src/pages/api/stripe-webhook.ts) reuse the lower-level helpers exported
 * here: readBoundedBody, readJsonObject, jsonResponse, methodNotAllowedFor.
 */
import type { APIContext } from 'astro';
import type * as z from 'zod/mini';
import {
  consentText,
  fieldErrors,
  firstError,
  formDataToPayload,
  HONEYPOT_FIELD,
  MAX_BODY_BYTES,
  MESSAGES,
  SUBMISSION_KEY_FIELD,
} from './forms';
import { outcomeForField, outcomeLocation, type FormName, type Outcome } from './outcomes';
import { addSubmission, SubmissionUnavailableError, type SubmissionCollection } from './submissions.server';

/** JSON body of every answer to a JSON request. */
export interface SubmissionResponse {
  /** true when the submission was accepted. */
  ok: boolean;
  /** French message for the visitor (the banner text). */
  message: string;
  /** On a 400: field name → French message (`_form` for unknown fields). */
  fields?: Record<string, string>;
}

/** The part of Astro's APIContext the handlers use (tests pass just `{ request }`). */
export type EndpointContext = Pick<APIContext, 'request'>;

/** An endpoint handler: any APIContext (or `{ request }`) in, a Response out. */
export type EndpointHandler = (context: EndpointContext) => Promise<Response>;

/** What a write endpoint is made of. */
export interface SubmissionEndpointOptions {
  /** Which form posts here (chooses the redirect page, the fragments and the consent wordings). */
  form: FormName;
  /** The route's only accepted path, e.g. `/api/newsletter` (the rate limit is keyed on it). */
  path: string;
  /** Firestore collection that receives one document per valid submission. */
  collection: SubmissionCollection;
  /** The shared schema (src/lib/forms.ts), strict: unknown fields are refused. */
  schema: z.ZodMiniType<Record<string, unknown>>;
  /** French message of a successful submission. */
  successMessage: string;
}

/** Raised by readBoundedBody when the body exceeds its limit. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Reads a request body, refusing it as soon as it exceeds `maxBytes`: a
 * declared Content-Length over the limit fails before reading, and the stream
 * is counted as it arrives (a lying or missing Content-Length does not help),
 * then cancelled past the limit.
 * @param maxBytes - limit in bytes (default MAX_BODY_BYTES, 16 384).
 * @returns the body bytes (empty for a request without body).
 * @throws BodyTooLargeError past the limit; the stream's own error if it fails.
 */
export async function readBoundedBody(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new BodyTooLargeError(`Content-Length ${declared} > ${maxBytes} bytes`);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(`body over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** How the request was sent, from its Content-Type. */
type BodyKind = 'json' | 'form' | 'other';

function bodyKind(request: Request): BodyKind {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return 'form';
  return 'other';
}

/** A body that is not a JSON object or a text-only form. */
export class UnreadableBodyError extends Error {
  override name = 'UnreadableBodyError';
}

/** True when the request says it carries JSON (`application/json`, any charset). */
export function isJsonRequest(request: Request): boolean {
  return bodyKind(request) === 'json';
}

/** Parses UTF-8 bytes as a JSON object (not an array, not null). @throws UnreadableBodyError. */
function parseJsonObject(body: Uint8Array<ArrayBuffer>): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw new UnreadableBodyError('invalid JSON', { cause: error });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UnreadableBodyError('not an object');
  return value as Record<string, unknown>;
}

/**
 * Reads a bounded body (readBoundedBody) and parses it as a JSON object.
 * @param maxBytes - limit in bytes (default MAX_BODY_BYTES, 16 384).
 * @returns the object, unvalidated (validate it with the payload's zod schema).
 * @throws BodyTooLargeError past the limit; UnreadableBodyError for bad UTF-8,
 *   bad JSON or JSON that is not an object (the stream's own error if it fails).
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBoundedBody(request, maxBytes));
}

/** Parses the bytes as a JSON object or a form (formDataToPayload). @throws UnreadableBodyError. */
async function parsePayload(
  request: Request,
  kind: BodyKind,
  body: Uint8Array<ArrayBuffer>,
): Promise<Record<string, unknown>> {
  if (kind === 'json') return parseJsonObject(body);
  let form: FormData;
  try {
    const headers = { 'content-type': request.headers.get('content-type') ?? '' };
    form = await new Response(body, { headers }).formData();
  } catch (error) {
    throw new UnreadableBodyError('invalid form body', { cause: error });
  }
  // Our forms have no file inputs; formDataToPayload would drop files silently.
  for (const value of form.values()) if (typeof value !== 'string') throw new UnreadableBodyError('file in form');
  return formDataToPayload(form);
}

/** True when the hidden honeypot field holds anything (a person never fills it). */
function honeypotFilled(payload: Record<string, unknown>): boolean {
  const value = payload[HONEYPOT_FIELD];
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/** Field with a "required" message (a missing or non-string value says that rather than zod's English). */
function isRequiredField(field: unknown): field is keyof typeof MESSAGES.required {
  return typeof field === 'string' && Object.hasOwn(MESSAGES.required, field);
}

/**
 * French messages for the issues the shared schema leaves to zod's (English)
 * defaults: a missing or non-string value of a text field (the field's
 * "required" message, the country message for `pays`), an over-long honeypot.
 * Schema-level messages take precedence over this per-parse map.
 */
const frenchFallback = (issue: { code?: string; path?: PropertyKey[]; maximum?: unknown }): string => {
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') return MESSAGES.tooLong(issue.maximum);
  const field = issue.path?.[0];
  if (isRequiredField(field)) return MESSAGES.required[field];
  if (field === 'pays') return MESSAGES.countryUnknown;
  return MESSAGES.badRequest;
};

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * A JSON answer that no cache keeps (`Cache-Control: no-store`).
 * @param status - HTTP status.
 * @param body - serialised with JSON.stringify.
 * @param headers - extra headers (e.g. `allow`, `retry-after`).
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

function json(status: number, body: SubmissionResponse, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, body, headers);
}

function redirect(form: FormName, outcome: Outcome): Response {
  return new Response(null, { status: 303, headers: { location: outcomeLocation(form, outcome), ...NO_STORE } });
}

/**
 * A handler answering 405 `{ok: false, message}` with `Allow: <allow>`, for
 * every method a route does not take (export it as the route's `ALL`).
 */
export function methodNotAllowedFor(allow: 'GET' | 'POST'): EndpointHandler {
  return async () => json(405, { ok: false, message: MESSAGES.badRequest }, { allow });
}

/** 405 for every method but POST (HEAD, GET, OPTIONS, PUT...), with `Allow: POST`. */
export const methodNotAllowed: EndpointHandler = methodNotAllowedFor('POST');

/**
 * 404 for a request whose path is not exactly `path` (trailing slash, percent-encoded letters,
 * doubled slashes, other case): Astro routes such spellings to the same endpoint, but the rate
 * limit (netlify/edge-functions/rate-limit.ts) is declared on paths, so only one spelling is served.
 * @returns the 404 answer, or undefined when the path is canonical.
 */
export function nonCanonicalPath(request: Request, path: string): Response | undefined {
  if (new URL(request.url).pathname === path) return undefined;
  return jsonResponse(404, { ok: false, message: MESSAGES.notFound });
}

/**
 * Builds the handlers of a write endpoint (see module doc for the statuses).
 * @returns `POST` (the submission) and `ALL` (405 for any other method), to
 *   re-export from the route module.
 */
export function createSubmissionEndpoint(options: SubmissionEndpointOptions): {
  POST: EndpointHandler;
  ALL: EndpointHandler;
} {
  const { form, path, collection, schema, successMessage } = options;

  async function POST({ request }: EndpointContext): Promise<Response> {
    const refused = nonCanonicalPath(request, path);
    if (refused) return refused;
    const kind = bodyKind(request);
    const fromForm = kind === 'form';
    const success = () => (fromForm ? redirect(form, 'ok') : json(200, { ok: true, message: successMessage }));
    const unreadable = (status: number, message: string) =>
      fromForm ? redirect(form, 'champs') : json(status, { ok: false, message });
    const unavailable = (status: number) =>
      fromForm
        ? redirect(form, 'indisponible')
        : json(status, { ok: false, message: MESSAGES.unavailable }, status === 503 ? { 'retry-after': '60' } : {});

    try {
      if (kind === 'other') return unreadable(415, MESSAGES.badRequest);

      let payload: Record<string, unknown>;
      try {
        payload = await parsePayload(request, kind, await readBoundedBody(request));
      } catch (error) {
        if (error instanceof BodyTooLargeError) return unreadable(413, MESSAGES.tooLarge);
        return unreadable(400, MESSAGES.badRequest);
      }

      // A bot gets exactly what a person gets, and nothing is written.
      if (honeypotFilled(payload)) return success();

      const result = schema.safeParse(payload, { error: frenchFallback });
      if (!result.success) {
        if (fromForm) return redirect(form, outcomeForField(firstField(result.error)));
        return json(400, { ok: false, message: firstError(result.error), fields: fieldErrors(result.error) });
      }

      const data = { ...result.data };
      const key = data[SUBMISSION_KEY_FIELD];
      delete data[HONEYPOT_FIELD];
      delete data[SUBMISSION_KEY_FIELD];
      // Proof of consent (RGPD art. 7): the wording's version the visitor saw, and its text.
      data.consentementTexte = consentText(form, data.consentementVersion) ?? '';
      await addSubmission(collection, data, typeof key === 'string' ? { id: key } : {});
      return success();
    } catch (error) {
      console.error(`[api/${form}] submission not saved:`, error);
      return unavailable(error instanceof SubmissionUnavailableError ? 503 : 500);
    }
  }

  async function ALL(context: EndpointContext): Promise<Response> {
    return nonCanonicalPath(context.request, path) ?? methodNotAllowed(context);
  }

  return { POST, ALL };
}

/** Name of the first invalid field (undefined for an error about the whole form, e.g. unknown fields). */
function firstField(error: z.core.$ZodError): string | undefined {
  const field = error.issues[0]?.path[0];
  return typeof field === 'string' ? field : undefined;
}
