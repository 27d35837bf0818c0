/**
 * The desk's search (`?q=` on /espace/preinscriptions): a family quotes its reference (« 4829 1375 », with or without
 * the space) or gives a name or an email; case, accents and extra spaces do not matter.
 */

/** Longest search text kept, in characters. */
export const SEARCH_MAX = 100;

/** `text` folded for comparison: lower case, no accents, runs of spaces as one, trimmed. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The fields a search reads: the reference, the child's and the parent's names, the email. */
export interface Searchable {
  reference: string;
  enfantPrenom: string;
  enfantNom: string;
  parentPrenom: string;
  parentNom: string;
  email: string;
}

/** The search text of a `?q=` value: trimmed, bounded ('' for none). */
export function searchText(value: string | null): string {
  return (value ?? '').trim().slice(0, SEARCH_MAX);
}

/**
 * True when `entry` answers `query`: its reference when the query is digits (spaces ignored), else every word of the
 * query found in its names or email.
 * @example matchesSearch(entry, '48291375') // entry.reference === '4829 1375'
 */
export function matchesSearch(entry: Searchable, query: string): boolean {
  const folded = fold(query);
  if (!folded) return true;
  const digits = folded.replace(/[\s.-]/g, '');
  if (/^\d+$/.test(digits)) return entry.reference.replace(/\s/g, '').includes(digits);
  const haystack = fold(
    [entry.enfantPrenom, entry.enfantNom, entry.parentPrenom, entry.parentNom, entry.email].join(' '),
  );
  return folded.split(' ').every((word) => haystack.includes(word));
}
