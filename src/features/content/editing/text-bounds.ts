/**
 * The bounds of every text the space saves in a content document, whatever its form: a length per field (by the
 * field's own name, the last key of its path) and no control character or bidirectional override (src/lib/fields.ts
 * hasForbiddenCharacter; line breaks and tabs are allowed: addresses and HTML hold them). The pull's schemas say what a
 * field may be; these say how much of it, so that a 60,000-character name or a NUL never reaches a page.
 */
import { FIELD_MESSAGES, hasForbiddenCharacter } from '../../../lib/fields';
import type { FieldIssue } from './messages';

/** Longest text of a content field, in characters (code points), by the field's name; TEXT_MAX for the others. */
export const CONTENT_TEXT_MAX: Readonly<Record<string, number>> = {
  /** An article's HTML: a long page with its markup. */
  contenu: 200_000,
  intro: 20_000,
  descr: 5_000,
  href: 2_000,
  src: 2_000,
  titre: 200,
  alt: 300,
};

/** Longest text of any other field (the association's paragraphs have their own, lower bounds in their schema). */
export const TEXT_MAX = 1_000;

/**
 * Every text of `data` (objects and lists walked) that is too long or holds a forbidden character, as a French issue
 * under its dotted path (`titre`, `liens.2.href`, `img.alt`), the same paths as the schema's issues.
 */
export function textIssues(data: unknown, path: readonly (string | number)[] = []): FieldIssue[] {
  if (typeof data === 'string') {
    const name = String(path.findLast((key) => typeof key === 'string') ?? '');
    const max = CONTENT_TEXT_MAX[name] ?? TEXT_MAX;
    const field = path.join('.');
    if (hasForbiddenCharacter(data, true)) return [{ field, message: FIELD_MESSAGES.forbiddenCharacter }];
    return [...data].length > max ? [{ field, message: FIELD_MESSAGES.tooLong(max) }] : [];
  }
  if (Array.isArray(data)) return data.flatMap((item, index) => textIssues(item, [...path, index]));
  if (data && typeof data === 'object' && Object.getPrototypeOf(data) === Object.prototype) {
    return Object.entries(data).flatMap(([key, value]) => textIssues(value, [...path, key]));
  }
  return [];
}
