/**
 * An article's three pictures in its form (spec §3 Article): `img {src, alt}` (cover and cards), `picto {src, alt}`
 * (the small picture of a card without cover) and `imgContenu {src}` (the picture of the full text: the « En savoir
 * plus » window, the school page, the news page without cover). Each has a file input, a « Retirer » checkbox and a
 * hidden field keeping its stored address; `img` and `picto` a required description when there is a picture. Uploads
 * go through storePicture (media.server.ts: the same checks, French messages and storage as every picture).
 */
import type { DocumentData } from 'firebase-admin/firestore';
import { HttpError } from '../../../lib/http';
import type { FieldIssue } from '../editing/messages';
import { ARTICLE_MESSAGES } from './articles';
import { storePicture } from './media.server';

/** The pictures' form fields, as strings: stored addresses (`''` for none) and descriptions. */
export interface PictureFields {
  imgSrc: string;
  imgAlt: string;
  pictoSrc: string;
  pictoAlt: string;
  imgContenuSrc: string;
}

/** Each picture's form names: file input (also its id), hidden address, description, « Retirer » checkbox. */
export const ARTICLE_PICTURES = [
  { field: 'img', upload: 'image', src: 'imgSrc', alt: 'imgAlt', remove: 'retirerImage' },
  { field: 'picto', upload: 'picto', src: 'pictoSrc', alt: 'pictoAlt', remove: 'retirerPicto' },
  { field: 'imgContenu', upload: 'imageContenu', src: 'imgContenuSrc', remove: 'retirerImageContenu' },
] as const satisfies readonly {
  field: string;
  upload: string;
  src: keyof PictureFields;
  alt?: keyof PictureFields;
  remove: string;
}[];

/** The schema's field paths of the pictures (`picto.alt`) → the form's fields (`pictoAlt`). */
export const PICTURE_FORM_FIELDS: Record<string, string> = Object.fromEntries(
  ARTICLE_PICTURES.flatMap((picture) => [
    [picture.field, picture.upload],
    [`${picture.field}.src`, picture.upload],
    ...('alt' in picture ? [[`${picture.field}.alt`, picture.alt]] : []),
  ]),
);

const textOf = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** A stored picture (`{src, alt}`, a bare address or `''`) as its address and description. */
function pictureOf(value: unknown): { src: string; alt: string } {
  if (typeof value === 'string') return { src: value, alt: '' };
  const picture = value as { src?: unknown; alt?: unknown } | null | undefined;
  return { src: textOf(picture?.src), alt: textOf(picture?.alt) };
}

/** A stored article's pictures as the form's fields. */
export function pictureFieldsOf(data: DocumentData | undefined): PictureFields {
  const [img, picto, inside] = [pictureOf(data?.img), pictureOf(data?.picto), pictureOf(data?.imgContenu)];
  return { imgSrc: img.src, imgAlt: img.alt, pictoSrc: picto.src, pictoAlt: picto.alt, imgContenuSrc: inside.src };
}

/** The posted pictures' fields: kept addresses (emptied by a ticked « Retirer ») and descriptions, trimmed. */
export function postedPictureFields(text: (name: string) => string): PictureFields {
  const fields = {} as PictureFields;
  for (const picture of ARTICLE_PICTURES) {
    fields[picture.src] = text(picture.remove) === 'oui' ? '' : text(picture.src).trim();
    if ('alt' in picture) fields[picture.alt] = text(picture.alt).trim();
  }
  return fields;
}

/**
 * Stores each uploaded picture of `posted` (files by their input's name) and puts its address in `fields` (a good picture is kept even when another
 * field is refused); a refused file (size, kind, unreadable) and a picture without its description are pushed to
 * `issues` by form field. @throws HttpError 503 when the storage does not answer.
 */
export async function storePostedPictures(
  posted: Readonly<Record<string, unknown>>,
  fields: PictureFields,
  origin: string,
  issues: FieldIssue[],
): Promise<void> {
  for (const picture of ARTICLE_PICTURES) {
    const upload = posted[picture.upload];
    if (!(upload instanceof Blob) || upload.size === 0) continue;
    try {
      fields[picture.src] = await storePicture(upload, origin);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      issues.push({ field: picture.upload, message: error.message });
    }
  }
  if (fields.imgSrc && !fields.imgAlt) issues.push({ field: 'imgAlt', message: ARTICLE_MESSAGES.altMissing });
}

/**
 * The pictures in the original admin's shape: `img` `{src, alt}` or `''` (as the form always stored it), `picto`
 * `{src, alt}` and `imgContenu` `{src}`, with `''` addresses for none (as the original admin's documents have them).
 */
export function pictureData(fields: PictureFields): DocumentData {
  return {
    img: fields.imgSrc ? { src: fields.imgSrc, alt: fields.imgAlt } : '',
    picto: { src: fields.pictoSrc, alt: fields.pictoSrc ? fields.pictoAlt : '' },
    imgContenu: { src: fields.imgContenuSrc },
  };
}
