/**
 * The write endpoints' machinery (POST /api/newsletter, /api/preinscription): bounded body, JSON or
 * form POST (303 to an outcome fragment), shared zod schema, honeypot, one document, French answers.
 * Statuses: 200, 303 (forms), 400, 404 non-canonical path, 405, 413, 415, 503, 500.
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
} from '../features/forms/forms';
import { outcomeForField, outcomeLocation, type FormName, type Outcome } from '../features/forms/outcomes';
import { HttpError } from './http-error.server';
import { addSubmission, type SubmissionCollection } from '../features/forms/submissions.server';

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
  /** The shared schema (src/features/forms/forms.ts), strict: unknown fields are refused. */
  schema: z.ZodMiniType<Record<string, unknown>>;
  /** French message of a successful submission. */
  successMessage: string;
}

/**
 * Reads a body of at most `maxBytes` bytes (default 16 384), counted as it streams in.
 * @throws HttpError 413 past the limit, 400 when the stream fails.
 */
export async function readBoundedBody(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw badBody(error);
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
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

const tooLarge = () => new HttpError(413, MESSAGES.tooLarge);
const badBody = (cause?: unknown) => new HttpError(400, MESSAGES.badRequest, { cause });

/** True when the request says it carries JSON (`application/json`, any charset). */
export function isJsonRequest(request: Request): boolean {
  return bodyKind(request) === 'json';
}

/** Parses UTF-8 bytes as a JSON object (not an array, not null). @throws HttpError 400. */
function parseJsonObject(body: Uint8Array<ArrayBuffer>): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw badBody(error);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badBody();
  return value as Record<string, unknown>;
}

/** Reads a bounded body (readBoundedBody) as an unvalidated JSON object. @throws HttpError 413 or 400. */
export async function readJsonObject(
  request: Request,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBoundedBody(request, maxBytes));
}

/** Parses the bytes as a JSON object or a form (formDataToPayload). @throws HttpError 400. */
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
    throw badBody(error);
  }
  // Our forms have no file inputs; formDataToPayload would drop files silently.
  for (const value of form.values()) if (typeof value !== 'string') throw badBody();
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

/** A JSON answer (`body` through JSON.stringify) with `status`, extra `headers`, and `Cache-Control: no-store`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/** One log line of an error chain (name, Stripe's type/code/status/request id, message), no data, no key. */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const { type, code, statusCode, requestId } = current as Error & Record<string, unknown>;
    const details = [type, code, statusCode, requestId].filter((value) => value != null).join(' ');
    parts.push(`${current.name}${details ? ` [${details}]` : ''}: ${current.message}`);
    current = current.cause;
  }
  return parts.join(' ← ') || String(error);
}

/**
 * The JSON answer `{ok: false, message}` to a failure, logged under `route`: an HttpError's own
 * status, message and headers; anything else (a bug) 500 with `fallback` (MESSAGES.unavailable).
 */
export function errorResponse(route: string, error: unknown, fallback: string = MESSAGES.unavailable): Response {
  const log = error instanceof HttpError && error.status < 500 ? console.warn : console.error;
  log(`[${route}] ${describeFailure(error)}`);
  if (!(error instanceof HttpError)) return jsonResponse(500, { ok: false, message: fallback });
  return jsonResponse(error.status, { ok: false, message: error.message }, error.headers);
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
    try {
      if (kind === 'other') throw new HttpError(415, MESSAGES.badRequest);
      const payload = await parsePayload(request, kind, await readBoundedBody(request));

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
      if (!fromForm) return errorResponse(`api/${form}`, error);
      const status = error instanceof HttpError ? error.status : 500;
      if (status >= 500) console.error(`[api/${form}] ${describeFailure(error)}`);
      return redirect(form, status < 500 ? 'champs' : 'indisponible');
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
