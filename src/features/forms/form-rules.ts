/**
 * The forms' rules and French messages that need no schema library: what the islands need before a
 * visitor submits, without loading zod. src/features/forms/forms.ts builds the schemas on them and re-exports
 * all of this; the newsletter popup loads it only at the first submit (zod stays off the home page).
 */

/** Every message a visitor can see from the forms. */
export const MESSAGES = {
  /** Spec §5: newsletter email rule broken, on submit. */
  emailIncorrect: "L'email ne semble pas correct, pouvez-vous le vérifier ?",
  /** Spec §5: newsletter consent missing, on submit. */
  consentRequired: 'Votre consentement est obligatoire pour vous inscrire',
  /** Spec §5: newsletter success. */
  newsletterSuccess: 'Votre email a bien été enregistré, merci pour votre soutien.',
  /** Spec §5: shown next to the email field while it is invalid. */
  emailFieldInvalid: 'Merci de saisir un email valide',
  /** Spec §7: pre-registration success. */
  preRegistrationSuccess: 'Vous avez été inscrit',
  /** Pre-registration consent missing (spec §5: "the consent checkbox is required"; wording ours). */
  preRegistrationConsentRequired: 'Votre consentement est obligatoire pour pré-inscrire votre enfant',
  required: {
    enfantPrenom: 'Merci d’indiquer le prénom de votre enfant',
    enfantNom: 'Merci d’indiquer le nom de votre enfant',
    parentPrenom: 'Merci d’indiquer votre prénom',
    parentNom: 'Merci d’indiquer votre nom',
  },
  /** A text longer than its field allows (characters = code points, textLength). */
  tooLong: (max: number) => `Ce champ est trop long (${max} caractères au plus)`,
  /** A text holding an unpaired UTF-16 surrogate (a broken character no keyboard types; a hand-made request). */
  malformedText: 'Ce champ contient un caractère illisible : merci de le retaper.',
  /** The consent wording the visitor saw is not one the site knows (a page older than the wording). */
  consentOutdated:
    'Le texte du consentement a changé : merci de recharger la page puis de cocher à nouveau la case. Ce que vous avez saisi est conservé.',
  /** Country code not in the list. */
  countryUnknown: 'Merci de choisir un pays dans la liste',
  /** Fields that are not part of the form (a hand-made request). */
  unknownField: 'La demande contient des champs inattendus',
  /** An address that is not exactly the endpoint's (HTTP 404). */
  notFound: 'Cette adresse n’existe pas. Merci d’utiliser le formulaire du site.',
  /** Body too large (HTTP 413). */
  tooLarge: 'La demande est trop volumineuse',
  /** Body that is not a form or JSON. */
  badRequest: 'La demande est illisible. Merci de réessayer depuis le formulaire.',
  /** Database unreachable or too slow (HTTP 503). */
  unavailable:
    'Le service est momentanément indisponible. Vos informations n’ont pas été enregistrées : merci de réessayer dans quelques minutes.',
  /** Too many submissions from one address in a minute (HTTP 429, netlify/edge-functions/rate-limit.ts). */
  tooManyRequests:
    'Trop de demandes en peu de temps. Patientez une minute, puis réessayez : ce que vous avez saisi est conservé.',
  /** The browser could not reach our server at all. */
  network: 'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.',
} as const;

/**
 * Longest value of each text field, in characters (code points, textLength): the schemas, the
 * islands and the donation ledger all read it. Email: RFC 5321's 254.
 */
export const FIELD_MAX = {
  email: 254,
  prenom: 100,
  nom: 100,
  infos: 2000,
  adresse: 200,
  postal: 20,
  ville: 100,
  honeypot: 200,
} as const;

/** Largest accepted request body, in bytes (HTTP 413 above). */
export const MAX_BODY_BYTES = 16_384;

/** Name of the hidden honeypot field: a bot fills it, a person never sees it. */
export const HONEYPOT_FIELD = 'site';

/**
 * The newsletter email rule of spec §5: at least 5 characters, with '@' and '.'.
 * @param email - as typed (surrounding spaces ignored).
 */
export function isAcceptableEmail(email: string): boolean {
  const value = email.trim();
  return value.length >= 5 && value.includes('@') && value.includes('.') && !/\s/.test(value);
}

/**
 * Length of a text as the whole site counts it: Unicode code points, so that an emoji or a
 * character outside the BMP is one character. zod's `maxLength` counts the same way (zod 4.6);
 * the islands set no native `maxlength` (it counts UTF-16 units and silently cuts a paste).
 */
export function textLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * True when `value` has no unpaired UTF-16 surrogate (`\uD800` alone): such a string has no
 * UTF-8 form, so Firestore (and any JSON→UTF-8 store) refuses it. The forms refuse it at
 * validation (400, MESSAGES.malformedText).
 */
export function isWellFormedText(value: string): boolean {
  return !/\p{Surrogate}/u.test(value);
}

/** The forms whose documents record a consent. */
export type ConsentForm = 'newsletter' | 'preinscription';

/** One consent wording: its version (the date it took effect, YYYY-MM-DD) and its exact text. */
export interface ConsentWording {
  version: string;
  text: string;
}

/**
 * Every consent wording shown next to a form's consent box, newest first (the first is shown).
 * Each newsletter and pre-registration document stores the version the visitor saw and its
 * text (RGPD art. 7, proof of consent; docs/firestore.md). Never edit a published wording: add
 * a new version in front, and keep the old ones (pages still open send them).
 */
export const CONSENT_WORDINGS: Record<ConsentForm, readonly [ConsentWording, ...ConsentWording[]]> = {
  newsletter: [
    { version: '2026-11-23', text: 'J’accepte que l’association m’envoie sa lettre d’information par email.' },
  ],
  preinscription: [
    {
      version: '2026-11-23',
      text: 'J’accepte que l’association conserve ces informations pour étudier la pré-inscription de mon enfant et me recontacter.',
    },
  ],
};

/** The wording a form shows now (the newest of CONSENT_WORDINGS). */
export function currentConsent(form: ConsentForm): ConsentWording {
  return CONSENT_WORDINGS[form][0];
}

/** The text of a form's consent wording `version`, or undefined for a version the site never showed. */
export function consentText(form: ConsentForm, version: unknown): string | undefined {
  return CONSENT_WORDINGS[form].find((wording) => wording.version === version)?.text;
}

/** CLDR region codes that are not countries (groupings, unknown). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
let regionNames: Intl.DisplayNames | undefined;

/**
 * True for an ISO 3166-1 alpha-2 country code ("FR", "BE"), checked with the
 * runtime's own CLDR data (Intl.DisplayNames) so that the browser bundle does
 * not carry a country table; the list shown comes from src/features/forms/countries.ts.
 */
export function isCountryCodeLike(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  regionNames ??= new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'none' });
  return regionNames.of(code) !== undefined;
}
