/**
 * What every form with a person's details shares and that needs no zod (the islands load it at once): the lengths of
 * the person fields, their French messages and spec §5's email rule. The zod builders on them: ./field-schemas.ts.
 */

/** The person fields' French messages, whatever the form. */
export const FIELD_MESSAGES = {
  /** Spec §5: shown next to an email field while it is invalid. */
  emailInvalid: 'Merci de saisir un email valide',
  /** A text longer than its field allows, in characters (code points, as zod counts). */
  tooLong: (max: number) => `Ce champ est trop long (${max} caractères au plus)`,
  /** An unpaired UTF-16 surrogate: no UTF-8 form, Firestore refuses it (a hand-made request). */
  malformedText: 'Ce champ contient un caractère illisible : merci de le retaper.',
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

/** Spec §5's newsletter email rule on `email` as typed (trimmed): at least 5 characters, with '@' and '.', no space. */
export function isAcceptableEmail(email: string): boolean {
  const value = email.trim();
  return value.length >= 5 && value.includes('@') && value.includes('.') && !/\s/.test(value);
}
