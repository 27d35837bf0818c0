/**
 * The forms' endpoints (docs/endpoints.md): each validates a submission and stores it with its mails queued, within
 * bounds (bounded-write.server.ts): a pre-registration as one document under its submission key, a newsletter address
 * through its double opt-in (newsletter-subscription.server.ts); then the mails get a first try.
 */
import { createHash } from 'node:crypto';
import {
  errorResponse,
  isFormRequest,
  isJsonRequest,
  jsonResponse,
  methodNotAllowedFor,
  readFormObject,
  readJsonObject,
  seeOther,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HTTP_MESSAGES, HttpError, unsupportedMediaType } from '../../lib/http';
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
  type PreRegistrationPayload,
} from './forms';
import { addSubmission, boundedWrite } from './bounded-write.server';
import { OUTCOMES, outcomeLocation, type Outcome } from './outcomes';
import { subscribe } from '../newsletter/subscription.server';
import { preRegistrationMails } from '../mail/mails.server';
import { mailIdentity, siteMailSettings, trySend } from '../mail/mail-env.server';

/**
 * The reference a family is given for the pre-registration `id`: 8 digits in two groups (« 4829 1375 »), read aloud
 * easily, derived from the id (a retry gets the same). Not unique by construction (one chance in 100 million per
 * pair): staff find a request by it, the document id stays the key.
 */
export function preRegistrationReference(id: string): string {
  const digits = String(createHash('sha256').update(id).digest().readUInt32BE(0) % 100_000_000).padStart(8, '0');
  return `${digits.slice(0, 4)} ${digits.slice(4)}`;
}

/** Time an endpoint gives its mails after its write, in ms: the answer never waits past ANSWER_WITHIN_MS. */
const MAIL_WAIT_MS = 3000;
/** The latest an endpoint answers after the request came in, in ms (Netlify stops a function at 10 s). */
const ANSWER_WITHIN_MS = 9500;

const receivedAtText = (date: Date) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(date);

/** Stores a valid pre-registration and queues its two mails (mail feature); returns the outbox ids. */
async function storePreRegistration(
  data: Omit<PreRegistrationPayload, 'envoi' | typeof HONEYPOT_FIELD> & { consentementTexte?: string },
  id: string,
): Promise<string[]> {
  const reference = preRegistrationReference(id);
  const mails = await preRegistrationMails({
    identity: await mailIdentity(),
    submissionId: id,
    reference,
    parentFirstName: data.parentPrenom,
    childFirstName: data.enfantPrenom,
    parentEmail: data.email,
    staffEmail: siteMailSettings().staff,
    receivedAt: receivedAtText(new Date()),
  });
  await addSubmission('inscripitions', id, { ...data, reference }, { mails });
  return mails.map((mail) => mail.id);
}

/**
 * The submission key of a payload sent without one (a form without JavaScript, a script): a UUID-shaped digest
 * (SHA-256) of the form and its validated content. Sending the same content again finds the first document, so a
 * retry after a timeout never makes a second one; an identical submission is recorded once (docs/endpoints.md).
 */
export function contentKey(form: FormName, data: Record<string, unknown>): string {
  const entries = Object.entries(data).sort(([a], [b]) => (a < b ? -1 : 1));
  const hex = createHash('sha256')
    .update(JSON.stringify([form, entries]))
    .digest('hex');
  // RFC 9562 version 8 (custom) and variant bits, so that it reads as the UUIDs the islands send.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const groups = [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `8${hex.slice(13, 16)}`,
    variant + hex.slice(17, 20),
    hex.slice(20, 32),
  ];
  return groups.join('-');
}

/** Each form's schema (the collections, spec §7: `newsletter` and `inscripitions`, so spelled in the database). */
const FORMS = { newsletter: newsletterSchema, preinscription: preRegistrationSchema } as const;

