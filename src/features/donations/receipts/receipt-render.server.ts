/**
 * Draws a receipt's blocks (receipt-pdf.server.ts) on A4 pages as a tagged PDF: the title as H1, paragraphs as P, each
 * section as Sect › H2, P, and Table › TR › TH (the label, scope Row) + TD (the value); section rules are Artifacts.
 */
import { TaggedPdf, type TextStyle } from './receipt-tagged.server';
import type { SignatureImage } from './signatory';

const A4 = { width: 595.28, height: 841.89, margin: 56 };
const INK = '#1a2938';
const MUTED = '#546170';
/** The red of a specimen's warnings. */
export const WARNING = '#b81212';

/** The width of a field's label, in points. */
const LABEL_WIDTH = 150;

/** How each kind of paragraph looks (sizes and gaps in points). */
const STYLES = {
  title: { size: 16, weight: 700, color: INK },
  plain: { size: 10.5, color: INK },
  note: { size: 9.5, color: MUTED },
  number: { size: 13, weight: 700, color: INK, gap: 10 },
  body: { size: 10.5, color: INK, gap: 7 },
  strong: { size: 10.5, weight: 700, color: INK },
  heading: { size: 12.5, weight: 700, color: INK, gap: 3 },
  label: { size: 9.5, weight: 700, color: MUTED, gap: 5 },
  value: { size: 10.5, color: INK, gap: 5 },
} satisfies Record<string, TextStyle>;

/**
 * One block of a receipt, in reading order: the title (H1), a paragraph (P) in one of STYLES, red when `warning`,
 * `gap` points below it instead of the style's; or a section (H2 under a rule, an optional paragraph, then its fields
 * as a table of label and value, « — » for an empty value); or a picture (Figure, with its `alt` text) `height`
 * points high.
 */
export type ReceiptBlock =
  | { kind: 'title' | 'paragraph'; text: string; style?: keyof typeof STYLES; warning?: boolean; gap?: number }
  | { kind: 'image'; image: SignatureImage; height: number; alt: string }
  | { kind: 'section'; heading: string; intro?: string; fields: [label: string, value: string][] };

/**
 * The PDF (bytes) of `blocks` on A4, with `meta` (title, language, author, date: see TaggedPdf.create); `decorate`
 * draws on each page first (a specimen's banner).
 */
export async function renderReceipt(
  blocks: ReceiptBlock[],
  meta: { title: string; lang: string; author: string; date: Date },
  decorate?: (doc: TaggedPdf) => Promise<void>,
): Promise<Uint8Array> {
  const doc = await TaggedPdf.create(meta, A4, decorate);
  const paint = (style: TextStyle, warning = false, gap = style.gap) => ({
    ...style,
    gap,
    color: warning ? WARNING : style.color,
  });
  for (const block of blocks) {
    if (block.kind === 'image') {
      await doc.image(block.image, { height: block.height, alt: block.alt, gap: 4 });
      continue;
    }
    if (block.kind !== 'section') {
      const style: TextStyle = STYLES[block.style ?? (block.kind === 'title' ? 'title' : 'plain')];
      await doc.text(
        block.kind === 'title' ? 'H1' : 'P',
        block.text,
        paint(style, block.warning, block.gap ?? style.gap),
      );
      continue;
    }
    await doc.element('Sect', async () => {
      doc.y += 8;
      await doc.text('H2', block.heading, STYLES.heading);
      const y = doc.y;
      doc.artifact((pdf) =>
        pdf
          .lineWidth(0.75)
          .strokeColor(MUTED)
          .moveTo(A4.margin, y)
          .lineTo(A4.width - A4.margin, y)
          .stroke(),
      );
      doc.y += 8;
      if (block.intro) await doc.text('P', block.intro, STYLES.body);
      await doc.element('Table', async () => {
        for (const [label, value] of block.fields) {
          // The label on the left, the value beside it; the row ends below the taller of the two.
          await doc.element('TR', async () => {
            const [top, page] = [doc.y, doc.page];
            // The smaller label's first baseline level with the value's.
            doc.y += (STYLES.value.size - STYLES.label.size) * 1.3;
            await doc.element('TH', () => doc.text('P', label, { ...STYLES.label, width: LABEL_WIDTH }), {
              scope: 'Row',
            });
            const below = doc.y;
            if (doc.page === page) doc.y = top;
            await doc.element('TD', () => doc.text('P', value || '—', { ...STYLES.value, indent: LABEL_WIDTH + 12 }));
            if (doc.page === page) doc.y = Math.max(below, doc.y);
          });
        }
      });
    });
    doc.y += 6;
  }
  return doc.save();
}
