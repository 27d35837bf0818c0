/** The deadline of calls that take no AbortSignal (the Firestore SDKs, Stripe's create). */

/** Set only by tests (setDeadlinesForTests): every deadline then lasts this many milliseconds. */
let testDeadlineMs: number | undefined;

/**
 * For tests only: every deadline (withDeadline, deadlineMs) lasts `ms` milliseconds instead of its own until called
 * again without an argument. Short, a test proves a give-up in milliseconds rather than in 8 s; long, a test of
 * concurrency on a busy machine tests the outcome, not the machine's speed. Returns the setting it replaces.
 */
export function setDeadlinesForTests(ms?: number): number | undefined {
  const previous = testDeadlineMs;
  testDeadlineMs = ms;
  return previous;
}

/** `ms`, the production deadline, unless a test set every deadline (setDeadlinesForTests). */
export function deadlineMs(ms: number): number {
  return testDeadlineMs ?? ms;
}

/** Settles as `promise`, or rejects with AbortSignal.timeout's TimeoutError after `ms` milliseconds (deadlineMs). */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  const signal = AbortSignal.timeout(deadlineMs(ms));
  return Promise.race([promise, new Promise<never>((_, reject) => (signal.onabort = () => reject(signal.reason)))]);
}