/** The no-JavaScript outcome of a failure answered `answer`. */
function failureOutcome(error: unknown, answer: Response): Outcome {
  if (answer.status < 500) return 'champs';
  return error instanceof HttpError && error.message === HTTP_MESSAGES.maybeRecorded ? 'peutetre' : 'indisponible';
}

/**
 * `/api/<form>`: `POST` (JSON 200 `{ok, message}` plus a pre-registration's `reference`, 400/415; form 303 to an
 * outcome) stores one document with its consent text; `ALL`
 * 405; 404 off the exact path; 413, 503 (docs/endpoints.md).
 */
export function submissionEndpoint(form: FormName): { POST: EndpointHandler; ALL: EndpointHandler } {
  const schema = FORMS[form];
  // Astro routes other spellings (`/api/newsletter/`, `%6E`, case) here too; the rate limit is keyed on exact paths.
  const notFound = (request: Request) =>
    new URL(request.url).pathname === `/api/${form}`
      ? undefined
      : jsonResponse(404, { ok: false, message: HTTP_MESSAGES.notFound });
  const redirect = (outcome: Outcome) => seeOther(outcomeLocation(form, outcome));

  async function POST({ request }: EndpointContext): Promise<Response> {
    const started = Date.now();
    const fromForm = isFormRequest(request);
    // A pre-registration's answer carries the reference of its acknowledgement mail, for the confirmation panel.
    const done = (key?: string) =>
      fromForm
        ? redirect('ok')
        : jsonResponse(200, {
            ok: true,
            message: OUTCOMES[form].ok,
            ...(form === 'preinscription' && key && { reference: preRegistrationReference(key) }),
          });
    try {
      const refused = notFound(request);
      if (refused) return refused;
      if (!fromForm && !isJsonRequest(request)) throw unsupportedMediaType();
      const payload = fromForm ? formDataToPayload(await readFormObject(request)) : await readJsonObject(request);
      // A bot gets exactly what a person gets, and nothing is written.
      if (String(payload[HONEYPOT_FIELD] ?? '').trim()) return done(String(payload.envoi ?? '') || crypto.randomUUID());
      const result = schema.safeParse(payload);
      if (!result.success) {
        const [issue] = result.error.issues;
        const field = issue?.path[0];
        if (fromForm && issue?.message === MESSAGES.personName) return redirect('nom');
        if (fromForm && form === 'preinscription' && field === 'telephone') return redirect('telephone');
        if (fromForm && form === 'preinscription' && field === 'enfantNaissance') return redirect('naissance');
        if (fromForm) return redirect(field === 'email' || field === 'consentement' ? field : 'champs');
        return jsonResponse(400, { ok: false, message: firstError(result.error), fields: fieldErrors(result.error) });
      }
      const { envoi, [HONEYPOT_FIELD]: _bot, ...data } = result.data;
      // Proof of consent (RGPD art. 7): the version of the wording the visitor saw, and its text.
      const stored = { ...data, consentementTexte: consentText(form, data.consentementVersion) };
      // `FORMS[form]` is a union TypeScript resolves to the newsletter's schema: the form names the real one.
      const key = envoi ?? contentKey(form, data);
      const queued =
        form === 'preinscription'
          ? await storePreRegistration(stored as unknown as Parameters<typeof storePreRegistration>[0], key)
          : await boundedWrite('newsletter', async () =>
              subscribe(adminFirestore(), stored, { identity: await mailIdentity(), now: Date.now() }),
            );
      // The mails are safe in the outbox: a first try now, bounded; the scheduled drain does the rest.
      await trySend(queued ?? [], Math.min(MAIL_WAIT_MS, ANSWER_WITHIN_MS - (Date.now() - started)));
      return done(key);
    } catch (error) {
      const answer = errorResponse(`api/${form}`, error);
      return fromForm ? redirect(failureOutcome(error, answer)) : answer;
    }
  }

  const ALL: EndpointHandler = async ({ request }) => notFound(request) ?? methodNotAllowedFor('POST')({ request });
  return { POST, ALL };
}
