/**
 * Lines of text for pdfkit in any script: cut into runs of one font (receipt-fonts.server.ts), wrapped at spaces to a
 * width, and put in visual order by the Unicode bidirectional algorithm (UAX #9, bidi-js), so that Arabic and Hebrew
 * read right to left inside a left-to-right French line. pdfkit draws one font per call and knows neither fallback
 * fonts nor bidi, hence this layer. fontkit (inside pdfkit) shapes each run (Arabic joining forms, lam-alef) and returns
 * a right-to-left run's glyphs already reversed; the PDF's text layer maps every glyph back to the characters typed
 * (pdfkit's ToUnicode map).
 */
import bidiFactory from 'bidi-js';
import type { Font, GlyphRun } from 'fontkit';
import { fontRuns, type FontFace, type Weight } from './receipt-fonts.server';

const bidi = bidiFactory();

/**
 * A piece of a line in one font, to draw with `drawText` at the line's x plus `offset`. A line's pieces come in logical
 * order (the order of the text layer, which readers and assistive technology follow) while their offsets place them
 * in visual order.
 */
export interface Piece {
  text: string;
  face: FontFace;
  /** Width in points at the size asked. */
  width: number;
  /** Distance from the line's start, in points. */
  offset: number;
}

/** A run of one font and one bidi level, in logical order; `start` is its offset (UTF-16) in the text. */
interface Cell {
  text: string;
  face: FontFace;
  level: number;
  start: number;
}

const STRONG_RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

/** The document's fonts, registered with pdfkit (which embeds the glyphs drawn) the first time a text needs them. */
export class PdfFonts {
  private readonly registered = new Set<string>();
  /** Widths already measured (shaping is the costly part of wrapping), by face, size and text. */
  private readonly widths = new Map<string, number>();
  constructor(private readonly doc: PDFKit.PDFDocument) {}

  /** Makes `face` at `size` the document's current font, registering it the first time. */
  use(face: FontFace, size: number): PDFKit.PDFDocument {
    if (!this.registered.has(face.key)) {
      this.registered.add(face.key);
      this.doc.registerFont(face.key, Buffer.from(face.bytes.buffer, face.bytes.byteOffset, face.bytes.byteLength));
      mapLigaturesVisually((this.doc.font(face.key) as unknown as CurrentFont)._font.font);
    }
    return this.doc.font(face.key).fontSize(size);
  }

