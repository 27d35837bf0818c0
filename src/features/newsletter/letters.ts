/**
 * The newsletter's letters (`lettres`, docs/mail.md « Letters »): their French messages, their fields' bounds and how
 * a stored document reads. No Firestore here: letters.server.ts stores and sends them.
 */

/** The collection of letters; each holds the subcollection DESTINATAIRES (one document per subscriber reached). */
export const LETTRES = 'lettres';

/** A letter's subcollection: one document per subscriber its mail was queued for, id = the subscription's id. */
export const DESTINATAIRES = 'destinataires';

/** The outbox kind of a letter's mail to a subscriber, and of a test to the sender. */
export const LETTER_MAIL_KIND = 'lettre';
export const LETTER_TEST_KIND = 'lettre-test';

/** Longest subject, in characters (a mail client shows about 60; a header holds more). */
export const SUBJECT_MAX = 150;

/** Longest body, in characters of HTML (a letter of some 5,000 words). */
export const BODY_MAX = 60_000;

/** Subscribers queued per Firestore batch (two writes each: the mail and its recipient; a batch holds 500). */
export const SEND_BATCH = 200;

/** A letter's document id: Firestore's automatic ids (20 letters and digits). */
export const LETTER_ID_PATTERN = /^[A-Za-z0-9]{20}$/;

/** Every French message of the letters' pages. */
export const LETTER_MESSAGES = {
  subjectEmpty: 'Merci de saisir l’objet de la lettre',
  subjectTooLong: `L’objet dépasse ${SUBJECT_MAX} caractères : raccourcissez-le.`,
  bodyEmpty: 'Merci d’écrire le texte de la lettre',
  bodyTooLong: `Le texte dépasse ${BODY_MAX} caractères : partagez-le en deux lettres.`,
  script: 'Le texte contient un script ou un code qui s’exécute : retirez-le (seule la mise en forme est permise).',
  badLink: (href: string) =>
    `Le lien « ${href} » n’est pas une adresse acceptée : https://…, mailto:…, tel:… ou /page du site.`,
  notFound: 'Cette lettre n’existe pas.',
  alreadySent: 'Cette lettre est partie : elle ne peut plus être modifiée. Écrivez-en une nouvelle.',
  saved: 'La lettre est enregistrée. Relisez l’aperçu ci-dessous, puis envoyez-vous un test.',
  testSent: (email: string) =>
    `Le test est parti à ${email} (objet précédé de « [Test] »). Il arrive d’ordinaire en une minute ; pensez aux ` +
    'indésirables.',
  testTooSoon: 'Un test de cette lettre vient de partir : attendez une minute avant d’en demander un autre.',
  sendUnconfirmed: 'Merci de confirmer l’envoi de la lettre.',
  noSubscriber: 'Aucun abonné confirmé : la lettre n’est envoyée à personne.',
  queued: (count: number) =>
    `La lettre part vers ${count} abonné${count > 1 ? 's' : ''}. Les envois se font par lots : ` +
    'les chiffres ci-dessous se mettent à jour en rechargeant la page.',
  nobodyNew: 'Tous les abonnés confirmés ont déjà reçu cette lettre : elle n’est envoyée à personne une deuxième fois.',
  unfinished: (queued: number) =>
    `${queued} envoi${queued > 1 ? 's' : ''} mis en file ; il en reste : appuyez de nouveau sur « Envoyer » pour ` +
    'continuer (personne ne la recevra deux fois).',
} as const;

/** `count` and `word`, plural from 2 (« 1 abonné », « 0 abonné », « 3 abonnés »), as French counts it. */
export const counted = (count: number, word: string) => `${count} ${word}${count > 1 ? 's' : ''}`;

/** A letter as the pages show it. Counts come from the outbox (refreshed on the letter's page). */
export interface Letter {
  id: string;
  objet: string;
  /** The body, HTML as the editor's sanitiser stores it. */
  contenu: string;
  statut: 'brouillon' | 'envoyee';
  creeLe: Date | undefined;
  modifieLe: Date | undefined;
  /** When it was first sent to the subscribers. */
  envoyeeLe: Date | undefined;
  /** Subscribers it was queued for. */
  destinataires: number;
  envoyes: number;
  echecs: number;
  enAttente: number;
}

const dateOf = (value: unknown) =>
  value && typeof (value as { toDate?: unknown }).toDate === 'function'
    ? (value as { toDate(): Date }).toDate()
    : undefined;
const countOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A stored `lettres` document as a Letter (missing fields: empty, 0, undefined). */
export function readLetter(id: string, data: Record<string, unknown> | undefined): Letter {
  return {
    id,
    objet: typeof data?.objet === 'string' ? data.objet : '',
    contenu: typeof data?.contenu === 'string' ? data.contenu : '',
    statut: data?.statut === 'envoyee' ? 'envoyee' : 'brouillon',
    creeLe: dateOf(data?.creeLe),
    modifieLe: dateOf(data?.modifieLe),
    envoyeeLe: dateOf(data?.envoyeeLe),
    destinataires: countOf(data?.destinataires),
    envoyes: countOf(data?.envoyes),
    echecs: countOf(data?.echecs),
    enAttente: countOf(data?.enAttente),
  };
}

/** The outbox id of letter `letterId`'s mail to subscription `subscriberId`: one mail per person and letter. */
export const letterMailId = (letterId: string, subscriberId: string) => `lettres-${letterId}-${subscriberId}`;
