/** The forms' endpoints and their writes to Firestore with firebase-admin (docs/firestore.md): one document per submission, bounded in time and number. */
import { FieldValue } from 'firebase-admin/firestore';
import { adminFirestore } from '../../lib/firebase-admin.server';
import {
  badBody,
  errorResponse,
  jsonResponse,
  mediaType,
  methodNotAllowedFor,
  readBoundedBody,
  readJsonObject,
  unavailable,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';
import {
  consentText,
  fieldErrors,
  firstError,
  formDataToPayload,
  HONEYPOT_FIELD,
  MESSAGES,
  newsletterSchema,
  preRegistrationSchema,
  type FormName,
} from './forms';
import { OUTCOMES, outcomeLocation, type Outcome } from './outcomes';

/** Unsettled writes beyond which a new one is refused unwritten: queued behind a saturated database it would be answered 503, then land. */
export const MAX_WRITES_IN_FLIGHT = 64;

/** How many writes of this process are started and not yet settled (one given up after its timeout still counts). */
export let writesInFlight = 0;

/** Creates `name/<id>` (random without `id`; an existing `id` is an earlier attempt: success) with `data` and `date`, within `timeoutMs` (8000). @throws HttpError 503. */
export async function addSubmission(
  name: 'newsletter' | 'inscripitions',
  data: Record<string, unknown>,
  {
    timeoutMs = 8000,
    maxInFlight = MAX_WRITES_IN_FLIGHT,
    id,
  }: { timeoutMs?: number; maxInFlight?: number; id?: string } = {},
): Promise<void> {
  if (writesInFlight >= maxInFlight) throw unavailable(`${writesInFlight} writes in flight: ${name} not written`);
  // Data the SDK cannot encode throws at once, before anything is sent: a rejection like any other.
  const write = Promise.try(() => {
    const collection = adminFirestore().collection(name);
    return (id ? collection.doc(id) : collection.doc()).create({ ...data, date: FieldValue.serverTimestamp() });
  });
  writesInFlight += 1;
  const settled = () => (writesInFlight -= 1);
  void write.then(settled, settled);
  try {
    await withDeadline(write, timeoutMs);
  } catch (error) {
    // gRPC 6 ALREADY_EXISTS: the document of this `id` is there.
    if (!id || (error as { code?: unknown }).code !== 6) throw unavailable(`Could not write to ${name}`, error);
  }
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
