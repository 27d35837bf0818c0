/**
 * What every server module and page of the space shares around its Firestore work: the role check of a section
 * (the second one, after the guard's), the 8 s deadline with its French 503, and the French answer of a failure.
 */
import { HttpError } from '../../lib/http';
import { withDeadline } from '../../lib/deadline';
import type { StaffSession } from './auth.server';
import { ESPACE_MESSAGES } from './messages';
import { canOpen, type SectionName } from './roles';

/** Firestore calls of a page give up after 8 s (ms). */
const DEADLINE_MS = 8000;

/** @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session's roles open `section`. */
export function assertSection(
  session: StaffSession | undefined,
  section: SectionName,
): asserts session is StaffSession {
  if (!session || !canOpen(session.roles, section)) throw new HttpError(403, ESPACE_MESSAGES.forbidden);
}

/** Firestore work within 8 s; any failure but an HttpError as HttpError 503 ESPACE_MESSAGES.unavailable. */
export async function bounded<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await withDeadline(work, DEADLINE_MS);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: new Error(what, { cause: error }) });
  }
}

/**
 * A failure's HTTP status and French message (an HttpError's own, else 500 and `fallback`); logged under `tag`
 * unless it is a refusal or a bad request (status below 500) that the person is shown.
 */
export function failureOf(failure: unknown, tag: string, fallback: string = ESPACE_MESSAGES.unavailable) {
  const known = failure instanceof HttpError;
  if (!known || failure.status >= 500) console.error(tag, failure);
  return { status: known ? failure.status : 500, message: known ? failure.message : fallback };
}

/** failureOf as a plain-text answer (exports and form endpoints without a page of their own). */
export function failureResponse(failure: unknown, tag: string): Response {
  const { status, message } = failureOf(failure, tag, 'Une erreur est survenue.');
  return new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
