/**
 * Server writes to Firestore: the forms' documents with firebase-admin (docs/firestore.md), the
 * donation ledger's upsertDocument with the web SDK (one cached client).
 */
import { doc, runTransaction, type DocumentData, type Firestore, type Transaction } from 'firebase/firestore';
import { FieldValue, type Firestore as AdminFirestore } from 'firebase-admin/firestore';
import { adminFirestore, closeAdminFirestore } from '../../lib/firebase-admin.server';
import { MESSAGES } from './forms';
import {
  connectFirestore,
  firestoreTargetFromEnv,
  type FirestoreConnection,
  type FirestoreTarget,
} from '../../lib/firestore.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';

/** The collections the site writes to, named as in the database (spec §7: `inscripitions`, spelled so). */
export type SubmissionCollection = 'newsletter' | 'inscripitions';

/** Collections written by id (upsertDocument): `dons`, the donation ledger fed by Stripe's webhook. */
export type KeyedCollection = 'dons';

/** gRPC status of a create() whose document exists. */
const ALREADY_EXISTS = 6;

/** Give up a write after this many milliseconds (the endpoint must answer within 10 s). */
export const WRITE_TIMEOUT_MS = 8000;

/**
 * Writes of this process still running (answered or not) beyond which a new one is refused at
 * once, without writing: a write queued behind a saturated database would outlast the 8 s bound,
 * be answered 503 "not saved", and then land anyway.
 */
export const MAX_WRITES_IN_FLIGHT = 64;

/** Writes started and not yet settled (a write given up after the timeout counts until it settles). */
let writesInFlight = 0;

/** How many writes of this process are started and not yet settled (for tests and logs). */
export function unsettledWrites(): number {
  return writesInFlight;
}

/** HttpError 503 MESSAGES.unavailable (`Retry-After: 60`) for a write that did not happen; `what` goes to the log. */
export function unavailable(what: string, cause?: unknown): HttpError {
  return new HttpError(503, MESSAGES.unavailable, {
    headers: { 'retry-after': '60' },
    cause: new Error(what, { cause }),
  });
}

/** The cached connection and the configuration it was opened for. */
let cached: { connection: FirestoreConnection; key: string } | undefined;

function targetKey(target: FirestoreTarget): string {
  return JSON.stringify([target.projectId, target.apiKey, target.emulator?.host, target.emulator?.port]);
}

/** The process's connection, (re)opened when missing or when the environment names another database. */
function currentConnection(): FirestoreConnection {
  const target = firestoreTargetFromEnv();
  const key = targetKey(target);
  if (cached?.key !== key) {
    if (cached) void cached.connection.close();
    cached = { connection: connectFirestore(target), key };
  }
  return cached.connection;
}

/** Closes and forgets `connection` if it is still the cached one. */
async function dropConnection(connection: FirestoreConnection): Promise<void> {
  if (cached?.connection !== connection) return;
  cached = undefined;
  await connection.close();
}

/**
 * Creates one document of `name` with firebase-admin (`create()`: a new
 * random id, never an overwrite), holding the fields of `data` plus
 * `date: FieldValue.serverTimestamp()`. A failure is this request's own: the
 * process's client stays (gRPC reconnects by itself), other visitors' writes
 * go on.
 * @param name - the collection.
 * @param data - validated fields; no `undefined` values (Firestore refuses them).
 * @param options.timeoutMs - give up after this many milliseconds (default WRITE_TIMEOUT_MS, 8000).
 * @param options.maxInFlight - refuse at once past this many unsettled writes (default MAX_WRITES_IN_FLIGHT, 64).
 * @param options.id - the document id (the island's submission key); a document already there
 *   under it is an earlier attempt of the same submission that landed: success, nothing written.
 * @returns the id of the new (or earlier) document.
 * @throws HttpError 503 (unavailable) when the document may not have been written
 *   (configuration error, unreachable database, timeout, refused write), or was
 *   certainly not (too many writes in flight).
 */
