/** Every French message of the space that is not a page's own text: sign-in, refusals, saves, exports. */
export const ESPACE_MESSAGES = {
  /** Any wrong email/password pair: never says whether the account exists. */
  wrongCredentials: 'Email ou mot de passe incorrect',
  missingCredentials: 'Merci de saisir votre email et votre mot de passe',
  /** Firebase slows an account down after many failures; the site's rate limit answers 429 too. */
  tooManyAttempts: 'Trop de tentatives de connexion. Patientez quelques minutes, puis réessayez.',
  authUnavailable:
    'La connexion est momentanément indisponible. Réessayez dans quelques minutes ; si cela dure, prévenez le bureau.',
  noRole: 'Votre compte n’a encore accès à aucune partie de l’espace. Demandez un rôle à un membre du bureau.',
  /** A sign-in link used, expired, unknown, or confirmed with another email. */
  linkInvalid:
    'Ce lien de connexion n’est plus valable : il sert une seule fois, pendant une heure, avec l’email qui l’a reçu. ' +
    'Demandez-en un nouveau.',
  missingEmail: 'Merci de saisir votre email',
  /** The same answer whether or not the address has an account: it never says which. */
  linkSent:
    'Si cette adresse a accès à l’espace, un lien de connexion vient d’y être envoyé. Il sert une seule fois, ' +
    'pendant une heure. Pensez à regarder dans les indésirables.',
  signedOut: 'Vous êtes déconnecté.',
  sessionEnded: 'Votre session a pris fin. Merci de vous reconnecter.',
  /** The « session ended » page, when the post was kept for its sender (kept-posts.server.ts). */
  postKept:
    'Ce que vous venez d’envoyer n’est pas perdu : il est gardé pour vous pendant 24 heures. Reconnectez-vous : ' +
    'vous retrouverez le formulaire rempli, à enregistrer de nouveau.',
  postNotKept:
    'Ce que vous venez d’envoyer n’a pas pu être gardé. Revenez à la page précédente avec le bouton « Retour » du ' +
    'navigateur et copiez votre texte avant de vous reconnecter.',
  /** Above a form given back after signing in again. */
  postGivenBack:
    'Votre session avait pris fin : ce que vous aviez envoyé est revenu dans le formulaire. Vérifiez-le, puis ' +
    'enregistrez.',
  postGivenBackFiles: 'Les fichiers choisis n’ont pas été gardés : choisissez-les de nouveau.',
  /** The warning before the session's end (EspaceLayout's dialog). */
  sessionEnding: 'Votre session va bientôt prendre fin',
  sessionRenewFailed: 'La session n’a pas pu être prolongée. Enregistrez votre travail, puis reconnectez-vous.',
  forbidden: 'Cette page n’est pas accessible avec votre rôle.',
  unknownAccount: 'Ce compte n’existe pas ou plus.',
  /** « Retirer » (or taking the admin role away) by the only admin left. */
  lastAdmin:
    'Vous êtes la seule personne de l’administration : donnez d’abord ce rôle à quelqu’un d’autre, sinon plus ' +
    'personne ne pourrait gérer les comptes.',
  /** The invitation's optional name, when it is more than a name. */
  invitationName:
    'Écrivez seulement le nom de la personne : des lettres, des espaces, des traits d’union ou des apostrophes ' +
    '(60 caractères au plus).',
  /** Choosing a password on « Mon compte ». */
  passwordTooShort: 'Le mot de passe doit compter au moins 10 caractères.',
  passwordTooLong: 'Le mot de passe doit compter au plus 128 caractères.',
  passwordsDiffer: 'Les deux mots de passe ne sont pas les mêmes : retapez-les.',
  invalidEmail: 'Merci de saisir une adresse email valide',
  unknownRole: 'Merci de choisir un rôle dans la liste',
  sessionsStillOpen:
    'Le rôle est changé, mais les sessions ouvertes de la personne n’ont pas pu être fermées : elles gardent ' +
    'l’ancien rôle. Refaites la même demande dans quelques minutes pour les fermer.',
  saved: 'Modifications enregistrées.',
  notFound: 'Cette préinscription n’existe pas ou a été supprimée.',
  badForm: 'La demande est illisible. Merci de réessayer depuis la page.',
  /** A form post with a control character or a bidirectional override in any field (form-post.server.ts). */
  forbiddenCharacter:
    'Rien n’a été enregistré : un champ contient un caractère invisible interdit (caractère de contrôle ou inversion ' +
    'du sens d’écriture). Retapez ce texte au lieu de le coller.',
  /** A form post with a field longer than any of the space's fields may be (form-post.server.ts). */
  /** Above a form whose fields were refused (each field says why, beside it and in the summary). */
  fieldsRefused: 'Rien n’a été enregistré : corrigez les champs signalés.',
  fieldTooLong: (max: number) => `Rien n’a été enregistré : un champ dépasse ${max} caractères.`,
  unavailable: 'Le service est momentanément indisponible : rien n’a été modifié. Réessayez dans quelques minutes.',
  invalidDate: 'Merci de saisir une date valide (jj/mm/aaaa), au plus tard aujourd’hui',
  notSubscribed: 'Cette adresse n’est pas (ou plus) inscrite à la lettre.',
  removeUnconfirmed: 'Merci de confirmer le retrait de l’adresse.',
  removed: 'L’adresse a été retirée : elle ne recevra plus la lettre. Seule la preuve du consentement est gardée.',
  mailNotFailed: 'Ce courriel n’est plus en échec : il a déjà été remis dans la file ou envoyé.',
  mailRequeued: 'Le courriel est remis dans la file : il partira au prochain envoi, dans les 5 minutes.',
} as const;
