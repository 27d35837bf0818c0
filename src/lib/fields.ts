/**
 * What every form with a person's details shares and that needs no zod (the islands load it at once): the lengths of
 * the person fields, their French messages and spec §5's email rule. The zod builders on them: ./field-schemas.ts.
 */

/** Longest person's name in characters (code points): what isPersonName accepts. */
export const PERSON_NAME_MAX = 60;

/** The person fields' French messages, whatever the form. */
export const FIELD_MESSAGES = {
  /** Spec §5: shown next to an email field while it is invalid. */
  emailInvalid: 'Merci de saisir un email valide',
  /** A text longer than its field allows, in characters (code points, as zod counts). */
  tooLong: (max: number) => `Ce champ est trop long (${max} caractères au plus)`,
  /** An unpaired UTF-16 surrogate: no UTF-8 form, Firestore refuses it (a hand-made request). */
  malformedText: 'Ce champ contient un caractère illisible : merci de le retaper.',
  /** A person's name that is not only a name (isPersonName): it may be mailed to an address nobody has verified. */
  personName:
    'Écrivez seulement un nom : des lettres, des espaces, des traits d’union ou des apostrophes ' +
    `(${PERSON_NAME_MAX} caractères au plus)`,
  /** A control character or a bidirectional override (hasForbiddenCharacter), pasted or forged. */
  forbiddenCharacter:
    'Ce champ contient un caractère invisible interdit (caractère de contrôle ou inversion du sens d’écriture) : ' +
    'retapez-le au lieu de le coller.',
  countryUnknown: 'Merci de choisir un pays dans la liste',
  unknownField: 'La demande contient des champs inattendus',
} as const;

/** Longest value of each person field in code points (not `maxlength`'s UTF-16 units); email: RFC 5321. */
export const PERSON_FIELD_MAX = {
  email: 254,
  prenom: 100,
  nom: 100,
  adresse: 200,
  postal: 20,
  ville: 100,
} as const;

/**
 * True when `name` (trimmed) is only a person's name: letters of any script, combining marks, spaces, hyphens and
 * apostrophes (`'`, `’`), with the zero-width joiners some scripts write names with, at least one letter, at most
 * PERSON_NAME_MAX characters. The site mails such a name to an address nobody has verified (the pre-registration's
 * acknowledgement), so it must carry no message, number or link.
 * @example isPersonName('Léa-Maëlle') // true; isPersonName('Appelez le 08 99…') // false
 */
export function isPersonName(name: string): boolean {
  const value = name.trim();
  return (
    [...value].length <= PERSON_NAME_MAX &&
    /^[\p{L}\p{M} '’-]*\p{L}[\p{L}\p{M} '’-]*$/u.test(value.replace(/\u200c|\u200d/g, ''))
  );
}

/**
 * Characters no field of the site takes: C0 controls but tab, LF and CR (NUL first), DEL and the C1 controls, and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that make a text read backwards.
 */
// Control characters are what these patterns are for.
/* eslint-disable no-control-regex */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** The same, and the line breaks and tab a one-line field never holds. */
const FORBIDDEN_ON_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/* eslint-enable no-control-regex */

/** True when `value` holds a character no field takes (FORBIDDEN), or a tab or line break unless `multiline`. */
export function hasForbiddenCharacter(value: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN : FORBIDDEN_ON_ONE_LINE).test(value);
}

/** Spec §5's newsletter email rule on `email` as typed (trimmed): at least 5 characters, with '@' and '.', no space. */
export function isAcceptableEmail(email: string): boolean {
  const value = email.trim();
  return value.length >= 5 && value.includes('@') && value.includes('.') && !/\s/.test(value);
}
