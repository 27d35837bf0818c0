/** The forms' writes to Firestore with firebase-admin (docs/firestore.md): one document per submission, bounded in time and number. */
import { FieldValue } from 'firebase-admin/firestore';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';
import { MESSAGES } from './form-rules';

/** Unsettled writes beyond which a new one is refused unwritten: queued behind a saturated database it would be answered 503, then land. */
export const MAX_WRITES_IN_FLIGHT = 64;

/** How many writes of this process are started and not yet settled (one given up after its timeout still counts). */
export let writesInFlight = 0;

/** HttpError 503 MESSAGES.unavailable (`Retry-After: 60` seconds) for a write that did not happen; `what` goes to the log. */
export function unavailable(what: string, cause?: unknown): HttpError {
  return new HttpError(503, MESSAGES.unavailable, {
    headers: { 'retry-after': '60' },
    cause: new Error(what, { cause }),
  });
}

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
