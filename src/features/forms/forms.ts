/** The write payloads' zod/mini schemas, checked by island and endpoint; French issues in shape order (firstError and fieldErrors rely on it). */
import * as z from 'zod/mini';
import { CONSENT_WORDINGS, FIELD_MAX, HONEYPOT_FIELD, isAcceptableEmail, MESSAGES, type FormName } from './form-rules';

export * from './form-rules';

// Else zod probes `new Function('')`, which the Content-Security-Policy refuses (no 'unsafe-eval');
// the setting is global, shared with `astro/zod`.
z.config({ jitless: true });

/** A trimmed text of at most `max` characters (code points); `message` when it is not a string, MESSAGES.malformedText (and no further check) with an unpaired surrogate. */
const text = (max: number, message: string = MESSAGES.badRequest) =>
  z.string(message).check(
    z.refine((value) => !/\p{Surrogate}/u.test(value), { error: MESSAGES.malformedText, abort: true }),
    z.trim(),
    z.maxLength(max, { error: MESSAGES.tooLong(max) }),
  );
const requiredText = (max: number, message: string) => text(max, message).check(z.minLength(1, { error: message }));
const optionalText = (max: number) => z._default(text(max), '');
/**
 * An email: a text of at most FIELD_MAX.email characters, spec §5's rule, then a real address (zod's check), each with
 * `message`.
 */
const email = (message: string) =>
  text(FIELD_MAX.email, message).check(
    z.refine(isAcceptableEmail, { error: message, abort: true }),
    z.email({ error: message }),
  );
/** CLDR region codes that are not countries (groupings, unknown). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
const regionNames = new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'none' });

/** True for an ISO 3166-1 alpha-2 country code ("FR"), checked with the runtime's CLDR data (no country table in the bundle). */
export function isCountryCodeLike(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
}

/** An ISO 3166-1 alpha-2 code, any case and spacing, FR when absent. */
const country = () =>
  z
    ._default(z.string(MESSAGES.countryUnknown).check(z.trim(), z.toUpperCase()), 'FR')
    .check(z.refine(isCountryCodeLike, { error: MESSAGES.countryUnknown }));

/** Strict objects: any field outside the shape is refused with MESSAGES.unknownField. */
const strict = {
  error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? MESSAGES.unknownField : undefined),
};

/** What every form payload ends with: the consent, its wording's version, the key `envoi` (a UUID: the document's id, the same on a retry), the honeypot. */
const consentAndKeys = (form: FormName, consentRequired: string) => ({
  consentement: z.literal(true, { error: consentRequired }),
  consentementVersion: z.enum(CONSENT_WORDINGS[form].map(({ version }) => version) as [string, ...string[]], {
    error: MESSAGES.consentOutdated,
  }),
  envoi: z.optional(z.uuid(MESSAGES.badRequest)),
  [HONEYPOT_FIELD]: z.optional(text(FIELD_MAX.honeypot)),
});

/** Newsletter entry (spec §3): email, consentement (must be true) and the consent wording's version. */
export const newsletterSchema = z.strictObject(
  { email: email(MESSAGES.emailIncorrect), ...consentAndKeys('newsletter', MESSAGES.consentRequired) },
  strict,
);

/** Pre-registration entry (spec §3) and the consent wording's version; pays is an ISO 3166-1 alpha-2 code, FR by default. */
export const preRegistrationSchema = z.strictObject(
  {
    enfantPrenom: requiredText(FIELD_MAX.prenom, MESSAGES.required.enfantPrenom),
    enfantNom: requiredText(FIELD_MAX.nom, MESSAGES.required.enfantNom),
    infos: optionalText(FIELD_MAX.infos),
    parentPrenom: requiredText(FIELD_MAX.prenom, MESSAGES.required.parentPrenom),
    parentNom: requiredText(FIELD_MAX.nom, MESSAGES.required.parentNom),
    email: email(MESSAGES.emailFieldInvalid),
    adresse: optionalText(FIELD_MAX.adresse),
    postal: optionalText(FIELD_MAX.postal),
    ville: optionalText(FIELD_MAX.ville),
    pays: country(),
    ...consentAndKeys('preinscription', MESSAGES.preRegistrationConsentRequired),
  },
  strict,
);

/** The message of every way `somme` can be wrong: not an integer 0…9, as a number or its digits. */
const amountRequired = { error: 'Merci de choisir un montant' };

/** Payment draft (spec §3): moyen ('lien' Stripe's page in a tab, 'integre' its form here; spec §7), somme (INDEX in DONATION_AMOUNTS_EUR, never a price), frequence; donor fields optional (Stripe asks). */
export const paymentDraftSchema = z.strictObject(
  {
    moyen: z.enum(['lien', 'integre'], { error: 'Merci de choisir comment payer' }),
    somme: z.pipe(
      z.union([z.number(), z.string().check(z.trim(), z.regex(/^\d+$/, amountRequired))], amountRequired),
      z.coerce
        .number<string | number>()
        .check(z.int(amountRequired), z.gte(0, amountRequired), z.lte(9, amountRequired)),
    ),
    frequence: z._default(
      z.enum(['ponctuel', 'mensuel'], { error: 'Merci de choisir un don ponctuel ou mensuel' }),
      'ponctuel',
    ),
    prenom: z.optional(text(FIELD_MAX.prenom)),
    nom: z.optional(text(FIELD_MAX.nom)),
    email: z.optional(email(MESSAGES.emailFieldInvalid)),
    adresse: z.optional(text(FIELD_MAX.adresse)),
    postal: z.optional(text(FIELD_MAX.postal)),
    ville: z.optional(text(FIELD_MAX.ville)),
    pays: country(),
  },
  strict,
);

/** A valid pre-registration, as the endpoint stores it. */
export type PreRegistration = z.infer<typeof preRegistrationSchema>;

/** A valid payment draft (`somme` an index 0…9). */
export type PaymentDraft = z.infer<typeof paymentDraftSchema>;

/** What the pre-registration form holds while the parent types: every field as a string, the consent box a boolean. */
export type PreRegistrationDraft = Required<
  Omit<z.input<typeof preRegistrationSchema>, 'consentement' | 'consentementVersion' | 'envoi' | typeof HONEYPOT_FIELD>
> & { consentement: boolean };

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
  return error.issues[0]?.message ?? MESSAGES.badRequest;
}

/** A plain HTML form submission (no files) as a payload: the `consentement` checkbox becomes a boolean, the rest stay strings. */
export function formDataToPayload(form: FormData | URLSearchParams): Record<string, unknown> {
  const payload: Record<string, unknown> = Object.fromEntries(form);
  return { ...payload, consentement: payload.consentement === 'true' || payload.consentement === 'on' };
}
