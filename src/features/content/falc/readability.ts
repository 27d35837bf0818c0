/**
 * Measures of a French text for the « Facile à lire » pages' build check: its sentences, their length in words, and
 * the Kandel–Moles index (Flesch's reading ease adapted to French, 1958: 207 − 1.015 × words a sentence − 73.6 ×
 * syllables a word; 100 very easy, 60–70 standard, under 30 very hard).
 */

/** The sentences of `text`: cut after . ! ? … (and at line ends: a heading or list item is a sentence). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /\p{L}/u.test(sentence));
}

/** The words of `text` (letters, digits, apostrophes and hyphens inside). */
export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/**
 * Spoken syllables of a French `word`: its vowel groups, a final silent « e » (« école » 2, « classe » 1) and « -ent »
 * of a verb left aside; at least 1. An estimate, as every readability formula uses.
 */
export function syllables(word: string): number {
  const lower = word.toLowerCase().replace(/['’]/g, '');
  let count = (lower.match(/[aeiouyàâäéèêëîïôöùûüœæ]+/g) ?? []).length;
  if (/[^aeiouy]es?$/.test(lower) && count > 1) count--;
  else if (/[^aeiouy]ent$/.test(lower) && count > 1) count--;
  return Math.max(1, count);
}

/** The Kandel–Moles index of `text` (see above); NaN for a text without words. */
export function kandelMoles(text: string): number {
  const all = words(text);
  const count = sentences(text).length;
  const syllableCount = all.reduce((sum, word) => sum + syllables(word), 0);
  return 207 - 1.015 * (all.length / count) - 73.6 * (syllableCount / all.length);
}
