/**
 * A tagged PDF (ISO 32000 §14.7–14.8, in the direction of PDF/UA) written top to bottom with pdf-lib, which draws but
 * does not tag: every text sits in a marked-content sequence (BDC … EMC with an MCID) owned by a structure element
 * (Document › H1, H2, P, Table › TR › TH + TD), in reading order; rules and watermarks are Artifacts. The catalog says
 * `/MarkInfo << /Marked true >>`, the language, and to show the title; XMP metadata repeats title and language.
 */
import {
  degrees,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type Color,
  type PDFDict,
  type PDFObject,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { xmpMetadata } from '../../../lib/xmp';
import type { Weight } from './receipt-fonts.server';
import { PdfFonts, rtlAwareFontkit } from './receipt-text.server';

/** The structure types used (standard types of ISO 32000-1 §14.8.4, no role map needed). */
export type StructRole = 'Sect' | 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Figure';

/**
 * How a text is drawn: size, weight, colour; `gap` the space below it, `indent` its distance from the left margin and
 * `width` its greatest width (to the right margin when absent), all in points.
 */
export interface TextStyle {
  size: number;
  weight?: Weight;
  color: Color;
  gap?: number;
  indent?: number;
  width?: number;
}

interface MarkedContent {
  page: PDFPage;
  mcid: number;
}
interface StructNode {
  role: StructRole | 'Document';
  kids: (StructNode | MarkedContent)[];
  /** A table header's scope. */
  scope?: 'Row' | 'Column';
  /** A figure's text alternative. */
  alt?: string;
}

/** The page's size and margin, in points. */
export interface PageFormat {
  width: number;
  height: number;
  margin: number;
}

/** One document being written: its pages, its cursor `y` (points from the page's bottom) and its structure. */
export class TaggedPdf {
  readonly fonts: PdfFonts;
  page!: PDFPage;
  y = 0;
  private readonly root: StructNode = { role: 'Document', kids: [] };
  private readonly open: StructNode[] = [this.root];
  /** Per page (its StructParents index), the structure element owning each MCID. */
  private readonly owners = new Map<PDFPage, StructNode[]>();

  private constructor(
    readonly pdf: PDFDocument,
    readonly format: PageFormat,
    /** Called on each new page before its content (a watermark, a banner), with `page` the new page. */
    private readonly decorate: (doc: TaggedPdf) => Promise<void>,
  ) {
    this.fonts = new PdfFonts(pdf);
  }

  /**
   * A new document with its metadata: `title` (shown as the window's title), `lang` (BCP 47, e.g. fr-FR), `author`,
   * and `date` as both creation and modification date (no clock: the same input gives the same bytes).
   */
  static async create(
    meta: { title: string; lang: string; author: string; date: Date },
    format: PageFormat,
    decorate: (doc: TaggedPdf) => Promise<void> = async () => {},
  ): Promise<TaggedPdf> {
    const pdf = await PDFDocument.create({ updateMetadata: false });
    pdf.registerFontkit(rtlAwareFontkit);
    pdf.setTitle(meta.title, { showInWindowTitleBar: true });
    pdf.setAuthor(meta.author);
    pdf.setLanguage(meta.lang);
    pdf.setCreationDate(meta.date);
    pdf.setModificationDate(meta.date);
    pdf.setProducer('pdf-lib');
    const xmp = new TextEncoder().encode(xmpMetadata(meta.title, meta.lang, meta.author));
    const metadata = pdf.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
    pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(metadata));
    const doc = new TaggedPdf(pdf, format, decorate);
    await doc.newPage();
    return doc;
  }

  /** Runs `fill` with a new structure element `role` open: what it writes goes inside, in order. */
  async element(role: StructRole, fill: () => Promise<void>, scope?: StructNode['scope'], alt?: string): Promise<void> {
    const node: StructNode = { role, kids: [], scope, alt };
    this.open.at(-1)?.kids.push(node);
    this.open.push(node);
    try {
      await fill();
    } finally {
      this.open.pop();
    }
  }

  /**
   * `value` (any script) wrapped to the text width as the structure element `role`, from the cursor down; a line that
   * would cross the bottom margin starts a new page. Empty text draws nothing.
   */
  async text(role: StructRole, value: string, style: TextStyle): Promise<void> {
    const { size, weight = 400, color, gap = 4, indent = 0 } = style;
    const x = this.format.margin + indent;
    const lines = await this.fonts.lines(
      value,
      size,
      weight,
      style.width ?? this.format.width - this.format.margin - x,
    );
    if (lines.length === 0) return;
    await this.element(role, async () => {
      let page: PDFPage | undefined;
      for (const line of lines) {
        if (this.y - size * 1.3 < this.format.margin) {
          if (page) this.page.pushOperators(endMarked());
          await this.newPage();
        }
        if (page !== this.page) {
          page = this.page;
          this.page.pushOperators(this.beginMarked());
        }
        this.y -= size * 1.3;
        for (const piece of line) {
          this.page.drawText(piece.text, { x: x + piece.offset, y: this.y, size, font: piece.font, color });
        }
      }
      this.page.pushOperators(endMarked());
    });
    this.y -= gap;
  }

  /**
   * A PNG or JPEG picture `height` points high (narrower when wider than the text), from the cursor down, at the left
   * margin, as a Figure whose text alternative is `alt`; on a new page when it would cross the bottom margin.
   */
  async image(
    image: { type: 'image/png' | 'image/jpeg'; bytes: Uint8Array },
    { height, alt, gap = 4 }: { height: number; alt: string; gap?: number },
  ): Promise<void> {
    const embedded =
      image.type === 'image/png' ? await this.pdf.embedPng(image.bytes) : await this.pdf.embedJpg(image.bytes);
    const room = this.format.width - 2 * this.format.margin;
    const scale = Math.min(height / embedded.height, room / embedded.width);
    const [width, drawn] = [embedded.width * scale, embedded.height * scale];
    if (this.y - drawn < this.format.margin) await this.newPage();
    await this.element(
      'Figure',
      async () => {
        this.page.pushOperators(this.beginMarked());
        this.y -= drawn;
        this.page.drawImage(embedded, { x: this.format.margin, y: this.y, width, height: drawn });
        this.page.pushOperators(endMarked());
      },
      undefined,
      alt,
    );
    this.y -= gap;
  }

  /** Draws what `draw` draws on the page as an Artifact: decoration that assistive technology skips. */
  async artifact(draw: (page: PDFPage) => void | Promise<void>): Promise<void> {
    const page = this.page;
    page.pushOperators(
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, ['/Artifact', '<< /Type /Layout >>']),
    );
    await draw(page);
    page.pushOperators(endMarked());
  }

  /**
   * `value` on one line from (x, y) as an Artifact, turned by `angle` degrees (counter-clockwise), with `opacity`
   * (0–1): a banner or watermark whose words the document's tagged text also says.
   */
  async decorativeText(
    value: string,
    { x, y, angle = 0, opacity = 1, ...style }: TextStyle & { x: number; y: number; angle?: number; opacity?: number },
  ): Promise<void> {
    const [line = []] = await this.fonts.lines(value, style.size, style.weight ?? 400, Number.POSITIVE_INFINITY);
    const [cos, sin] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
    await this.artifact((page) => {
      for (const { text, font, offset } of line) {
        const at = { x: x + cos * offset, y: y + sin * offset };
        page.drawText(text, { ...at, size: style.size, font, color: style.color, opacity, rotate: degrees(angle) });
      }
    });
  }

  /** The PDF's bytes, with the structure tree, its parent tree and the catalog's marks. */
  async save(): Promise<Uint8Array> {
    const { context, catalog } = this.pdf;
    const rootRef = context.nextRef();
    const write = (node: StructNode, parent: PDFRef): PDFRef => {
      const ref = context.nextRef();
      const kids: PDFObject[] = node.kids.map((kid) =>
        'mcid' in kid ? context.obj({ Type: 'MCR', Pg: kid.page.ref, MCID: kid.mcid }) : write(kid, ref),
      );
      const dict: PDFDict = context.obj({ Type: 'StructElem', S: node.role, P: parent, K: kids });
      if (node.scope) dict.set(PDFName.of('A'), context.obj({ O: 'Table', Scope: node.scope }));
      if (node.alt) dict.set(PDFName.of('Alt'), PDFHexString.fromText(node.alt));
      context.assign(ref, dict);
      refs.set(node, ref);
      return ref;
    };
    const refs = new Map<StructNode, PDFRef>();
    const documentRef = write(this.root, rootRef);
    const nums: PDFObject[] = [];
    [...this.owners.values()].forEach((owners, index) => {
      nums.push(PDFNumber.of(index), context.obj(owners.map((node) => refs.get(node) as PDFRef)));
    });
    context.assign(
      rootRef,
      context.obj({
        Type: 'StructTreeRoot',
        K: [documentRef],
        ParentTree: { Nums: nums },
        ParentTreeNextKey: nums.length / 2,
      }),
    );
    catalog.set(PDFName.of('StructTreeRoot'), rootRef);
    catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
    return this.pdf.save();
  }

  private async newPage(): Promise<void> {
    this.page = this.pdf.addPage([this.format.width, this.format.height]);
    // Tab order follows the structure; the page's marked contents find their elements through the parent tree.
    this.page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    this.page.node.set(PDFName.of('StructParents'), PDFNumber.of(this.owners.size));
    this.owners.set(this.page, []);
    this.y = this.format.height - this.format.margin;
    await this.decorate(this);
  }

  /** BDC with the next MCID of the page, owned by the innermost open element. */
  private beginMarked(): PDFOperator {
    const node = this.open.at(-1) as StructNode;
    const owners = this.owners.get(this.page) as StructNode[];
    const mcid = owners.push(node) - 1;
    node.kids.push({ page: this.page, mcid });
    return PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [`/${node.role}`, `<< /MCID ${mcid} >>`]);
  }
}

const endMarked = () => PDFOperator.of(PDFOperatorNames.EndMarkedContent);
