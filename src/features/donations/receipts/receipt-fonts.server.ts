/**
 * The receipt's fonts: which embedded font draws each character, read lazily from the OFL fonts of npm packages
 * (Fontsource's per-script slices of Google Fonts, `.woff` files: a few KB to 80 KB each). Only the slices a text's
 * characters need are read, and the PDF embeds only the glyphs it draws (docs/donations.md, « Fonts »).
 * - Latin (with Vietnamese), Greek, Cyrillic, Devanagari: Noto Sans, regular and bold.
 * - Arabic: IBM Plex Sans Arabic. Noto's Arabic fonts draw the dots of ب, ن, ي… as marks that OpenType positioning
 *   (GPOS) puts in place; Plex's joined letters carry their dots, so its shaping (fontkit: initial, medial, final
 *   forms, lam-alef) needs substitution only.
 * - Hebrew: Noto Sans Hebrew. Chinese, Japanese, Korean: Noto Sans SC, JP and KR (about 100 slices each; the family
 *   that fits the text's script comes first: kana → JP, hangul → KR, else SC).
 */
import { create, type Font } from 'fontkit';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

/** 400 (regular) or 700 (bold). Only Noto Sans has a bold here; other scripts fall back to their regular. */
export type Weight = 400 | 700;

/**
 * One font file: a family's slice at a weight. `key` names it within a PDF (one embedding per key); `features` are
 * OpenType features turned on or off when shaping (the `features` of pdfkit's text options).
 */
export interface FontFace {
  key: string;
  bytes: Uint8Array;
  covers: (codePoint: number) => boolean;
  features?: Record<string, boolean>;
}

/** A family of Fontsource: its package, its files' prefix, the slices used (all when absent), its weights. */
interface Family {
  pkg: string;
  id: string;
  slices?: string[];
  weights: Weight[];
  features?: Record<string, boolean>;
}

// Positioning features (kerning, marks, cursive attachment) stay off: glyphs go at their advance widths, so a word is
// one run of text in the PDF (pdfkit moves the text position for each glyph GPOS places) and the fonts above are chosen
// to need no placed marks.
const UNPLACED = { kern: false, mark: false, mkmk: false, curs: false, dist: false };

const NOTO: Family = {
  pkg: '@fontsource/noto-sans',
  id: 'noto-sans',
  slices: ['latin', 'latin-ext', 'vietnamese', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'devanagari'],
  weights: [400, 700],
  // Noto's `ccmp` splits some Vietnamese letters (ị, ặ…) into a letter and a mark that GPOS places, which the
  // positioning left off above does not: their precomposed glyphs are drawn instead.
  features: { ccmp: false },
};
const family = (id: string, slices: string[] | undefined, weights: Weight[]): Family => ({
  pkg: `@fontsource/${id}`,
  id,
  slices,
  weights,
});
const ARABIC = family('ibm-plex-sans-arabic', ['arabic'], [400, 700]);
const HEBREW = family('noto-sans-hebrew', ['hebrew'], [400, 700]);
// The numbered slices only (no `slices`): the CJK packages' own Latin slices would mix two Latin designs in a line.
const [SC, JP, KR] = ['sc', 'jp', 'kr'].map((region) => family(`noto-sans-${region}`, undefined, [400]));

/** The families tried for a text, in order: the CJK family matching its kana or hangul first. */
function familiesFor(text: string): Family[] {
  const east = /\p{Script=Hangul}/u.test(text)
    ? [KR, SC, JP]
    : /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)
      ? [JP, SC, KR]
      : [SC, JP, KR];
  return [NOTO, ARABIC, HEBREW, ...east];
}

const require = createRequire(import.meta.url);

type Ranges = [number, number][];

/** "U+0000-00FF,U+0131" → [[0, 255], [305, 305]]. */
function parseRanges(css: string): Ranges {
  return css.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from, 16), Number.parseInt(to, 16)];
  });
}

const slicesOf = new Map<string, Promise<Map<string, Ranges>>>();
/** A family's slices and their Unicode ranges, from the package's unicode.json (read once). */
function slices(family: Family): Promise<Map<string, Ranges>> {
  let found = slicesOf.get(family.pkg);
  if (!found) {
    found = readFile(require.resolve(`${family.pkg}/unicode.json`), 'utf8').then((json) => {
      const all = Object.entries(JSON.parse(json) as Record<string, string>);
      const kept = all.filter(([slice]) => (family.slices ? family.slices.includes(slice) : /^\[\d+\]$/.test(slice)));
      return new Map(kept.map(([slice, css]) => [slice.replace(/[[\]]/g, ''), parseRanges(css)]));
    });
    slicesOf.set(family.pkg, found);
  }
  return found;
}

const faces = new Map<string, Promise<FontFace>>();
/** The font file of one slice at one weight, read and parsed once per process. */
function face(family: Family, slice: string, weight: Weight): Promise<FontFace> {
  const key = `${family.id}-${slice}-${weight}`;
  let found = faces.get(key);
  if (!found) {
    const file = require.resolve(`${family.pkg}/files/${key}-normal.woff`);
    found = readFile(file).then((woff) => {
      const bytes = woffToSfnt(woff);
      const font = create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as Font;
      const covers = (codePoint: number) => font.hasGlyphForCodePoint(codePoint);
      return { key, bytes, covers, features: { ...UNPLACED, ...family.features } };
    });
    faces.set(key, found);
  }
  return found;
}

