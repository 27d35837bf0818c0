/** The on-demand endpoints' machinery (bounded bodies, JSON answers, HttpError → answer, 405) and the forms' write endpoints. */
import type { APIContext } from 'astro';
import {
  consentText,
  fieldErrors,
  firstError,
  formDataToPayload,
  HONEYPOT_FIELD,
  MAX_BODY_BYTES,
  MESSAGES,
  newsletterSchema,
  preRegistrationSchema,
  type FormName,
} from '../features/forms/forms';
import { OUTCOMES, outcomeLocation, type Outcome } from '../features/forms/outcomes';
import { addSubmission } from '../features/forms/submissions.server';
import { HttpError } from './http-error.server';

/** The part of Astro's APIContext the handlers use (tests pass just `{ request }`). */
export type EndpointContext = Pick<APIContext, 'request'>;

/** An endpoint handler: any APIContext (or `{ request }`) in, a Response out. */
export type EndpointHandler = (context: EndpointContext) => Promise<Response>;

const badBody = (cause?: unknown) => new HttpError(400, MESSAGES.badRequest, { cause });
const tooLarge = () => new HttpError(413, MESSAGES.tooLarge);

/** Reads a body of at most `maxBytes` bytes (default 16 384), counted as it streams in. @throws HttpError 413 past the limit, 400 when the stream fails. */
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
function mediaType(request: Request): string | undefined {
  return request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
}

/** True when the request says it carries JSON (`application/json`, any charset). */
export function isJsonRequest(request: Request): boolean {
  return mediaType(request) === 'application/json';
}

/** Reads a bounded body (readBoundedBody) as an unvalidated UTF-8 JSON object. @throws HttpError 413, or 400 for anything but an object. */
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

/** Reads a bounded form body as a payload (formDataToPayload). @throws HttpError 413, or 400 for an unreadable form or a file (our forms have none). */
async function readFormPayload(request: Request): Promise<Record<string, unknown>> {
  const body = new Response(await readBoundedBody(request), { headers: request.headers });
  const form = await body.formData().catch((error: unknown) => {
    throw badBody(error);
  });
  if ([...form.values()].some((value) => typeof value !== 'string')) throw badBody();
  return formDataToPayload(form);
}

/** A JSON answer (`body` through JSON.stringify) with `status`, extra `headers`, and `Cache-Control: no-store`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
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

/** The JSON answer `{ok: false, message}` to a failure, logged under `route`: an HttpError's status, message and headers; else 500 with `fallback`. */
export function errorResponse(route: string, error: unknown, fallback: string = MESSAGES.unavailable): Response {
  const log = error instanceof HttpError && error.status < 500 ? console.warn : console.error;
  log(`[${route}] ${describeFailure(error)}`);
  if (!(error instanceof HttpError)) return jsonResponse(500, { ok: false, message: fallback });
  return jsonResponse(error.status, { ok: false, message: error.message }, error.headers);
}

/** A handler answering 405 `{ok: false, message}` with `Allow: <allow>`: the route's `ALL`. */
export function methodNotAllowedFor(allow: 'GET' | 'POST', message: string = MESSAGES.badRequest): EndpointHandler {
  return async () => jsonResponse(405, { ok: false, message }, { allow });
}

/** Each form's collection (spec §7: `inscripitions`, so spelled in the database) and schema. */
const FORMS = {
  newsletter: { collection: 'newsletter', schema: newsletterSchema },
  preinscription: { collection: 'inscripitions', schema: preRegistrationSchema },
} as const;

/** `/api/<form>`: `POST` (JSON 200/400/415, form 303 to an outcome) stores one document with its consent text; `ALL` 405; 404 off the exact path; 413, 503. */
export function submissionEndpoint(form: FormName): { POST: EndpointHandler; ALL: EndpointHandler } {
  const { collection, schema } = FORMS[form];
  // Astro routes other spellings (`/api/newsletter/`, `%6E`, case) here too; the rate limit is keyed on exact paths.
  const notFound = (request: Request) =>
    new URL(request.url).pathname === `/api/${form}`
      ? undefined
      : jsonResponse(404, { ok: false, message: MESSAGES.notFound });
  const redirect = (outcome: Outcome) =>
    new Response(null, {
      status: 303,
      headers: { location: outcomeLocation(form, outcome), 'cache-control': 'no-store' },
    });

  async function POST({ request }: EndpointContext): Promise<Response> {
    const type = mediaType(request);
    const fromForm = type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
    const done = () => (fromForm ? redirect('ok') : jsonResponse(200, { ok: true, message: OUTCOMES[form].ok }));
    try {
      const refused = notFound(request);
      if (refused) return refused;
      if (!fromForm && type !== 'application/json') throw new HttpError(415, MESSAGES.badRequest);
      const payload = fromForm ? await readFormPayload(request) : await readJsonObject(request);
      // A bot gets exactly what a person gets, and nothing is written.
      if (String(payload[HONEYPOT_FIELD] ?? '').trim()) return done();
      const result = schema.safeParse(payload);
      if (!result.success) {
        const field = result.error.issues[0]?.path[0];
        if (fromForm) return redirect(field === 'email' || field === 'consentement' ? field : 'champs');
        return jsonResponse(400, { ok: false, message: firstError(result.error), fields: fieldErrors(result.error) });
      }
      const { envoi, [HONEYPOT_FIELD]: _bot, ...data } = result.data;
      // Proof of consent (RGPD art. 7): the version of the wording the visitor saw, and its text.
      await addSubmission(
        collection,
        { ...data, consentementTexte: consentText(form, data.consentementVersion) },
        { id: envoi },
      );
      return done();
    } catch (error) {
      const answer = errorResponse(`api/${form}`, error);
      return fromForm ? redirect(answer.status < 500 ? 'champs' : 'indisponible') : answer;
    }
  }

  const ALL: EndpointHandler = async ({ request }) => notFound(request) ?? methodNotAllowedFor('POST')({ request });
  return { POST, ALL };
}