export async function addSubmission(
  name: SubmissionCollection,
  data: Record<string, unknown>,
  {
    timeoutMs = WRITE_TIMEOUT_MS,
    maxInFlight = MAX_WRITES_IN_FLIGHT,
    id,
  }: { timeoutMs?: number; maxInFlight?: number; id?: string } = {},
): Promise<string> {
  if (writesInFlight >= maxInFlight) {
    throw unavailable(`${writesInFlight} writes in flight: ${name} not written`);
  }
  let db: AdminFirestore;
  try {
    db = adminFirestore();
  } catch (error) {
    throw unavailable(`Firestore is not configured for writes to ${name}`, error);
  }
  const reference = id ? db.collection(name).doc(id) : db.collection(name).doc();
  let write: Promise<unknown>;
  try {
    // Data the SDK cannot encode throws here, before anything is sent.
    write = reference.create({ ...data, date: FieldValue.serverTimestamp() });
  } catch (error) {
    throw unavailable(`Could not write to ${name}`, error);
  }
  writesInFlight += 1;
  void write.then(
    () => (writesInFlight -= 1),
    () => (writesInFlight -= 1),
  );
  try {
    await withDeadline(write, timeoutMs);
  } catch (error) {
    if (id && (error as { code?: unknown }).code === ALREADY_EXISTS) return reference.id;
    throw unavailable(`Could not write to ${name}`, error);
  }
  return reference.id;
}

/**
 * Creates or replaces the document `name/id` in one transaction (one attempt):
 * reads it, hands its current data to `next`, and `transaction.set`s what
 * `next` returns. The same id can be written any number of times (a retried
 * webhook) without ever creating a second document.
 * @param name - the collection.
 * @param id - the document id (e.g. the ledger's `don_…` id of a Checkout Session, src/features/donations/donation-ledger.server.ts).
 * @param next - current data (undefined when the document does not exist) →
 *   the complete new document (FieldValues allowed, at most one serverTimestamp()
 *   — the embedded emulator applies only the first transform of a write —
 *   no `undefined`), or null to leave the document as it is.
 * @param options.timeoutMs - give up after this many milliseconds (default WRITE_TIMEOUT_MS, 8000).
 * @returns 'written' or 'unchanged' (`next` returned null).
 * @throws HttpError 503 (unavailable) when the document may not have been written
 *   (configuration error, unreachable database, timeout, refused write,
 *   concurrent change of the same document).
 */
export async function upsertDocument(
  name: KeyedCollection,
  id: string,
  next: (current: DocumentData | undefined) => Record<string, unknown> | null,
  { timeoutMs = WRITE_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<'written' | 'unchanged'> {
  let outcome: 'written' | 'unchanged' = 'unchanged';
  await runSingleTransaction(name, timeoutMs, async (db, transaction) => {
    const reference = doc(db, name, id);
    const snapshot = await transaction.get(reference);
    const current = snapshot.exists() ? snapshot.data() : undefined;
    const data = next(current);
    outcome = data ? 'written' : 'unchanged';
    // A transaction that only reads commits a "verify" write, which the embedded emulator
    // refuses; writing the same data back is equivalent (and keeps the read's precondition).
    const written = data ?? current;
    if (written) transaction.set(reference, written);
  });
  return outcome;
}

/**
 * Runs `body` in one Firestore transaction with a single attempt on the
 * process's connection, within `timeoutMs`.
 * @throws HttpError 503 (unavailable) on any failure (the connection is then dropped).
 */
async function runSingleTransaction(
  name: string,
  timeoutMs: number,
  body: (db: Firestore, transaction: Transaction) => Promise<void>,
): Promise<void> {
  let connection: FirestoreConnection;
  try {
    connection = currentConnection();
  } catch (error) {
    throw unavailable(`Firestore is not configured for writes to ${name}`, error);
  }
  const { db, target } = connection;
  try {
    await withDeadline(
      runTransaction(db, (transaction) => body(db, transaction), { maxAttempts: 1 }),
      timeoutMs,
    );
  } catch (error) {
    // A fresh client for the next request: this one may be stuck on a dead channel. Closing it
    // can take up to 2 s then, so it happens after the answer (never delay the 503 past 10 s).
    void dropConnection(connection).catch(() => {});
    throw unavailable(`Could not write to ${name} at ${target.host}`, error);
  }
}

/**
 * Closes the process's clients, if any (the next write opens new ones from
 * the environment). For tests and shutdown; never waits more than 2 s.
 */
export async function closeSubmissionConnection(): Promise<void> {
  await Promise.all([cached ? dropConnection(cached.connection) : undefined, closeAdminFirestore()]);
}
