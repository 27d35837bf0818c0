/**
 * The write payloads of the site and their French messages (spec §3, §5, §7).
 * One zod schema per payload, imported by the island (instant feedback) and
 * by the endpoint (the authoritative check). Messages are the spec's, copied
 * character for character where the spec gives them.
 *
 * The schemas use zod/mini, zod 4's functional API (the same zod package as
 * `astro/zod`, same parsing core and issues), because this module is in the
 * islands' bundles: what the schemas do not use is tree-shaken, where
 * `astro/zod`'s classes carry all of zod into the browser.
 *
 * Issue order, which firstError and fieldErrors rely on: the fields in shape
 * order, each field's checks in the order written (trim, then the length
 * limit, then the field's rule), unknown fields last. An issue without a
 * message here (a text field that is not a string, an over-long honeypot)
 * gets the endpoint's French fallback on the server (endpoint.server.ts,
 * create-checkout-session.ts) and zod's generic "Invalid input" in the
 * browser (zod/mini loads no locale): only a hand-made value or a bot gets there.
 */
import * as z from 'zod/mini';
import {
  CONSENT_WORDINGS,
  HONEYPOT_FIELD,
  isAcceptableEmail,
  isCountryCodeLike,
  isWellFormedText,
  MESSAGES,
  type ConsentForm,
} from './form-rules';

// zod would otherwise probe `new Function('')` to decide whether to compile
// its object parsers, which the site's Content-Security-Policy refuses (no
// 'unsafe-eval', astro.config.mjs) and Chromium reports as a violation.
// zod/mini's objects are never compiled, but this setting is zod's global
// one, shared with `astro/zod` (whose objects are), so it stays.
z.config({ jitless: true });

export {
  CONSENT_WORDINGS,
  consentText,
  currentConsent,
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

/** An email: well-formed, trimmed, at most 254 characters, then spec §5's rule; `message` when not a string or not acceptable. */
export const email = (message: string) =>
  wellFormedString(message).check(
    z.trim(),
    z.maxLength(254, { error: MESSAGES.tooLong(254) }),
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
const honeypot = z.optional(z.string().check(z.maxLength(200)));
/** An ISO 3166-1 alpha-2 code, any case and spacing, FR when absent. */
const country = () =>
  z
    ._default(z.string().check(z.trim(), z.toUpperCase()), 'FR')
    .check(z.refine(isCountryCodeLike, { error: MESSAGES.countryUnknown }));
/**
 * The key an island draws for one submission (a UUID, crypto.randomUUID()) and sends again when it
 * retries the same content: it becomes the document's id, so a write that landed after a 503 and
 * its retry leave one document. Optional: a form POST without JavaScript has none.
 */
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
    enfantPrenom: requiredText(100, MESSAGES.required.enfantPrenom),
    enfantNom: requiredText(100, MESSAGES.required.enfantNom),
    infos: optionalText(2000),
    parentPrenom: requiredText(100, MESSAGES.required.parentPrenom),
    parentNom: requiredText(100, MESSAGES.required.parentNom),
    email: email(MESSAGES.emailFieldInvalid),
    adresse: optionalText(200),
    postal: optionalText(20),
    ville: optionalText(100),
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

/** An optional donor field of the draft: trimmed, at most `max` characters, well-formed (text()); '' = absent. */
const donorText = (max: number) => z.optional(text(max));

/**
 * Payment draft (spec §3): moyen (payment way), somme (INDEX of the amount in
 * DONATION_AMOUNTS_EUR, never a price), frequence ('ponctuel' by default). The
 * donor's name, email and address are optional: Stripe's page asks for them
 * (docs/donations.md); a given email is prefilled there.
 */
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
    prenom: donorText(100),
    nom: donorText(100),
    email: z.optional(email(MESSAGES.emailFieldInvalid)),
    adresse: donorText(200),
    postal: donorText(20),
    ville: donorText(100),
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
/** What the pre-registration form holds while the parent types (all strings, consent boolean). */
export type PreRegistrationDraft = z.input<typeof preRegistrationSchema>;

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

/**
 * Turns a plain HTML form submission into the payload shape: checkbox
 * `consentement` becomes a boolean (checked → true), other values stay strings.
 */
export function formDataToPayload(form: FormData | URLSearchParams): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') payload[key] = value;
  }
  payload.consentement = payload.consentement === 'true' || payload.consentement === 'on';
  return payload;
}
