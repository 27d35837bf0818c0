/**
 * zod/mini builders of the fields every payload shares (trimmed texts, email, country), strict objects, and the
 * French messages of a failed validation in shape order (firstError and fieldErrors rely on it).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, PERSON_FIELD_MAX, hasForbiddenCharacter, isAcceptableEmail, isPersonName } from './fields';
import { HTTP_MESSAGES } from './http';

// Else zod probes `new Function('')`, which the Content-Security-Policy refuses (no 'unsafe-eval');
// the setting is global, shared with every `zod` import.
z.config({ jitless: true });

/** A trimmed string (`message` when it is not one), FIELD_MESSAGES.malformedText with an unpaired surrogate. */
const trimmed = (message: string) =>
  z.string(message).check(
    z.refine((value) => !/\p{Surrogate}/u.test(value), { error: FIELD_MESSAGES.malformedText, abort: true }),
    z.trim(),
  );

/**
 * A trimmed text of at most `max` characters (code points); `message` when it is not a string,
 * FIELD_MESSAGES.malformedText (and no further check) with an unpaired surrogate, `forbidden` (default
 * FIELD_MESSAGES.forbiddenCharacter) with a control character or a bidirectional override, or with a tab or line break
 * unless `multiline` (hasForbiddenCharacter).
 */
export const text = (
  max: number,
  message: string = HTTP_MESSAGES.badRequest,
  { multiline = false, forbidden = FIELD_MESSAGES.forbiddenCharacter as string } = {},
) =>
  trimmed(message).check(
    z.refine((value) => !hasForbiddenCharacter(value, multiline), { error: forbidden, abort: true }),
    z.maxLength(max, { error: FIELD_MESSAGES.tooLong(max) }),
  );

/** A text of at most `max` characters that may not be empty (`message`). */
export const requiredText = (max: number, message: string) =>
  text(max, message).check(z.minLength(1, { error: message }));

/** A text of at most `max` characters, '' when absent; line breaks and tabs allowed when `multiline`. */
export const optionalText = (max: number, multiline = false) =>
  z._default(text(max, HTTP_MESSAGES.badRequest, { multiline }), '');

/**
 * A person's name that may not be empty (`message`) and is only a name (isPersonName, FIELD_MESSAGES.personName): what
 * the site may write into a mail to an address nobody has verified.
 */
export const personName = (message: string) =>
  trimmed(message).check(
    z.minLength(1, { error: message, abort: true }),
    z.refine(isPersonName, { error: FIELD_MESSAGES.personName }),
  );

/** An email: a text of at most PERSON_FIELD_MAX.email characters, then spec §5's rule (`message`). */
export const email = (message: string) =>
  text(PERSON_FIELD_MAX.email, message, { forbidden: message }).check(
    z.refine(isAcceptableEmail, { error: message, abort: true }),
    z.email({ error: message }),
  );

/** CLDR region codes that are not countries (groupings, unknown). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
const regionNames = new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'none' });

/**
 * True for an ISO 3166-1 alpha-2 country code ("FR"), checked with the runtime's CLDR data (no table in the bundle).
 */
export function isCountryCodeLike(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
}

/** An ISO 3166-1 alpha-2 code, any case and spacing, FR when absent. */
export const country = () =>
  z
    ._default(z.string(FIELD_MESSAGES.countryUnknown).check(z.trim(), z.toUpperCase()), 'FR')
    .check(z.refine(isCountryCodeLike, { error: FIELD_MESSAGES.countryUnknown }));

/** Options of a strict object: any field outside the shape is refused with FIELD_MESSAGES.unknownField. */
export const strict = {
  error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? FIELD_MESSAGES.unknownField : undefined),
};

/** Field name → first French message (`_form` for unknown fields), from a failed validation. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.code === 'unrecognized_keys' ? '_form' : String(issue.path[0] ?? '_form');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The first French message of a failed validation, in the schema's field order. */
export function firstError(error: z.core.$ZodError): string {
  return error.issues[0]?.message ?? HTTP_MESSAGES.badRequest;
}
