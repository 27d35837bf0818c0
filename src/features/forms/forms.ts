/**
 * The forms' write payloads as zod/mini schemas, checked by island and endpoint; French issues in shape order
 * (firstError and fieldErrors rely on it).
 */
import * as z from 'zod/mini';
import {
  country,
  email,
  fieldErrors,
  firstError,
  optionalText,
  personName,
  strict,
  text,
} from '../../lib/field-schemas';
import { HTTP_MESSAGES } from '../../lib/http';
import { CONSENT_WORDINGS, FIELD_MAX, HONEYPOT_FIELD, MESSAGES, type FormName } from './form-rules';
import {
  normalisePhone,
  parisDay,
  PHONE_MAX,
  readBirthDate,
  REQUEST_FIELD_MESSAGES,
  SCHOOL_CLASSES,
  type SchoolClass,
} from '../admissions/request-fields';

export * from './form-rules';
export { fieldErrors, firstError };

/**
 * What every form payload ends with: the consent, its wording's version, the key `envoi` (a UUID: the document's id,
 * the same on a retry), the honeypot.
 */
const consentAndKeys = (form: FormName, consentRequired: string) => ({
  consentement: z.literal(true, { error: consentRequired }),
  consentementVersion: z.enum(CONSENT_WORDINGS[form].map(({ version }) => version) as [string, ...string[]], {
    error: MESSAGES.consentOutdated,
  }),
  envoi: z.optional(z.uuid(HTTP_MESSAGES.badRequest)),
  [HONEYPOT_FIELD]: z.optional(text(FIELD_MAX.honeypot)),
});

/** An optional phone number ('' when empty), stored in E.164 (normalisePhone); REQUEST_FIELD_MESSAGES.phoneInvalid. */
const optionalPhone = () =>
  z.pipe(
    optionalText(PHONE_MAX).check(
      z.refine((value) => !value || normalisePhone(value) !== undefined, {
        error: REQUEST_FIELD_MESSAGES.phoneInvalid,
      }),
    ),
    z.transform((value) => (value ? (normalisePhone(value) ?? '') : '')),
  );

/** An optional birth date ('' when empty) as `YYYY-MM-DD`, bounded on the day of the check (readBirthDate). */
const optionalBirthDate = () =>
  z.pipe(
    optionalText(20),
    z.transform((value, context) => {
      if (!value) return '';
      const read = readBirthDate(value, parisDay(new Date()));
      if ('day' in read) return read.day;
      context.issues.push({ code: 'custom', message: read.error, input: value });
      return z.NEVER;
    }),
  );

const CLASS_KEYS = Object.keys(SCHOOL_CLASSES) as [SchoolClass, ...SchoolClass[]];

/** Newsletter entry (spec §3): email, consentement (must be true) and the consent wording's version. */
export const newsletterSchema = z.strictObject(
  { email: email(MESSAGES.emailIncorrect), ...consentAndKeys('newsletter', MESSAGES.consentRequired) },
  strict,
);

/**
 * Pre-registration entry (spec §3) and the consent wording's version; pays is an ISO 3166-1 alpha-2 code, FR by
 * default. The four names are only names (personName): the acknowledgement goes to an address nobody has verified.
 * The admissions desk's optional details ('' when empty): `telephone` (E.164), `enfantNaissance` (`YYYY-MM-DD`),
 * `classeSouhaitee` (a SCHOOL_CLASSES key).
 */
export const preRegistrationSchema = z.strictObject(
  {
    enfantPrenom: personName(MESSAGES.required.enfantPrenom),
    enfantNom: personName(MESSAGES.required.enfantNom),
    enfantNaissance: optionalBirthDate(),
    classeSouhaitee: z._default(z.enum(['', ...CLASS_KEYS], { error: REQUEST_FIELD_MESSAGES.classUnknown }), ''),
    infos: optionalText(FIELD_MAX.infos, true),
    parentPrenom: personName(MESSAGES.required.parentPrenom),
    parentNom: personName(MESSAGES.required.parentNom),
    email: email(MESSAGES.emailFieldInvalid),
    telephone: optionalPhone(),
    adresse: optionalText(FIELD_MAX.adresse),
    postal: optionalText(FIELD_MAX.postal),
    ville: optionalText(FIELD_MAX.ville),
    pays: country(),
    ...consentAndKeys('preinscription', MESSAGES.preRegistrationConsentRequired),
  },
  strict,
);

/** A valid pre-registration as the form sends it (the stored one, with its id and status: admissions.ts PreRegistration). */
export type PreRegistrationPayload = z.infer<typeof preRegistrationSchema>;

/**
 * What the pre-registration form holds while the parent types: every field as a string, the consent box a boolean.
 */
export type PreRegistrationDraft = Required<
  Omit<z.input<typeof preRegistrationSchema>, 'consentement' | 'consentementVersion' | 'envoi' | typeof HONEYPOT_FIELD>
> & { consentement: boolean };

/**
 * A plain HTML form submission's fields (readFormObject) as a payload: the `consentement` checkbox becomes a boolean,
 * the rest stay strings.
 */
export function formDataToPayload(fields: Record<string, string>): Record<string, unknown> {
  return { ...fields, consentement: fields.consentement === 'true' || fields.consentement === 'on' };
}