/**
 * A WOFF 1.0 file (W3C) as the TrueType/OpenType file it wraps: its tables inflated once here with Node's zlib, rather
 * than by fontkit's JavaScript inflate at every PDF (pdfkit parses the font anew for each document).
 */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.readUInt32BE(0) !== 0x774f4646) return woff; // not 'wOFF': already a plain font
  const count = input.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const [offset, compressed, length] = [
      input.readUInt32BE(at + 4),
      input.readUInt32BE(at + 8),
      input.readUInt32BE(at + 12),
    ];
    const stored = input.subarray(offset, offset + compressed);
    return {
      tag: input.readUInt32BE(at),
      checksum: input.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const header = 12 + count * 16;
  const padded = (length: number) => (length + 3) & ~3;
  const output = Buffer.alloc(header + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const log2 = Math.floor(Math.log2(count));
  output.writeUInt32BE(input.readUInt32BE(4), 0); // the wrapped font's flavor (TrueType or CFF)
  output.writeUInt16BE(count, 4);
  output.writeUInt16BE(16 * 2 ** log2, 6);
  output.writeUInt16BE(log2, 8);
  output.writeUInt16BE(count * 16 - 16 * 2 ** log2, 10);
  let offset = header;
  tables.forEach((table, index) => {
    output.writeUInt32BE(table.tag, 12 + index * 16);
    output.writeUInt32BE(table.checksum, 16 + index * 16);
    output.writeUInt32BE(offset, 20 + index * 16);
    output.writeUInt32BE(table.data.length, 24 + index * 16);
    table.data.copy(output, offset);
    offset += padded(table.data.length);
  });
  return new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
}

/** A piece of text that one font draws. */
export interface FontRun {
  text: string;
  face: FontFace;
  /** Offset (UTF-16) in the text drawn. */
  start: number;
}

// Joiners and variation selectors, dropped with emoji (no emoji font: a name's emoji is not drawn).
const DROPPED = new Set(['\u200d', '\ufe0e', '\ufe0f']);

// Characters that take the font of the letters around them rather than choosing one (spaces, punctuation, marks).
const NEUTRAL = /[\p{Zs}\p{P}\p{M}\p{Cf}]/u;

/** The first face of `families` at `weight` (else regular) that draws `char`, or undefined when none does. */
async function faceFor(char: string, families: Family[], weight: Weight): Promise<FontFace | undefined> {
  const codePoint = char.codePointAt(0) ?? 0;
  for (const family of families) {
    for (const [slice, ranges] of await slices(family)) {
      if (!ranges.some(([from, to]) => codePoint >= from && codePoint <= to)) continue;
      for (const w of family.weights.includes(weight) ? [weight, 400 as const] : [400 as const]) {
        const candidate = await face(family, slice, w);
        if (candidate.covers(codePoint)) return candidate;
      }
    }
  }
  return undefined;
}

/**
 * `text` (NFC) cut into runs of one font each, in logical order; `levelsOf` gives the bidi embedding levels of the text
 * drawn (one per UTF-16 unit). A character no font draws (a rare ideograph) becomes « ? » (a space: U+00A0); emoji,
 * joiners and variation selectors are dropped. A space, punctuation or mark stays in the font of the character before
 * it when that font has it and both have the same level, so that a right-to-left run is one piece of text.
 */
export async function fontRuns(
  text: string,
  levelsOf: (drawn: string) => ArrayLike<number>,
  weight: Weight = 400,
): Promise<FontRun[]> {
  const families = familiesFor(text);
  const chars: { char: string; face: FontFace }[] = [];
  for (const char of text.normalize('NFC')) {
    if (DROPPED.has(char) || /\p{Extended_Pictographic}/u.test(char)) continue;
    const face = await faceFor(char, families, weight);
    if (face) chars.push({ char, face });
    else {
      // A space no font has (the narrow no-break space of French numbers) becomes a no-break space, the rest « ? ».
      const stand = /\p{Zs}/u.test(char) ? '\u00a0' : '?';
      chars.push({ char: stand, face: (await faceFor(stand, families, weight)) as FontFace });
    }
  }
  const levels = levelsOf(chars.map(({ char }) => char).join(''));
  const runs: FontRun[] = [];
  let offset = 0;
  for (const [index, { char, face }] of chars.entries()) {
    const last = runs.at(-1);
    const before = chars[index - 1];
    const sticks =
      last &&
      levels[offset] === levels[offset - before.char.length] &&
      NEUTRAL.test(char) &&
      last.face.covers(char.codePointAt(0) ?? 0);
    const chosen = sticks ? last.face : face;
    if (last?.face === chosen) last.text += char;
    else runs.push({ text: char, face: chosen, start: offset });
    offset += char.length;
  }
  return runs;
}
