/**
 * The forms' writes to Firestore with firebase-admin, bounded in time (8 s by default) and in number (refused unstarted
 * past MAX_WRITES_IN_FLIGHT unsettled writes per process): boundedWrite, and addSubmission, which creates one document
 * per submission under its submission key with its mails queued in the same batch (docs/firestore.md).
 */
import { FieldValue } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HTTP_MESSAGES, unavailable } from '../../lib/http';
import { enqueueMails } from '../mail/outbox.server';
import type { OutgoingMail } from '../mail/mail';

/**
 * Unsettled writes beyond which a new one is refused unwritten: queued behind a saturated database it would be
 * answered 503, then land.
 */
export const MAX_WRITES_IN_FLIGHT = 64;

/** How many writes of this process are started and not yet settled (one given up after its timeout still counts). */
export let writesInFlight = 0;

/**
 * gRPC codes by which Firestore refuses a write it did not apply (invalid, not allowed, quota…); any other failure
 * of a write that was sent, our own timeout first, may still have been applied.
 */
const REFUSED_UNWRITTEN = new Set([3, 5, 7, 8, 9, 11, 12, 16]);

/** True when `error`, a failed write, says the write may have been applied (or may be, later). */
function mayHaveLanded(error: unknown): boolean {
  if (error instanceof Error && error.name === 'TimeoutError') return true;
  const code = (error as { code?: unknown } | null)?.code;
  // Without a gRPC code the SDK refused the data before sending anything (an encoding error).
  return typeof code === 'number' && !REFUSED_UNWRITTEN.has(code);
}

/**
 * Runs `work` (a write named `what` in the log) within `timeoutMs` ms (8000), refused unstarted past `maxInFlight`
 * writes in flight; `accept(error)` true: not a failure (undefined is returned).
 * @throws HttpError 503: HTTP_MESSAGES.unavailable when nothing was written (too many writes in flight, data refused),
 *   HTTP_MESSAGES.maybeRecorded when the write was sent and not confirmed in time (it may land later).
 */
export async function boundedWrite<T>(
  what: string,
  work: () => Promise<T>,
  {
    timeoutMs = 8000,
    maxInFlight = MAX_WRITES_IN_FLIGHT,
    accept = () => false,
  }: { timeoutMs?: number; maxInFlight?: number; accept?: (error: unknown) => boolean } = {},
): Promise<T | undefined> {
  const refused = { retryAfterSeconds: 60 };
  if (writesInFlight >= maxInFlight) {
    throw unavailable(`${writesInFlight} writes in flight: ${what} not written`, undefined, refused);
  }
  // Data the SDK cannot encode throws at once, before anything is sent: a rejection like any other.
  const write = Promise.try(work);
  writesInFlight += 1;
  const settled = () => (writesInFlight -= 1);
  void write.then(settled, settled);
  try {
    return await withDeadline(write, timeoutMs);
  } catch (error) {
    if (accept(error)) return undefined;
    const message = mayHaveLanded(error) ? HTTP_MESSAGES.maybeRecorded : HTTP_MESSAGES.unavailable;
    throw unavailable(`Could not write ${what}`, error, { ...refused, message });
  }
}

/**
 * Creates `name/<id>` with `data` and `date` (the server's time) and queues `mails` (the mail feature's outbox) in the
 * same batch, within `timeoutMs` ms (8000). The `id` is the submission key: an existing document of that id is an
 * earlier attempt of the same submission (its mails with it), hence a success.
 * @throws HttpError 503 as boundedWrite.
 */
export async function addSubmission(
  name: 'newsletter' | 'inscripitions',
  id: string,
  data: Record<string, unknown>,
  {
    timeoutMs = 8000,
    maxInFlight = MAX_WRITES_IN_FLIGHT,
    mails = [],
  }: { timeoutMs?: number; maxInFlight?: number; mails?: OutgoingMail[] } = {},
): Promise<void> {
  const write = () => {
    const firestore = adminFirestore();
    const batch = firestore.batch();
    batch.create(firestore.collection(name).doc(id), { ...data, date: FieldValue.serverTimestamp() });
    enqueueMails(firestore, batch, mails);
    return batch.commit();
  };
  // gRPC 6 ALREADY_EXISTS: the document of this key is there.
  const accept = (error: unknown) => (error as { code?: unknown }).code === 6;
  await boundedWrite(`${name}/${id}`, write, { timeoutMs, maxInFlight, accept });
}
