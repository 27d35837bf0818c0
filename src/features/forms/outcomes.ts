/** The forms without JavaScript: a 303 back to the form's page with the outcome's fragment (`/#newsletter-ok`), shown by `:target`. */
import { MESSAGES, type FormName } from './form-rules';

/** Each form's message per outcome (`ok` is the success). */
export const OUTCOMES = {
  newsletter: {
    ok: `${MESSAGES.newsletterSuccess} ${MESSAGES.newsletterConfirmByMail}`,
    email: MESSAGES.emailIncorrect,
    consentement: MESSAGES.consentRequired,
    champs: MESSAGES.badRequest,
    indisponible: MESSAGES.unavailable,
  },
  preinscription: {
    ok: MESSAGES.preRegistrationSuccess,
    email: MESSAGES.emailFieldInvalid,
    consentement: MESSAGES.preRegistrationConsentRequired,
    champs:
      'Certains champs obligatoires sont vides ou incorrects : revenez en arrière pour les compléter, ce que vous avez saisi est conservé par votre navigateur.',
    indisponible: MESSAGES.unavailable,
  },
} satisfies Record<FormName, Record<string, string>>;

/** What can come of a submission. */
export type Outcome = keyof (typeof OUTCOMES)['newsletter'];

/** Id of an outcome's message block, e.g. `newsletter-ok`. */
export const outcomeId = (form: FormName, outcome: Outcome) => `${form}-${outcome}`;

/** Where a plain form POST is redirected, e.g. `/ecole#preinscription-ok`. */
export function outcomeLocation(form: FormName, outcome: Outcome): string {
  return `${form === 'newsletter' ? '/' : '/ecole'}#${outcomeId(form, outcome)}`;
}
