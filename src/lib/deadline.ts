/** The deadline of calls that take no AbortSignal (the Firestore SDKs, Stripe's create). */

/** Settles as `promise`, or rejects with AbortSignal.timeout's TimeoutError after `ms` milliseconds. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  return Promise.race([promise, new Promise<never>((_, reject) => (signal.onabort = () => reject(signal.reason)))]);
}
