/** The on-demand endpoints' machinery: bounded bodies, JSON answers, HttpError → answer, 405 (wording: ./http.ts). */
import type { APIContext } from 'astro';
import { badRequest, HTTP_MESSAGES, HttpError, tooLarge } from './http';

/** Largest accepted request body by default, in bytes (HTTP 413 above). */
export const MAX_BODY_BYTES = 16_384;

/** The part of Astro's APIContext the handlers use (tests pass just `{ request }`). */
export type EndpointContext = Pick<APIContext, 'request'>;

/** An endpoint handler: any APIContext (or `{ request }`) in, a Response out. */
export type EndpointHandler = (context: EndpointContext) => Promise<Response>;

/** HttpError 400 HTTP_MESSAGES.badRequest for a body that cannot be read (`cause` for the log). */
export const badBody = (cause?: unknown) => badRequest('unreadable body', cause);

/**
 * Reads a body of at most `maxBytes` bytes (MAX_BODY_BYTES), counted as it streams in.
 * @throws HttpError 413 past the limit, 400 when the stream fails.
 */
export async function readBoundedBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length')) > maxBytes) throw tooLarge();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  try {
    // Leaving the loop early cancels the stream: nothing past the limit is read.
    for await (const chunk of request.body ?? []) {
      total += chunk.byteLength;
      if (total > maxBytes) break;
      chunks.push(chunk);
    }
  } catch (error) {
    throw badBody(error);
  }
  if (total > maxBytes) throw tooLarge();
  return new Blob(chunks).bytes();
}

/** The request's media type, lower-cased, without parameters (`application/json`). */
export function mediaType(request: Request): string | undefined {
  return request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
}

/** True when the request says it carries JSON (`application/json`, any charset). */
export function isJsonRequest(request: Request): boolean {
  return mediaType(request) === 'application/json';
}

/** True when the request is an HTML form's post (`application/x-www-form-urlencoded` or `multipart/form-data`). */
export function isFormRequest(request: Request): boolean {
  const type = mediaType(request);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

/**
 * Reads a bounded form body (readBoundedBody) as its unvalidated fields, each a string (a repeated name: its last value).
 * @throws HttpError 413, or 400 for an unreadable body or a file.
 */
export async function readFormObject(request: Request): Promise<Record<string, string>> {
  const body = new Response(await readBoundedBody(request), { headers: request.headers });
  const form = await body.formData().catch((error: unknown) => {
    throw badBody(error);
  });
  if ([...form.values()].some((value) => typeof value !== 'string')) throw badBody();
  // Own properties whatever the names (`__proto__` included), for the schema to refuse what it does not know.
  return Object.fromEntries(form) as Record<string, string>;
}

/**
 * Reads a bounded body (readBoundedBody) as an unvalidated UTF-8 JSON object.
 * @throws HttpError 413, or 400 for anything but an object.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const body = await readBoundedBody(request);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw badBody(error);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badBody();
  return value as Record<string, unknown>;
}

/** A 303 See Other to `location` (a form post's next page: an outcome's fragment, a payment page), `no-store`. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

/** A JSON answer (`body` through JSON.stringify) with `status`, extra `headers`, and `Cache-Control: no-store`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * A PDF download: `pdf` (bytes) offered as the attachment `fileName`, private and never stored by a cache, never
 * indexed.
 */
export function pdfResponse(pdf: Uint8Array, fileName: string): Response {
  return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex',
    },
  });
}

/** One log line of an error chain (name, Stripe's type/code/status/request id, message), no data, no key. */
function describeFailure(error: unknown): string {
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
 * The JSON answer `{ok: false, message}` to a failure, logged under `route`: an HttpError's status, message and
 * headers; else 500 with `fallback`.
 */
export function errorResponse(route: string, error: unknown, fallback: string = HTTP_MESSAGES.unavailable): Response {
  const log = error instanceof HttpError && error.status < 500 ? console.warn : console.error;
  log(`[${route}] ${describeFailure(error)}`);
  if (!(error instanceof HttpError)) return jsonResponse(500, { ok: false, message: fallback });
  return jsonResponse(error.status, { ok: false, message: error.message }, error.headers);
}

/** A handler answering 405 `{ok: false, message}` with `Allow: <allow>`: the route's `ALL`. */
export function methodNotAllowedFor(
  allow: 'GET' | 'POST',
  message: string = HTTP_MESSAGES.badRequest,
): EndpointHandler {
  return async () => jsonResponse(405, { ok: false, message }, { allow });
}
