/**
 * The receipts' signatory in Firestore (`tresorerie/signataire`, server only: the rules refuse every client): read as
 * it is now by everything that numbers or draws a receipt (the webhook, the space, the scheduled jobs), and saved by
 * the treasurer (the picture cleaned first: signature-image.server.ts). No astro:env nor sharp here: the scheduled
 * functions use it.
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { ASSOCIATION_DOCUMENT } from '../../../content-association';
import { signatoryOfText, type SignatureImage, type Signatory } from './signatory';

/** The signatory's document: `nom`, `qualite`, `signature` ({ type, donnees: base64 }), `modifiePar`, `modifieLe`. */
export const SIGNATORY_DOCUMENT = 'tresorerie/signataire';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The stored picture of `data` (`{ type, donnees }`), undefined when absent or not one the site wrote. */
function storedImage(data: unknown): SignatureImage | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const { type, donnees } = data as Record<string, unknown>;
  if ((type !== 'image/png' && type !== 'image/jpeg') || typeof donnees !== 'string' || !donnees) return undefined;
  return { type, bytes: new Uint8Array(Buffer.from(donnees, 'base64')) };
}

/**
 * The signatory as it is now: `tresorerie/signataire` when it has a name and a quality (with its signature picture),
 * else the former one-text setting « Nom, qualité » of `association/site` (`signataire`), else `fallback` (the
 * environment's ASSOCIATION_SIGNATORY); undefined when none gives both a name and a quality: receipts then wait.
 * @throws what Firestore throws.
 */
export async function readSignatory(
  firestore: Firestore,
  fallback: string = process.env.ASSOCIATION_SIGNATORY ?? '',
): Promise<Signatory | undefined> {
  const [stored, site] = await Promise.all([
    firestore.doc(SIGNATORY_DOCUMENT).get(),
    firestore.doc(`association/${ASSOCIATION_DOCUMENT}`).get(),
  ]);
  const data = stored.data() ?? {};
  const [name, quality] = [text(data.nom), text(data.qualite)];
  if (name && quality) {
    const image = storedImage(data.signature);
    return { name, quality, ...(image ? { image } : {}) };
  }
  return signatoryOfText(text(site.data()?.signataire)) ?? signatoryOfText(fallback);
}

/**
 * Writes the signatory `nom` and `qualite` (checked by signatoryFormSchema) and, as `image` says, a new signature
 * (signature-image.server.ts cleanSignature), none (`'retirer'`) or the one stored (`'garder'`), with who changed it and when.
 * @throws what Firestore throws.
 */
export async function writeSignatory(
  firestore: Firestore,
  entry: { nom: string; qualite: string },
  image: SignatureImage | 'garder' | 'retirer',
  by: string,
): Promise<void> {
  const reference = firestore.doc(SIGNATORY_DOCUMENT);
  const kept = image === 'garder' ? (await reference.get()).data()?.signature : undefined;
  const signature =
    image === 'retirer'
      ? null
      : image === 'garder'
        ? (kept ?? null)
        : { type: image.type, donnees: Buffer.from(image.bytes).toString('base64') };
  await reference.set({ ...entry, signature, modifiePar: by, modifieLe: Timestamp.now() });
}
