/**
 * A phone photo made lighter in the browser before it is sent (the article form's script): decoded with the
 * browser's own codecs (HEIC too where the browser reads it, as Safari does), turned upright, bounded to 2,560 pixels
 * on its longest side and re-encoded (JPEG, or WebP for a PNG or WebP, quality 0.85). Drawing on a canvas also drops
 * the photo's metadata. Why: a Netlify function refuses a request body past 6 MB, base64-encoded, so a file past about
 * 4.5 MB never reaches the site; without JavaScript the server still bounds the picture itself (media.server.ts).
 */

/** Above this size (bytes) a picture is made lighter before it is sent: room under Netlify's 4.5 MB of file. */
export const SHRINK_ABOVE_BYTES = 4 * 1024 * 1024;

/** Most bytes of pictures one post of the form may carry: what a Netlify function takes, with room for the texts. */
export const MAX_SENT_BYTES = SHRINK_ABOVE_BYTES;

/** Longest side of a picture after shrinking (pixels), the server's own bound. */
const MAX_SIDE = 2560;

/** Whether `file` is a HEIC/HEIF photo (iPhones' default), by its type or its name. */
export const isHeic = (file: File) => /hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);

/**
 * `file` re-encoded lighter, named like it with the new extension; undefined when the browser cannot decode it, or
 * the result is neither lighter nor under SHRINK_ABOVE_BYTES (the caller then sends, or refuses, the original).
 */
export async function shrinkPicture(file: File): Promise<File | undefined> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return undefined;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  // A PNG's or WebP's transparency survives in WebP; a browser that cannot encode WebP answers a PNG.
  const wanted = /^image\/(png|webp)$/.test(file.type) ? 'image/webp' : 'image/jpeg';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, wanted, 0.85));
  if (!blob || (blob.size >= file.size && !isHeic(file)) || blob.size > SHRINK_ABOVE_BYTES) return undefined;
  const extension = { 'image/jpeg': 'jpg', 'image/webp': 'webp' }[blob.type] ?? 'png';
  return new File([blob], `${file.name.replace(/\.[^.]*$/, '') || 'photo'}.${extension}`, {
    type: blob.type,
    lastModified: file.lastModified,
  });
}
