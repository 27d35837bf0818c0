/**
 * The form of /espace/association for document `association/site`: its fields in form order, each with its French
 * label, help and height (rows; 0 a one-line field); and the names of the page's two documents in its history.
 */
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT } from '../../../content-association';

/** The association's document fields the space edits, in form order. */
export const ASSOCIATION_FIELDS = [
  'objet',
  'enregistrement',
  'signataire',
  'directeurPublication',
  'horaires',
  'delaiReponse',
  'soutenirDon',
  'soutenirBenevolat',
  'soutenirMecenat',
] as const;

/** A field of ASSOCIATION_FIELDS. */
export type SiteField = (typeof ASSOCIATION_FIELDS)[number];

/** Each field's label, help and rows (0: one line). */
export const ASSOCIATION_LABELS: Record<SiteField, [label: string, help: string, rows: number]> = {
  objet: ['Objet de l’association', 'Tel qu’il est écrit dans les statuts. Imprimé sur les reçus fiscaux.', 3],
  enregistrement: [
    'Numéros d’enregistrement',
    'RNA, SIREN… tels qu’ils doivent figurer sur les reçus fiscaux. Par exemple : RNA W691234567 · SIREN 123 456 789.',
    2,
  ],
  signataire: ['Signataire des reçus', 'Nom et fonction. Par exemple : Marie Dupont, présidente.', 0],
  directeurPublication: [
    'Directeur ou directrice de la publication',
    'La personne responsable de ce que publie le site, que la loi demande de nommer dans les mentions légales ' +
      '(souvent le président ou la présidente). Nom et fonction. Par exemple : Marie Dupont, présidente.',
    0,
  ],
  horaires: ['Horaires du secrétariat (page Contact)', 'Laissez vide pour ne pas afficher d’horaires.', 2],
  delaiReponse: [
    'Après une préinscription',
    'La phrase qui suit « Vous avez été inscrit ». Vide : le texte par défaut.',
    2,
  ],
  soutenirDon: ['Page Nous soutenir : « Faire un don »', 'Vide : le texte par défaut.', 4],
  soutenirBenevolat: ['Page Nous soutenir : « Donner un peu de temps »', 'Vide : le texte par défaut.', 3],
  soutenirMecenat: ['Page Nous soutenir : « Devenir partenaire »', 'Vide : le texte par défaut.', 3],
};

/** The page's two documents (`collection/id`), by the name of their form, as its history names them. */
export const ASSOCIATION_DOCUMENTS = {
  [`articles/${ADDRESS_ARTICLE}`]: 'nom et coordonnées',
  [`association/${ASSOCIATION_DOCUMENT}`]: 'reçus fiscaux et textes',
};
