/**
 * HTTP wording and errors, in one place: the French messages of the generic answers (400, 404, 413, 429, 503, no
 * network), the HttpError every endpoint throws, and its factories. Browser-safe: the islands show the same words
 * when an answer has none of its own.
 */

/** Every generic message a visitor can get from an endpoint or about the network, whatever the form or feature. */
export const HTTP_MESSAGES = {
  /** HTTP 400 (and 405, 415): a request no form of the site sends. */
  badRequest: 'La demande est illisible. Merci de réessayer depuis le formulaire.',
  /** HTTP 404: an address that is not exactly the endpoint's. */
  notFound: 'Cette adresse n’existe pas. Merci d’utiliser le formulaire du site.',
  /** HTTP 413: a body over the endpoint's limit. */
  tooLarge: 'La demande est trop volumineuse',
  /** HTTP 429 (netlify/edge-functions/rate-limit.ts). */
  tooManyRequests:
    'Trop de demandes en peu de temps. Patientez une minute, puis réessayez : ce que vous avez saisi est conservé.',
  /** HTTP 503 for a read, or a write refused before it was sent: nothing was recorded. */
  unavailable:
    'Le service est momentanément indisponible. Vos informations n’ont pas été enregistrées : merci de réessayer ' +
    'dans quelques minutes.',
  /**
   * HTTP 503 for a write sent to the database that did not confirm in time (it may land later): a retry carries the
   * same submission key, so it never records the information twice (docs/endpoints.md).
   */
  maybeRecorded:
    'Le service a mis trop de temps à répondre : vos informations ont peut-être déjà été enregistrées. Vous ' +
    'pouvez réessayer sans crainte, elles ne seront pas enregistrées deux fois.',
  /** The browser could not reach our server at all. */
  network: 'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.',
} as const;

/**
 * A failure with its answer: HTTP `status`, the visitor's French `message`, extra `headers`; `cause` is for the log.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, options: ErrorOptions & { headers?: Record<string, string> } = {}) {
    super(message, { cause: options.cause });
    this.status = status;
    this.headers = options.headers ?? {};
  }
}

/** The log's side of an error: `why` (never shown to the visitor) with the original `cause`. */
const because = (why: string | undefined, cause: unknown) => (why ? new Error(why, { cause }) : cause);

/** HttpError 400 with `message` (HTTP_MESSAGES.badRequest); `why` and `cause` go to the log. */
export function badRequest(why?: string, cause?: unknown, message: string = HTTP_MESSAGES.badRequest): HttpError {
  return new HttpError(400, message, { cause: because(why, cause) });
}

/** HttpError 413 HTTP_MESSAGES.tooLarge. */
export function tooLarge(): HttpError {
  return new HttpError(413, HTTP_MESSAGES.tooLarge);
}

/** HttpError 415 HTTP_MESSAGES.badRequest: a body in a media type the endpoint does not read. */
export function unsupportedMediaType(): HttpError {
  return new HttpError(415, HTTP_MESSAGES.badRequest);
}

/** HttpError 502 with `message`: a provider (Stripe) failed or was too slow; `why` and `cause` go to the log. */
export function badGateway(message: string, why: string, cause?: unknown): HttpError {
  return new HttpError(502, message, { cause: because(why, cause) });
}

/**
 * HttpError 503 with `message` (HTTP_MESSAGES.unavailable: nothing recorded) and, given `retryAfterSeconds`, a
 * `Retry-After` header; `why` and `cause` go to the log.
 */
export function unavailable(
  why: string,
  cause?: unknown,
  { message = HTTP_MESSAGES.unavailable, retryAfterSeconds }: { message?: string; retryAfterSeconds?: number } = {},
): HttpError {
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
  return new HttpError(503, message, { headers, cause: because(why, cause) });
}
