/**
 * The donation form posted without JavaScript (POST /api/don, docs/donations.md): when no payment page opens, a 303
 * back to /soutenir with the outcome's fragment (`/soutenir#don-montant-minimum`), whose message the page shows by
 * `:target` above a fresh form.
 */
import { HTTP_MESSAGES } from '../../../lib/http';
import { OWN_AMOUNT_MESSAGES } from './donations';

/** Stripe failed, or was too slow (HTTP 502): the session endpoints' message. */
export const PROVIDER_UNAVAILABLE =
  'Le service de paiement ne répond pas pour le moment. Aucun montant n’a été débité : merci de réessayer dans ' +
  'quelques minutes.';

/** No Stripe secret key (HTTP 503): the session endpoints' message. */
export const NOT_CONFIGURED = 'Le paiement en ligne n’est pas configuré sur ce site.';

/** What the donor must do after a refused « Autre montant »: the page they come back to shows 25 € chosen. */
const OWN_AGAIN = 'Choisissez « Autre montant » ci-dessous et indiquez de nouveau votre montant.';

/** A refusal's message as a sentence: its final point. */
const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

/** Each outcome's message, in French (the endpoints' own, completed with what to do on this page). */
export const DONATION_OUTCOMES = {
  'montant-vide': `${sentence(OWN_AMOUNT_MESSAGES.required)} ${OWN_AGAIN}`,
  'montant-illisible': `${sentence(OWN_AMOUNT_MESSAGES.notAmount)} ${OWN_AGAIN}`,
  'montant-decimales': `${sentence(OWN_AMOUNT_MESSAGES.tooPrecise)} ${OWN_AGAIN}`,
  'montant-minimum': `${sentence(OWN_AMOUNT_MESSAGES.tooSmall)} ${OWN_AGAIN}`,
  'montant-maximum': `${sentence(OWN_AMOUNT_MESSAGES.tooLarge)} ${OWN_AGAIN}`,
  champs: HTTP_MESSAGES.badRequest,
  indisponible: PROVIDER_UNAVAILABLE,
  'non-configure':
    `${NOT_CONFIGURED} Vous pouvez nous adresser votre don par chèque, à l’adresse indiquée plus bas : nous vous ` +
    'enverrons votre reçu fiscal.',
} as const;

/** What a form post that opened no payment page comes to. */
export type DonationOutcome = keyof typeof DONATION_OUTCOMES;

/** The outcome of each « Autre montant » refusal, by the schema's message. */
const OWN_AMOUNT_OUTCOMES = new Map<string, DonationOutcome>([
  [OWN_AMOUNT_MESSAGES.required, 'montant-vide'],
  [OWN_AMOUNT_MESSAGES.notAmount, 'montant-illisible'],
  [OWN_AMOUNT_MESSAGES.tooPrecise, 'montant-decimales'],
  [OWN_AMOUNT_MESSAGES.tooSmall, 'montant-minimum'],
  [OWN_AMOUNT_MESSAGES.tooLarge, 'montant-maximum'],
]);

/**
 * The outcome of a refusal answered `status` with `message` (`ownAmount`: the « Autre montant » field's own message,
 * when it is the one refused): its amount's, else `non-configure` (503), `indisponible` (other 5xx) or `champs`.
 */
export function donationOutcome(status: number, message: string, ownAmount?: string): DonationOutcome {
  const own = ownAmount === undefined ? undefined : OWN_AMOUNT_OUTCOMES.get(ownAmount);
  if (own) return own;
  if (status < 500) return 'champs';
  return message === NOT_CONFIGURED ? 'non-configure' : 'indisponible';
}

/** The id of an outcome's message on /soutenir, e.g. `don-montant-minimum`. */
export const donationOutcomeId = (outcome: DonationOutcome) => `don-${outcome}`;

/** Where a form post that opened no payment page is sent back (303), e.g. `/soutenir#don-indisponible`. */
export const donationOutcomeLocation = (outcome: DonationOutcome) => `/soutenir#${donationOutcomeId(outcome)}`;