  /** The width of `text` in `face` at `size`, in points, shaped with the face's features. */
  private width(face: FontFace, size: number, text: string): number {
    const key = `${face.key} ${size} ${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = this.use(face, size).widthOfString(text, { features: shaping(face) });
      this.widths.set(key, width);
    }
    return width;
  }

  /**
   * `text` (any script) in lines no wider than `maxWidth` points at `size`, each line's pieces in logical order with
   * their places in visual order (left to right). Lines break after spaces, a word wider than the line between its
   * characters; a line's last spaces do not count in its width. An empty text gives no line.
   */
  async lines(text: string, size: number, weight: Weight, maxWidth: number): Promise<Piece[][]> {
    const cells = await this.cells(text, weight);
    const joined = cells.map((cell) => cell.text).join('');
    const width = (from: number, to: number) => {
      let sum = 0;
      for (const piece of this.slice(cells, from, to, size)) sum += piece.width;
      return sum;
    };
    const lines: Piece[][] = [];
    let start = 0;
    while (start < joined.length) {
      let end = start;
      // Grow the line word by word, then character by character for a word alone too wide.
      for (const stop of breaks(joined, start)) {
        if (end > start && width(start, trimEnd(joined, stop)) > maxWidth) break;
        end = stop;
      }
      while (width(start, trimEnd(joined, end)) > maxWidth && trimEnd(joined, end) - start > 1) {
        end -= /[\udc00-\udfff]/.test(joined[end - 1]) ? 2 : 1;
      }
      // The spaces ending a line are drawn too, after the rest (rule L1: at the paragraph's level), so that the text
      // layer keeps the space between its last word and the next line's first.
      const kept = trimEnd(joined, end);
      const spaces = this.slice(cells, kept, end, size);
      lines.push(placeVisually([...this.slice(cells, start, kept, size, true), ...spaces]));
      start = end;
    }
    return lines;
  }

  /** The font runs of `text` split where the bidi level changes (a left-to-right paragraph: the document's). */
  private async cells(text: string, weight: Weight): Promise<Cell[]> {
    let levels: ArrayLike<number> = [];
    const runs = await fontRuns(text, (drawn) => (levels = bidi.getEmbeddingLevels(drawn, 'ltr').levels), weight);
    const cells: Cell[] = [];
    for (const run of runs) {
      for (let index = 0; index < run.text.length; index++) {
        const level = levels[run.start + index];
        const last = cells.at(-1);
        if (last && last.face === run.face && last.level === level) last.text += run.text[index];
        else cells.push({ text: run.text[index], face: run.face, level, start: run.start + index });
      }
    }
    return cells;
  }

  /** The pieces of `cells` between two offsets, in logical order; with `keepLevel`, each keeps its bidi level. */
  private slice(cells: Cell[], from: number, to: number, size: number, keepLevel = false) {
    const pieces: (Omit<Piece, 'offset'> & { level: number })[] = [];
    for (const cell of cells) {
      const text = cell.text.slice(Math.max(0, from - cell.start), Math.max(0, to - cell.start));
      if (!text) continue;
      // fontkit reverses a run whose script is right to left; neutral characters alone at an odd level are reversed
      // here.
      const drawn = cell.level % 2 === 1 && !STRONG_RTL.test(text) ? [...text].reverse().join('') : text;
      pieces.push({
        text: drawn,
        face: cell.face,
        width: this.width(cell.face, size, drawn),
        level: keepLevel ? cell.level : 0,
      });
    }
    return pieces;
  }
}

/**
 * `face`'s OpenType features as pdfkit's text options take them: fontkit reads an object of features on and off, though
 * @types/pdfkit types the option as a list of features turned on.
 */
export const shaping = (face: FontFace) => face.features as unknown as PDFKit.Mixins.OpenTypeFeatures[];

/** pdfkit's current font after `doc.font(name)` (its private field in pdfkit 0.20): fontkit's font inside. */
interface CurrentFont {
  _font: { font: Font };
}

/**
 * Makes fontkit's `font` map a ligature's characters (لا: lam then alef) in a right-to-left run in the glyphs' visual
 * order, as readers (pdf.js, poppler) reverse a right-to-left run's text character by character to get back the
 * logical order; pdfkit writes the ToUnicode table from these code points.
 */
function mapLigaturesVisually(font: Font): void {
  const layout = font.layout.bind(font);
  font.layout = (...args: Parameters<Font['layout']>): GlyphRun => {
    const run = layout(...args);
    if (run.direction === 'rtl') {
      run.glyphs = run.glyphs.map((glyph) =>
        glyph.codePoints.length > 1
          ? (Object.create(glyph, { codePoints: { value: [...glyph.codePoints].reverse() } }) as typeof glyph)
          : glyph,
      );
    }
    return run;
  };
}

/** Offsets just after each space (and the text's end) from `start` on: where a line may end. */
function* breaks(text: string, start: number): Generator<number> {
  for (let index = start; index < text.length; index++) if (text[index] === ' ') yield index + 1;
  yield text.length;
}

/** `end` moved back over the spaces before it. */
function trimEnd(text: string, end: number): number {
  while (end > 0 && text[end - 1] === ' ') end--;
  return end;
}

/**
 * `pieces` (logical order) with their offsets in visual order, by UAX #9 rule L2: from the highest level down to the
 * lowest odd one, every sequence at that level or more is reversed.
 */
function placeVisually(pieces: (Omit<Piece, 'offset'> & { level: number })[]): Piece[] {
  const placed = pieces.map(({ text, face, width, level }) => ({ text, face, width, level, offset: 0 }));
  const ordered = [...placed];
  const levels = ordered.map((piece) => piece.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let index = 0; index < ordered.length;) {
      if (ordered[index].level < level) {
        index++;
        continue;
      }
      let end = index;
      while (end < ordered.length && ordered[end].level >= level) end++;
      ordered.splice(index, end - index, ...ordered.slice(index, end).reverse());
      index = end;
    }
  }
  let offset = 0;
  for (const piece of ordered) {
    piece.offset = offset;
    offset += piece.width;
  }
  return placed.map(({ text, face, width, offset: at }) => ({ text, face, width, offset: at }));
}
