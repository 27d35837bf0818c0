/**
 * The pre-registration's optional details for the admissions desk, without zod (the island loads them at once): a
 * phone number (libphonenumber-js, France by default), the child's birth date and the class wished, with their French
 * messages. Stored in `inscripitions` as `telephone` (E.164, « +33612345678 »), `enfantNaissance` (`YYYY-MM-DD`) and
 * `classeSouhaitee` (a SCHOOL_CLASSES key); forms.ts builds the schema on them.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The region of a number typed without its international prefix. */
const DEFAULT_REGION = 'FR';

/** Longest phone number typed, in characters (spaces, dots and a prefix included). */
export const PHONE_MAX = 40;

/** Oldest child the form takes, in years: the school goes from the petite section to the CM2, with late starts. */
export const CHILD_MAX_AGE_YEARS = 18;

/** The desk's French messages for these fields. */
export const REQUEST_FIELD_MESSAGES = {
  phoneInvalid: 'Ce numéro de téléphone n’est pas valide. Vérifiez-le, par exemple 06 12 34 56 78.',
  birthDateFormat: 'Indiquez la date de naissance sous la forme jj/mm/aaaa, par exemple 14/03/2021.',
  birthDateFuture: 'La date de naissance ne peut pas être dans le futur.',
  birthDateTooOld: `Vérifiez l’année de naissance : l’enfant aurait plus de ${CHILD_MAX_AGE_YEARS} ans.`,
  classUnknown: 'Merci de choisir une classe dans la liste',
} as const;

/** The classes of the school (« de la petite section au CM2 »): stored key → French label. */
export const SCHOOL_CLASSES = {
  PS: 'Petite section',
  MS: 'Moyenne section',
  GS: 'Grande section',
  CP: 'CP',
  CE1: 'CE1',
  CE2: 'CE2',
  CM1: 'CM1',
  CM2: 'CM2',
} as const;

/** A class key (`classeSouhaitee`). */
export type SchoolClass = keyof typeof SCHOOL_CLASSES;

/** True for a SCHOOL_CLASSES key. */
export function isSchoolClass(value: unknown): value is SchoolClass {
  return typeof value === 'string' && Object.hasOwn(SCHOOL_CLASSES, value);
}

/**
 * The number `typed` in E.164 (« 06 12 34 56 78 » → « +33612345678 »; « +32 470 12 34 56 » kept Belgian), or
 * undefined when it is not a valid number (libphonenumber-js's metadata; no text around it is extracted).
 */
export function normalisePhone(typed: string): string | undefined {
  const phone = parsePhoneNumberFromString(typed.trim(), { defaultCountry: DEFAULT_REGION, extract: false });
  return phone?.isValid() ? phone.number : undefined;
}

/** A stored number as staff read it: national for France (« 06 12 34 56 78 »), international otherwise. */
export function phoneForDisplay(stored: string): string {
  const phone = parsePhoneNumberFromString(stored, { defaultCountry: DEFAULT_REGION, extract: false });
  if (!phone) return stored;
  return phone.country === DEFAULT_REGION ? phone.formatNational() : phone.formatInternational();
}

/** `YYYY-MM-DD` of `date` in Europe/Paris. */
export function parisDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}

/**
 * The bounds of a birth date on `today` (`YYYY-MM-DD`, Europe/Paris): from CHILD_MAX_AGE_YEARS years ago to today,
 * as an `<input type="date">`'s `min` and `max`.
 */
export function birthDateBounds(today: string): { min: string; max: string } {
  const year = Number(today.slice(0, 4)) - CHILD_MAX_AGE_YEARS;
  return { min: `${String(year).padStart(4, '0')}${today.slice(4)}`, max: today };
}

/**
 * A birth date typed `YYYY-MM-DD` (a date field) or `JJ/MM/AAAA` (a browser without one) as `YYYY-MM-DD`, or the
 * French message of why not (REQUEST_FIELD_MESSAGES) on `today` (`YYYY-MM-DD`, Europe/Paris).
 */
export function readBirthDate(typed: string, today: string): { day: string } | { error: string } {
  const value = typed.trim();
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  const day = french ? `${french[3]}-${french[2]!.padStart(2, '0')}-${french[1]!.padStart(2, '0')}` : value;
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T12:00:00Z`) : undefined;
  // 31/02 rolls over to March: a real day reads back the same.
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    return { error: REQUEST_FIELD_MESSAGES.birthDateFormat };
  }
  const { min, max } = birthDateBounds(today);
  if (day > max) return { error: REQUEST_FIELD_MESSAGES.birthDateFuture };
  if (day < min) return { error: REQUEST_FIELD_MESSAGES.birthDateTooOld };
  return { day };
}
