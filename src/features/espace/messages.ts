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
  signedOut: 'Vous êtes déconnecté.',
  sessionEnded: 'Votre session a pris fin. Merci de vous reconnecter.',
  forbidden: 'Cette page n’est pas accessible avec votre rôle.',
  unknownAccount: 'Aucun compte ne porte cet email. La personne doit d’abord avoir un compte.',
  unknownRole: 'Merci de choisir un rôle dans la liste',
  saved: 'Modifications enregistrées.',
  notFound: 'Cette préinscription n’existe pas ou a été supprimée.',
  badForm: 'La demande est illisible. Merci de réessayer depuis la page.',
  unavailable: 'Le service est momentanément indisponible : rien n’a été modifié. Réessayez dans quelques minutes.',
  invalidDate: 'Merci de saisir une date valide (jj/mm/aaaa), au plus tard aujourd’hui',
} as const;
