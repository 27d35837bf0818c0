/**
 * Pure helpers of the content pull: Firestore values → plain JSON, and zod
 * issues → messages an editor can act on.
 */
import { Timestamp } from 'firebase/firestore';
import type { z } from 'astro/zod';

/**
 * Converts a Firestore value to plain JSON: every Timestamp (anywhere in the
 * tree) becomes whole seconds since the epoch (spec §3: "date (in seconds)");
 * numbers, strings, booleans, null, arrays and maps are kept as they are.
 * A numeric date is already in seconds and is left unchanged.
 */
export function normalizeFirestoreValue(value: unknown): unknown {
  if (value instanceof Timestamp) return value.seconds;
  if (Array.isArray(value)) return value.map(normalizeFirestoreValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalizeFirestoreValue(inner)]));
  }
  return value;
}

/** Describes a received value in a few words: `number 12`, `string "abc"`, `nothing`. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'a map';
  return `${typeof value} ${String(value)}`;
}

/** Reads the value at a zod issue path inside a document. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Formats the issues of a failed validation, one line each, as
 * `articles/asso-2: field img.src — expected string (got number 12)`.
 * List indexes appear in the path (`liens.3.titre`).
 */
export function formatIssues(collection: string, id: string, data: unknown, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(document)';
    const got = describe(valueAt(data, issue.path));
    const message = issue.message.replace(/^Invalid input: /, '');
    return `${collection}/${id}: field ${path} — ${message} (got ${got})`;
  });
}
