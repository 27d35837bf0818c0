/** The server's one error type, and the deadline of calls that take no AbortSignal. */

/** A failure with its answer: HTTP `status`, the visitor's French `message`, extra `headers`; `cause` is for the log. */
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

/** Settles as `promise`, or rejects with AbortSignal.timeout's TimeoutError after `ms` milliseconds. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  return Promise.race([promise, new Promise<never>((_, reject) => (signal.onabort = () => reject(signal.reason)))]);
}
