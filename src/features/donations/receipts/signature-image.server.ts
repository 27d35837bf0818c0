/**
 * An uploaded signature, cleaned as the site's pictures are (src/features/articles/media.server.ts): the kind sniffed
 * from its bytes (PNG or JPEG only: never an SVG, which could carry a script), decoded and encoded again with sharp,
 * so that no metadata or hidden content reaches the receipts.
 */
import sharp from 'sharp';
import { HttpError } from '../../../lib/http';
import { SIGNATORY_MESSAGES, SIGNATURE_MAX_BYTES, type SignatureImage } from './signatory';

/** The largest signature kept (pixels): 3× its 150 × 50 points on the receipt, for a sharp print. */
const SIGNATURE_BOX = { width: 900, height: 300 };

/** What the first bytes say the file is: only PNG and JPEG are taken (an SVG, a PDF, anything else is refused). */
function sniff(bytes: Uint8Array): 'png' | 'jpeg' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes[0] === 0x89 && String.fromCharCode(...bytes.subarray(1, 4)) === 'PNG') return 'png';
  return undefined;
}

/**
 * An uploaded signature cleaned for the receipts: a PNG or JPEG file decoded and encoded again with sharp (turned
 * upright, metadata dropped, fitted within 900 × 300 pixels), in its own format (a PNG keeps its transparency).
 * @throws HttpError 413 past SIGNATURE_MAX_BYTES, 415 for any other kind of file, 400 for an unreadable picture.
 */
export async function cleanSignature(file: Blob): Promise<SignatureImage> {
  if (file.size > SIGNATURE_MAX_BYTES) throw new HttpError(413, SIGNATORY_MESSAGES.tooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniff(bytes);
  if (!kind) throw new HttpError(415, SIGNATORY_MESSAGES.notImage);
  try {
    const image = sharp(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize({ ...SIGNATURE_BOX, fit: 'inside', withoutEnlargement: true });
    const output = await (kind === 'png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
    return { type: `image/${kind}`, bytes: new Uint8Array(output) };
  } catch (error) {
    throw new HttpError(400, SIGNATORY_MESSAGES.unreadable, { cause: error });
  }
}
