/** Ids that are keys (a Checkout Session id opens its tax receipt), named in logs without giving them away. */
import { createHash } from 'node:crypto';

/**
 * A stand-in for `id` in logs and public labels: the first 12 hex digits of its SHA-256 (`3f9a1c0b7e2d`), the same
 * for the same id, so that a log line can be matched with the ledger (`logId(documentId)`) without revealing the key.
 */
export function logId(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 12);
}
