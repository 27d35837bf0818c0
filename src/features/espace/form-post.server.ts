/**
 * The space's form posts: plain HTML forms (no JavaScript needed), read bounded. Only form media types are accepted, so
 * that the site's origin check (src/middleware.ts, Astro's `security.checkOrigin` rule; Astro's own is turned off)
 * covers every one of them: a cross-site form post is answered 403 before any page runs, and the session cookie
 * (SameSite=Strict) is not even sent with it.
 */
import { mediaType, readBoundedBody } from '../../lib/endpoint.server';
import { hasForbiddenCharacter } from '../../lib/fields';
import { HttpError } from '../../lib/http';
import { ESPACE_MESSAGES } from './messages';

/** Largest form body (bytes): notes of NOTES_MAX characters, URL-encoded, fit with room. */
const MAX_FORM_BYTES = 64 * 1024;

/** Longest field of a plain form post, in characters: above the longest the space has (notes, 5,000). */
export const MAX_FIELD_CHARS = 10_000;

/**
 * The net under every form of the space, whatever its own checks (a field's own bound, by the field, comes first
 * where the form has one): no text field holds a control character or a bidirectional override (line breaks and tabs
 * pass) or is longer than `maxChars` characters.
 * @throws HttpError 400 ESPACE_MESSAGES.forbiddenCharacter or ESPACE_MESSAGES.fieldTooLong.
 */
export function assertPlainFields(entries: Iterable<[string, FormDataEntryValue]>, maxChars: number): void {
  for (const [, value] of entries) {
    if (typeof value !== 'string') continue;
    if (hasForbiddenCharacter(value, true)) throw new HttpError(400, ESPACE_MESSAGES.forbiddenCharacter);
    if (value.length > maxChars && [...value].length > maxChars) {
      throw new HttpError(400, ESPACE_MESSAGES.fieldTooLong(maxChars));
    }
  }
}

/**
 * The fields of a form post, every value a string (a repeated name: its last value; readFormEntries keeps them all).
 * @throws HttpError 415 for any other media type, 413 past 64 KiB, 400 for an unreadable body or a file, 400 as
 *   assertPlainFields.
 */
export async function readFormPost(request: Request): Promise<Map<string, string>> {
  return new Map(await readFormEntries(request));
}

/** Every field of a form post in order, repeated names included (an ordered list's keys). @throws as readFormPost. */
export async function readFormEntries(request: Request): Promise<[name: string, value: string][]> {
  const type = mediaType(request);
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    throw new HttpError(415, ESPACE_MESSAGES.badForm);
  }
  const body = new Response(await readBoundedBody(request, MAX_FORM_BYTES), { headers: request.headers });
  const form = await body.formData().catch((error: unknown) => {
    throw new HttpError(400, ESPACE_MESSAGES.badForm, { cause: error });
  });
  const entries: [string, string][] = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string') throw new HttpError(400, ESPACE_MESSAGES.badForm);
    entries.push([name, value]);
  }
  assertPlainFields(entries, MAX_FIELD_CHARS);
  return entries;
}
