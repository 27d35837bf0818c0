/**
 * The content type of collection `association` (docs/content.md): the association's one document, beside the
 * specification's types of src/content.config.ts.
 */
import * as z from 'zod';

/** A free text of the association's document: trimmed, at most `max` characters (code points). */
const associationText = (what: string, max: number) =>
  z
    .preprocess((value) => value ?? '', z.string({ error: `${what} n’est pas un texte` }))
    .pipe(
      z
        .string()
        .trim()
        .refine((value) => [...value].length <= max, `${what} est trop long (${max} caractères au plus)`),
    );

/**
 * The association's document `association/site` (not in the spec: added so that editors change in the space what the
 * templates used to hold): what its tax receipts print besides the name and address of article `adresse`, the
 * publication director of the generated legal notice, and the page texts. `''` or a missing field: the receipt falls
 * back to the environment, a page to its default text (`SITE_TEXT_DEFAULTS` in src/association.ts). Each field is
 * left out alone when unreadable.
 */
export const associationSchema = z.object({
  /** The object as in the statutes, printed on receipts. */
  objet: associationText('l’objet de l’association', 600),
  /** Registration numbers (RNA, SIREN…), printed on receipts. */
  enregistrement: associationText('ses numéros d’enregistrement', 300),
  /** Who signs the receipts: name and office. */
  signataire: associationText('le nom du signataire des reçus', 200),
  /** The publication director (LCEN art. 6): name and office, on /mentions when editors wrote none. */
  directeurPublication: associationText('le nom du directeur de la publication', 200),
  /** /contact: the office hours; none shown when ''. */
  horaires: associationText('le texte des horaires', 400),
  /** Pre-registration form: the sentence after « Vous avez été inscrit ». */
  delaiReponse: associationText('le texte du délai de réponse', 300),
  /** /soutenir: the paragraph under « Faire un don ». */
  soutenirDon: associationText('le paragraphe « Faire un don »', 1000),
  /** /soutenir: the paragraph under « Donner un peu de temps ». */
  soutenirBenevolat: associationText('le paragraphe « Donner un peu de temps »', 1000),
  /** /soutenir: the paragraph under « Devenir partenaire ». */
  soutenirMecenat: associationText('le paragraphe « Devenir partenaire »', 1000),
});

/** The id of the association's one document in collection `association`. */
export const ASSOCIATION_DOCUMENT = 'site';

/**
 * The id of the article that names the association (spec: titre, intro's postal lines, contenu's contact lines),
 * read by the footer, /contact and the receipts, edited on /espace/association.
 */
export const ADDRESS_ARTICLE = 'adresse';

/** The name shown when the database has no article `adresse`: neutral, never another association's. */
export const UNNAMED = 'L’association';

/** The association's document after validation. */
export type AssociationDocument = z.infer<typeof associationSchema>;

/** What a tax receipt prints besides the name, the address and the signatory: object, registration numbers. */
export interface ReceiptLines {
  object: string;
  registration: string;
}

/**
 * A receipt's lines from the association's document `document` (as stored or as published: a field the schema would
 * leave out counts as empty), each else from `fallback` (the environment's ASSOCIATION_OBJECT,
 * ASSOCIATION_REGISTRATION). The site's receipts and the scheduled jobs' read them alike; the signatory is read apart
 * (features/donations/receipts/signatory.server.ts).
 */
export function receiptLines(
  document: Record<string, unknown>,
  fallback: { [Key in keyof ReceiptLines]?: string | undefined },
): ReceiptLines {
  const line = (field: 'objet' | 'enregistrement', key: keyof ReceiptLines) =>
    associationSchema.shape[field].safeParse(document[field]).data || (fallback[key]?.trim() ?? '');
  return { object: line('objet', 'object'), registration: line('enregistrement', 'registration') };
}
