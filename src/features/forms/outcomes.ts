/**
 * The forms without JavaScript: a plain form POST is answered by a 303 back to the page with a fragment
 * naming the outcome (`/#newsletter-ok`); the page holds one message per outcome, shown by `:target`.
 */
import { MESSAGES } from './forms';

/** The two forms. */
export type FormName = 'newsletter' | 'preinscription';

/** What can come of a submission. */
export type Outcome = 'ok' | 'email' | 'consentement' | 'champs' | 'indisponible';

/** Page each form lives on (where the redirect goes back to). */
export const FORM_PAGES: Record<FormName, string> = { newsletter: '/', preinscription: '/ecole' };

/** Message shown for each outcome of each form, and whether it is a success. */
export const OUTCOMES: Record<FormName, Partial<Record<Outcome, { text: string; success: boolean }>>> = {
  newsletter: {
    ok: { text: MESSAGES.newsletterSuccess, success: true },
    email: { text: MESSAGES.emailIncorrect, success: false },
    consentement: { text: MESSAGES.consentRequired, success: false },
    champs: { text: MESSAGES.badRequest, success: false },
    indisponible: { text: MESSAGES.unavailable, success: false },
  },
  preinscription: {
    ok: { text: MESSAGES.preRegistrationSuccess, success: true },
    email: { text: MESSAGES.emailFieldInvalid, success: false },
    consentement: { text: MESSAGES.preRegistrationConsentRequired, success: false },
    champs: {
      text: 'Certains champs obligatoires sont vides ou incorrects : revenez en arrière pour les compléter, ce que vous avez saisi est conservé par votre navigateur.',
      success: false,
    },
    indisponible: { text: MESSAGES.unavailable, success: false },
  },
};

/** Id of the message block of an outcome, e.g. `newsletter-ok`. */
export function outcomeId(form: FormName, outcome: Outcome): string {
  return `${form}-${outcome}`;
}

/** Where a plain form POST is redirected, e.g. `/ecole#preinscription-ok`. */
export function outcomeLocation(form: FormName, outcome: Outcome): string {
  return `${FORM_PAGES[form]}#${outcomeId(form, outcome)}`;
}

/** Maps the first invalid field of a submission to its outcome. */
export function outcomeForField(field: string | undefined): Outcome {
  if (field === 'email') return 'email';
  if (field === 'consentement') return 'consentement';
  return 'champs';
}
