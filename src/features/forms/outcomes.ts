/**
 * The forms without JavaScript: a 303 back to the form's page with the outcome's fragment (`/#newsletter-ok`), shown
 * by `:target`.
 */
import { HTTP_MESSAGES } from '../../lib/http';
import { PERSON_NAME_MAX } from '../../lib/fields';
import { MESSAGES, type FormName } from './form-rules';
import { REQUEST_FIELD_MESSAGES } from '../admissions/request-fields';

/** Going back to the form keeps what was typed: every browser restores a form's fields on the way back. */
const BACK = 'revenez en arrière, ce que vous avez saisi est conservé par votre navigateur';

/** Each form's message per outcome (`ok` is the success; `peutetre`: sent, not confirmed in time). */
export const OUTCOMES = {
  newsletter: {
    ok: `${MESSAGES.newsletterSuccess} ${MESSAGES.newsletterConfirmByMail}`,
    email: MESSAGES.emailIncorrect,
    consentement: MESSAGES.consentRequired,
    champs: HTTP_MESSAGES.badRequest,
    indisponible: HTTP_MESSAGES.unavailable,
    peutetre:
      `Le service a mis trop de temps à répondre : votre inscription a peut-être déjà été enregistrée. Vous pouvez ` +
      `la renvoyer sans crainte (${BACK}) : elle ne sera pas enregistrée deux fois.`,
  },
  preinscription: {
    ok: MESSAGES.preRegistrationSuccess,
    email: MESSAGES.emailFieldInvalid,
    consentement: MESSAGES.preRegistrationConsentRequired,
    nom:
      'Les prénoms et noms ne peuvent contenir que des lettres, des espaces, des traits d’union et des apostrophes ' +
      `(${PERSON_NAME_MAX} caractères au plus) : ${BACK}.`,
    telephone: `${REQUEST_FIELD_MESSAGES.phoneInvalid} Pour le corriger, ${BACK}.`,
    naissance:
      'La date de naissance n’est pas valide : indiquez une date passée, sous la forme jj/mm/aaaa. Pour la ' +
      `corriger, ${BACK}.`,
    champs:
      'Certains champs obligatoires sont vides ou incorrects : revenez en arrière pour les compléter, ce que vous' +
      ' avez saisi est conservé par votre navigateur.',
    indisponible: HTTP_MESSAGES.unavailable,
    peutetre:
      `Le service a mis trop de temps à répondre : votre pré-inscription a peut-être déjà été enregistrée. Vous ` +
      `pouvez la renvoyer sans crainte (${BACK}) : elle ne sera pas enregistrée deux fois.`,
  },
} satisfies Record<FormName, Record<string, string>>;

/** What can come of a submission, whichever the form. */
export type Outcome = { [F in FormName]: keyof (typeof OUTCOMES)[F] }[FormName];

/** Id of an outcome's message block, e.g. `newsletter-ok`. */
export const outcomeId = (form: FormName, outcome: Outcome) => `${form}-${outcome}`;

/** Where a plain form POST is redirected, e.g. `/ecole#preinscription-ok`. */
export function outcomeLocation(form: FormName, outcome: Outcome): string {
  return `${form === 'newsletter' ? '/' : '/ecole'}#${outcomeId(form, outcome)}`;
}
