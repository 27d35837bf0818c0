/**
 * The write payloads and their French messages: one zod/mini schema per payload, imported by the
 * island (instant feedback) and by the endpoint (the authoritative check). zod/mini tree-shakes what
 * the islands do not use. Issues come in shape order, each field's checks in the order written
 * (firstError, fieldErrors rely on it); zod's own "Invalid input" is left for hand-made requests.
 */
import * as z from 'zod/mini';
import {
  CONSENT_WORDINGS,
  FIELD_MAX,
  HONEYPOT_FIELD,
  isAcceptableEmail,
  isCountryCodeLike,
  isWellFormedText,
  MESSAGES,
  type ConsentForm,
} from './form-rules';

// zod would otherwise probe `new Function('')`, which the Content-Security-Policy refuses (no
// 'unsafe-eval'); the setting is global, shared with `astro/zod`.
z.config({ jitless: true });

export {
  CONSENT_WORDINGS,
  consentText,
  currentConsent,
  FIELD_MAX,
  HONEYPOT_FIELD,
  isAcceptableEmail,
  isCountryCodeLike,
  isWellFormedText,
  MAX_BODY_BYTES,
  MESSAGES,
  textLength,
} from './form-rules';

/**
 * A string the site can store: `message` when it is not a string, MESSAGES.malformedText (and no
 * further check) when it holds an unpaired surrogate (isWellFormedText). Every text field of every
 * payload starts with it.
 */
export const wellFormedString = (message?: string) =>
  z
    .string(message === undefined ? undefined : { error: message })
    .check(z.refine(isWellFormedText, { error: MESSAGES.malformedText, abort: true }));

/** An email: well-formed, trimmed, at most FIELD_MAX.email characters, then spec §5's rule; `message` when not a string or not acceptable. */
export const email = (message: string) =>
  wellFormedString(message).check(
    z.trim(),
    z.maxLength(FIELD_MAX.email, { error: MESSAGES.tooLong(FIELD_MAX.email) }),
    z.refine(isAcceptableEmail, { error: message }),
  );

/** A text field: well-formed, trimmed, then at most `max` characters (code points, textLength). */
export const text = (max: number) =>
  wellFormedString().check(z.trim(), z.maxLength(max, { error: MESSAGES.tooLong(max) }));
/** A text field that must hold something once trimmed (`message` otherwise). */
export const requiredText = (max: number, message: string) => text(max).check(z.minLength(1, { error: message }));
/** A text field that may be left out ('' then). */
export const optionalText = (max: number) => z._default(text(max), '');
/** The version of the consent wording the visitor saw: one of CONSENT_WORDINGS[form] (MESSAGES.consentOutdated). */
const consentVersion = (form: ConsentForm) =>
  z.enum(CONSENT_WORDINGS[form].map((wording) => wording.version) as [string, ...string[]], {
    error: MESSAGES.consentOutdated,
  });
const honeypot = z.optional(z.string().check(z.maxLength(FIELD_MAX.honeypot)));
/** An ISO 3166-1 alpha-2 code, any case and spacing, FR when absent. */
const country = () =>
  z
    ._default(z.string().check(z.trim(), z.toUpperCase()), 'FR')
    .check(z.refine(isCountryCodeLike, { error: MESSAGES.countryUnknown }));
/** Field of the submission key: a UUID an island sends again with a retry, the document's id (one document per submission). */
export const SUBMISSION_KEY_FIELD = 'envoi';
const submissionKey = z.optional(
  z
    .string({ error: MESSAGES.badRequest })
    .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: MESSAGES.badRequest })),
);

/** Strict objects: any field outside the shape is refused with MESSAGES.unknownField. */
const strict = {
  error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? MESSAGES.unknownField : undefined),
};

/** Newsletter entry (spec §3): email, consentement (must be true) and the consent wording's version. */
export const newsletterSchema = z.strictObject(
  {
    email: email(MESSAGES.emailIncorrect),
    consentement: z.literal(true, { error: MESSAGES.consentRequired }),
    consentementVersion: consentVersion('newsletter'),
    [SUBMISSION_KEY_FIELD]: submissionKey,
    [HONEYPOT_FIELD]: honeypot,
  },
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
    consentement: z.literal(true, { error: MESSAGES.preRegistrationConsentRequired }),
    consentementVersion: consentVersion('preinscription'),
    [SUBMISSION_KEY_FIELD]: submissionKey,
    [HONEYPOT_FIELD]: honeypot,
  },
  strict,
);

/** The two ways to pay (spec §7): Stripe's page in a new tab, or Stripe's form embedded here. */
export const PAYMENT_METHODS = ['lien', 'integre'] as const;

/** How often the gift is made: once, or every month (a Stripe subscription). */
export const DONATION_FREQUENCIES = ['ponctuel', 'mensuel'] as const;

/** The message of every way `somme` can be wrong: not a number, not an integer, outside 0…9. */
const amountRequired = { error: 'Merci de choisir un montant' };

/** An optional donor field of the draft: trimmed, at most `max` characters, well-formed; '' = absent. */
const donorText = (max: number) => z.optional(text(max));

/** Payment draft (spec §3): moyen, somme (INDEX in DONATION_AMOUNTS_EUR, never a price), frequence; donor fields optional (Stripe asks). */
export const paymentDraftSchema = z.strictObject(
  {
    moyen: z.enum(PAYMENT_METHODS, { error: 'Merci de choisir comment payer' }),
    somme: z.coerce
      .number(amountRequired)
      .check(z.int(amountRequired), z.gte(0, amountRequired), z.lte(9, amountRequired)),
    frequence: z._default(
      z.enum(DONATION_FREQUENCIES, { error: 'Merci de choisir un don ponctuel ou mensuel' }),
      'ponctuel',
    ),
    prenom: donorText(FIELD_MAX.prenom),
    nom: donorText(FIELD_MAX.nom),
    email: z.optional(email(MESSAGES.emailFieldInvalid)),
    adresse: donorText(FIELD_MAX.adresse),
    postal: donorText(FIELD_MAX.postal),
    ville: donorText(FIELD_MAX.ville),
    pays: country(),
  },
  strict,
);

/** A valid payment draft. */
export type PaymentDraft = z.infer<typeof paymentDraftSchema>;

/** A valid newsletter payload. */
export type NewsletterPayload = z.infer<typeof newsletterSchema>;
/** A valid pre-registration payload. */
export type PreRegistrationPayload = z.infer<typeof preRegistrationSchema>;
/** What the pre-registration form holds while the parent types: every field as a string, the consent box a boolean. */
export type PreRegistrationDraft = Required<
  Omit<
    z.input<typeof preRegistrationSchema>,
    'consentement' | 'consentementVersion' | typeof SUBMISSION_KEY_FIELD | typeof HONEYPOT_FIELD
  >
> & { consentement: boolean };

/** Field name → first French message, from a failed validation. */
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

/** A plain HTML form submission as a payload: the `consentement` checkbox becomes a boolean, the rest stay strings. */
export function formDataToPayload(form: FormData | URLSearchParams): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') payload[key] = value;
  }
  payload.consentement = payload.consentement === 'true' || payload.consentement === 'on';
  return payload;
}
