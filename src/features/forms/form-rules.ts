/**
 * The forms' rules and French messages that need no zod (the islands' part); forms.ts builds the schemas on them and
 * re-exports them.
 */
import { FIELD_MESSAGES, PERSON_FIELD_MAX } from '../../lib/fields';

/**
 * Every message of the forms' own: spec §5 (newsletter) and §7 (pre-registration success) quoted exactly, ours
 * otherwise, with the person fields' (src/lib/fields.ts); HTTP wording is src/lib/http.ts's.
 */
export const MESSAGES = {
  ...FIELD_MESSAGES,
  emailIncorrect: "L'email ne semble pas correct, pouvez-vous le vérifier ?",
  consentRequired: 'Votre consentement est obligatoire pour vous inscrire',
  newsletterSuccess: 'Votre email a bien été enregistré, merci pour votre soutien.',
  /** Said beside newsletterSuccess: the double opt-in (docs/mail.md). */
  newsletterConfirmByMail: 'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.',
  /** Spec §5: shown next to the email field while it is invalid. */
  emailFieldInvalid: FIELD_MESSAGES.emailInvalid,
  /**
   * Why the newsletter's « M’inscrire » is unavailable (spec §5: disabled while the form is invalid), by what is
   * missing: the button's description.
   */
  newsletterSubmitNeeds: {
    both: 'Pour vous inscrire, saisissez un email valide et cochez la case d’accord.',
    email: 'Pour vous inscrire, saisissez un email valide.',
    consent: 'Pour vous inscrire, cochez la case d’accord.',
  },
  preRegistrationSuccess: 'Vous avez été inscrit',
  /**
   * The confirmation panel's title, and what follows the spec's « Vous avez été inscrit »: the request is recorded and
   * binds no one; the next steps (preRegistrationNext) say when a place is offered, without contradicting it.
   */
  preRegistrationReceived: 'Pré-inscription reçue',
  preRegistrationIsRequest: 'Votre demande de pré-inscription est enregistrée et ne vous engage à rien.',
  /** What happens next, as the acknowledgement mail says it (mail/templates/PreRegistrationMails.tsx). */
  preRegistrationNext: [
    'Nous vous envoyons un email avec votre numéro de référence.',
    'L’équipe des admissions lit votre demande.',
    // The delay is the editors' text (« Nous vous recontactons sous quinze jours. »), said beside these steps.
    'Elle vous recontacte pour convenir d’une rencontre avec vous et votre enfant.',
    'Après cette rencontre, elle vous dit si une place peut vous être proposée.',
  ],
  preRegistrationConsentRequired: 'Votre consentement est obligatoire pour pré-inscrire votre enfant',
  required: {
    enfantPrenom: 'Merci d’indiquer le prénom de votre enfant',
    enfantNom: 'Merci d’indiquer le nom de votre enfant',
    parentPrenom: 'Merci d’indiquer votre prénom',
    parentNom: 'Merci d’indiquer votre nom',
  },
  /** The consent wording sent is not one the site knows (a page older than the wording). */
  consentOutdated:
    'Le texte du consentement a changé : merci de recharger la page puis de cocher à nouveau la case. Ce que vous' +
    ' avez saisi est conservé.',
} as const;

/** Longest value of each text field in code points (not `maxlength`'s UTF-16 units): the person fields, and ours. */
export const FIELD_MAX = { ...PERSON_FIELD_MAX, infos: 2000, honeypot: 200 } as const;

/** Name of the hidden honeypot field: a bot fills it, a person never sees it. */
export const HONEYPOT_FIELD = 'site';

/** The two forms (each stores a consent; each has its no-JavaScript outcomes). */
export type FormName = 'newsletter' | 'preinscription';

type ConsentWording = { version: string; text: string };

/**
 * Each form's consent wordings, newest first (shown), stored with each document (RGPD art. 7): never edit one, add a
 * version in front.
 */
export const CONSENT_WORDINGS: Record<FormName, readonly [ConsentWording, ...ConsentWording[]]> = {
  newsletter: [
    { version: '2026-11-23', text: 'J’accepte que l’association m’envoie sa lettre d’information par email.' },
  ],
  preinscription: [
    {
      version: '2026-11-23',
      text:
        'J’accepte que l’association conserve ces informations pour étudier la pré-inscription de mon enfant et me ' +
        'recontacter.',
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
