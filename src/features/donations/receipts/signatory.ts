/**
 * Who signs the tax receipts: a name, a quality (« présidente », « trésorier ») and, when uploaded, a picture of the
 * signature. No receipt is numbered while the name or the quality is missing (CERFA n° 11580 and n° 16216 ask for the
 * signatory's name, quality and signature); the treasurer sets them on /espace/dons/signataire. The French texts and
 * the form's checks; the storage is signatory.server.ts.
 */
import * as z from 'zod';

/** A signature picture as stored and drawn on the PDF: PNG or JPEG bytes, already cleaned (signatory.server.ts). */
export interface SignatureImage {
  type: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
}

/** The receipts' signatory: `name` and `quality` never empty; `image` the signature, when one was uploaded. */
export interface Signatory {
  name: string;
  quality: string;
  image?: SignatureImage;
}

/** The treasurer's page where the signatory is set. */
export const SIGNATORY_PATH = '/espace/dons/signataire';

/** Longest name or quality, in characters. */
export const SIGNATORY_FIELD_MAX = 100;

/** Largest signature file accepted, in bytes (a scan or a phone photo of a signature). */
export const SIGNATURE_MAX_BYTES = 5 * 1024 * 1024;

/** The French texts of the signatory: the ledger's warning, the form's outcomes and refusals. */
export const SIGNATORY_MESSAGES = {
  waiting: 'Les reçus attendent : le nom et la qualité du signataire manquent',
  waitingHelp:
    'Aucun reçu fiscal n’est numéroté ni envoyé tant que le signataire n’est pas indiqué. Rien n’est perdu : les ' +
    'reçus en attente seront émis dès que son nom et sa qualité seront enregistrés.',
  fix: 'Indiquer le signataire des reçus',
  saved: 'Signataire des reçus enregistré.',
  issued: (count: number) =>
    count === 0
      ? 'Aucun reçu n’attendait.'
      : `${count} reçu${count > 1 ? 's' : ''} en attente ${count > 1 ? 'ont été émis' : 'a été émis'}.`,
  name: 'Merci de saisir le nom et le prénom du signataire',
  quality: 'Merci de saisir la qualité du signataire, par exemple présidente ou trésorier',
  tooLong: (what: string) => `${what} est trop long (${SIGNATORY_FIELD_MAX} caractères au plus)`,
  notImage: 'Ce fichier n’est pas une image PNG ou JPEG : choisissez une photo ou un scan de la signature.',
  tooLarge: 'Ce fichier pèse plus de 5 Mo : choisissez une image plus légère de la signature.',
  unreadable: 'Cette image est illisible ou abîmée : choisissez-en une autre (PNG ou JPEG).',
  yearlyWaiting:
    'Les reçus annuels attendent : le nom et la qualité du signataire manquent. Indiquez-les, puis émettez-les.',
} as const;

const field = (message: string, what: string) =>
  z
    .string({ error: message })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, { error: message })
        .refine((value) => [...value].length <= SIGNATORY_FIELD_MAX, { error: SIGNATORY_MESSAGES.tooLong(what) }),
    );

/** The signatory form's text fields: `nom` (name and first name) and `qualite`, both required. */
export const signatoryFormSchema = z.object({
  nom: field(SIGNATORY_MESSAGES.name, 'Le nom du signataire'),
  qualite: field(SIGNATORY_MESSAGES.quality, 'La qualité du signataire'),
});

/**
 * A signatory written in one text, as the former setting held it (`signataire` of `association/site`,
 * ASSOCIATION_SIGNATORY): « Claire Martin, présidente » → name and quality, split at the first comma; undefined when
 * either part is missing (« Claire Martin » alone does not say in what quality she signs).
 */
export function signatoryOfText(text: string | undefined): Signatory | undefined {
  const [name = '', ...rest] = (text ?? '').split(',');
  const quality = rest.join(',').trim();
  return name.trim() && quality ? { name: name.trim(), quality } : undefined;
}

/** The line printed under the signature: « Claire Martin, présidente ». */
export const signatoryLine = (signatory: Pick<Signatory, 'name' | 'quality'>): string =>
  `${signatory.name}, ${signatory.quality}`;
