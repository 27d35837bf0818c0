/** The forms' rules and French messages that need no zod (the islands' part); forms.ts builds the schemas on them and re-exports them. */

/** Every message a visitor can see from the forms: spec §5 (newsletter) and §7 (pre-registration success) quoted exactly, ours otherwise. */
export const MESSAGES = {
  emailIncorrect: "L'email ne semble pas correct, pouvez-vous le vérifier ?",
  consentRequired: 'Votre consentement est obligatoire pour vous inscrire',
  newsletterSuccess: 'Votre email a bien été enregistré, merci pour votre soutien.',
  /** Said beside newsletterSuccess: the double opt-in (docs/mail.md). */
  newsletterConfirmByMail: 'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.',
  /** Spec §5: shown next to the email field while it is invalid. */
  emailFieldInvalid: 'Merci de saisir un email valide',
  preRegistrationSuccess: 'Vous avez été inscrit',
  preRegistrationConsentRequired: 'Votre consentement est obligatoire pour pré-inscrire votre enfant',
  required: {
    enfantPrenom: 'Merci d’indiquer le prénom de votre enfant',
    enfantNom: 'Merci d’indiquer le nom de votre enfant',
    parentPrenom: 'Merci d’indiquer votre prénom',
    parentNom: 'Merci d’indiquer votre nom',
  },
  /** A text longer than its field allows, in characters (code points, as zod counts). */
  tooLong: (max: number) => `Ce champ est trop long (${max} caractères au plus)`,
  /** An unpaired UTF-16 surrogate: no UTF-8 form, Firestore refuses it (a hand-made request). */
  malformedText: 'Ce champ contient un caractère illisible : merci de le retaper.',
  /** The consent wording sent is not one the site knows (a page older than the wording). */
  consentOutdated:
    'Le texte du consentement a changé : merci de recharger la page puis de cocher à nouveau la case. Ce que vous avez saisi est conservé.',
  countryUnknown: 'Merci de choisir un pays dans la liste',
  unknownField: 'La demande contient des champs inattendus',
  /** HTTP 404: an address that is not exactly the endpoint's. */
  notFound: 'Cette adresse n’existe pas. Merci d’utiliser le formulaire du site.',
  tooLarge: 'La demande est trop volumineuse',
  badRequest: 'La demande est illisible. Merci de réessayer depuis le formulaire.',
  /** HTTP 503: database unreachable or too slow. */
  unavailable:
    'Le service est momentanément indisponible. Vos informations n’ont pas été enregistrées : merci de réessayer dans quelques minutes.',
  /** HTTP 429 (netlify/edge-functions/rate-limit.ts). */
  tooManyRequests:
    'Trop de demandes en peu de temps. Patientez une minute, puis réessayez : ce que vous avez saisi est conservé.',
  /** The browser could not reach our server at all. */
  network: 'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.',
} as const;

/** Longest value of each text field in code points (not `maxlength`'s UTF-16 units), for schemas, islands and ledger; email: RFC 5321. */
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

/** Spec §5's newsletter email rule on `email` as typed (trimmed): at least 5 characters, with '@' and '.', no space. */
export function isAcceptableEmail(email: string): boolean {
  const value = email.trim();
  return value.length >= 5 && value.includes('@') && value.includes('.') && !/\s/.test(value);
}

/** The two forms (each stores a consent; each has its no-JavaScript outcomes). */
export type FormName = 'newsletter' | 'preinscription';

type ConsentWording = { version: string; text: string };

/** Each form's consent wordings, newest first (shown), stored with each document (RGPD art. 7): never edit one, add a version in front. */
export const CONSENT_WORDINGS: Record<FormName, readonly [ConsentWording, ...ConsentWording[]]> = {
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

/** The wording `{version: YYYY-MM-DD, text}` a form shows now. */
export function currentConsent(form: FormName): ConsentWording {
  return CONSENT_WORDINGS[form][0];
}

/** The text of a form's consent wording `version`, or undefined for a version the site never showed. */
export function consentText(form: FormName, version: unknown): string | undefined {
  return CONSENT_WORDINGS[form].find((wording) => wording.version === version)?.text;
}
