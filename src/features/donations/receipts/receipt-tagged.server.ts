/**
 * A tagged PDF (PDF/UA-1, ISO 14289-1) written top to bottom with pdfkit: every text sits in marked content owned by a
 * structure element (Document › H1, H2, P, Sect › Table › TR › TH + TD, Figure), in reading order; rules, banners and
 * watermarks are Artifacts. pdfkit writes the structure tree and its parent tree, the catalog's
 * `/MarkInfo << /Marked true >>`, language and DisplayDocTitle, and the XMP metadata with PDF/UA's identifier.
 */
import PDFDocument from 'pdfkit';
import type { Weight } from './receipt-fonts.server';
import { PdfFonts, shaping, type Piece } from './receipt-text.server';

/** The structure types used (standard types of ISO 32000-1 §14.8.4, no role map needed). */
export type StructRole = 'Sect' | 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Figure';

/** A colour as pdfkit takes it: "#1a2938". */
export type Color = string;

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

/** The page's size and margin, in points. */
export interface PageFormat {
  width: number;
  height: number;
  margin: number;
}

/** A structure element's attributes: a table header's scope, a figure's text alternative. */
interface ElementOptions {
  scope?: 'Row' | 'Column';
  alt?: string;
}

/** What pdfkit 0.20 has that @types/pdfkit 0.17 does not declare. */
interface PdfKitExtras {
  openImage(src: Buffer): { width: number; height: number };
  endMetadata(): void;
}

const escapeXml = (value: string) =>
  value.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char] ?? char);

/** One document being written: its pages, its cursor `y` (points from the page's top) and its open elements. */
export class TaggedPdf {
  y = 0;
  /** The number of the page being written, from 1. */
  page = 0;
  private readonly fonts: PdfFonts;
  /** The structure elements open, the document's root first. */
  private readonly open: PDFKit.PDFStructureElement[];
  private readonly bytes: Promise<Uint8Array>;

  private constructor(
    private readonly doc: PDFKit.PDFDocument,
    readonly format: PageFormat,
    /** Called on each new page before its content (a watermark, a banner). */
    private readonly decorate: (doc: TaggedPdf) => Promise<void>,
  ) {
    this.fonts = new PdfFonts(doc);
    const root = doc.struct('Document');
    doc.addStructure(root);
    this.open = [root];
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    this.bytes = new Promise((resolve, reject) => {
      doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.on('error', reject);
    });
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
    const doc = new PDFDocument({
      pdfVersion: '1.7',
      // @types/pdfkit 0.17 predates pdfkit's PDF/UA subset.
      subset: 'PDF/UA' as PDFKit.Mixins.PDFSubsets,
      tagged: true,
      lang: meta.lang,
      displayTitle: true,
      autoFirstPage: false,
      info: { Title: meta.title, Author: meta.author, CreationDate: meta.date, ModDate: meta.date },
    });
    // pdfkit's XMP names the title and author; PDF/UA readers also look for the language there.
    doc.appendXML(
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
        `<dc:language><rdf:Bag><rdf:li>${escapeXml(meta.lang)}</rdf:li></rdf:Bag></dc:language></rdf:Description>`,
    );
    // pdfkit 0.20 copies the Info strings into the XMP packet unescaped: a name with « & » would break its XML. They
    // are escaped for the XMP only, once the Info dictionary (written first, in `end`) has them as typed.
    const extras = doc as unknown as PdfKitExtras;
    const endMetadata = extras.endMetadata.bind(doc);
    extras.endMetadata = () => {
      doc.info = { ...doc.info, Title: escapeXml(meta.title), Author: escapeXml(meta.author) };
      endMetadata();
    };
    const tagged = new TaggedPdf(doc, format, decorate);
    await tagged.newPage();
    return tagged;
  }

  /** Runs `fill` with a new structure element `role` open: what it writes goes inside, in order. */
  async element(role: StructRole, fill: () => Promise<void>, options: ElementOptions = {}): Promise<void> {
    // @types/pdfkit 0.17 lacks the `scope` pdfkit 0.20 writes as the element's Table attribute.
    const node = this.doc.struct(role, options as PDFKit.Mixins.StructureElementOptions);
    this.current.add(node);
    this.open.push(node);
    try {
      await fill();
    } finally {
      this.open.pop();
      node.end();
    }
  }

  /**
   * `value` (any script) wrapped to the text width as the structure element `role`, from the cursor down; a line that
   * would cross the bottom margin starts a new page. Empty text draws nothing.
   */
  async text(role: StructRole, value: string, style: TextStyle): Promise<void> {
    const { size, weight = 400, color, gap = 4, indent = 0 } = style;
    const x = this.format.margin + indent;
    const width = style.width ?? this.format.width - this.format.margin - x;
    const lines = await this.fonts.lines(value, size, weight, width);
    if (lines.length === 0) return;
    await this.element(role, async () => {
      let marked = false;
      for (const line of lines) {
        if (this.y + size * 1.3 > this.format.height - this.format.margin) {
          if (marked) this.doc.endMarkedContent();
          marked = false;
          await this.newPage();
        }
        if (!marked) this.beginMarked(role);
        marked = true;
        this.y += size * 1.3;
        for (const piece of line) this.draw(piece, x + piece.offset, this.y, size, color);
      }
      this.doc.endMarkedContent();
    });
    this.y += gap;
  }

  /**
   * A PNG or JPEG picture `height` points high (narrower when wider than the text), from the cursor down, at the left
   * margin, as a Figure whose text alternative is `alt`; on a new page when it would cross the bottom margin.
   */
  async image(
    image: { type: 'image/png' | 'image/jpeg'; bytes: Uint8Array },
    { height, alt, gap = 4 }: { height: number; alt: string; gap?: number },
  ): Promise<void> {
    const picture = (this.doc as unknown as PdfKitExtras).openImage(Buffer.from(image.bytes));
    const room = this.format.width - 2 * this.format.margin;
    const scale = Math.min(height / picture.height, room / picture.width);
    const [width, drawn] = [picture.width * scale, picture.height * scale];
    if (this.y + drawn > this.format.height - this.format.margin) await this.newPage();
    await this.element(
      'Figure',
      async () => {
        this.beginMarked('Figure');
        // pdfkit draws an image it has opened (its size known) without reading it again.
        this.doc.image(picture as unknown as Buffer, this.format.margin, this.y, { width, height: drawn });
        this.doc.endMarkedContent();
        this.y += drawn;
      },
      { alt },
    );
    this.y += gap;
  }

  /** Draws what `draw` draws on the page as an Artifact: decoration that assistive technology skips. */
  artifact(draw: (doc: PDFKit.PDFDocument) => void): void {
    this.doc.markContent('Artifact', { type: 'Layout' });
    this.doc.save();
    draw(this.doc);
    this.doc.restore();
    this.doc.endMarkedContent();
  }

  /**
   * `value` on one line from (x, y) (its baseline's start, y from the page's top) as an Artifact, turned by `angle`
   * degrees (counter-clockwise), with `opacity` (0–1): a banner or watermark whose words the tagged text also says.
   */
  async decorativeText(
    value: string,
    { x, y, angle = 0, opacity = 1, ...style }: TextStyle & { x: number; y: number; angle?: number; opacity?: number },
  ): Promise<void> {
    const [line = []] = await this.fonts.lines(value, style.size, style.weight ?? 400, Number.POSITIVE_INFINITY);
    this.artifact((doc) => {
      doc.fillOpacity(opacity).rotate(-angle, { origin: [x, y] });
      for (const piece of line) this.draw(piece, x + piece.offset, y, style.size, style.color);
    });
  }

  /** The PDF's bytes: pdfkit closes the structure tree and writes the catalog's marks. */
  save(): Promise<Uint8Array> {
    this.doc.end();
    return this.bytes;
  }

  /** The innermost open structure element. */
  private get current(): PDFKit.PDFStructureElement {
    return this.open.at(-1) as PDFKit.PDFStructureElement;
  }

  /** One piece of a line, its baseline's start at (x, y). */
  private draw(piece: Piece, x: number, y: number, size: number, color: Color): void {
    this.fonts
      .use(piece.face, size)
      .fillColor(color)
      .text(piece.text, x, y, { lineBreak: false, baseline: 'alphabetic', features: shaping(piece.face) });
  }

  private async newPage(): Promise<void> {
    this.doc.addPage({ size: [this.format.width, this.format.height], margin: 0 });
    this.page++;
    this.y = this.format.margin;
    await this.decorate(this);
  }

  /** BDC with the page's next MCID, owned by the innermost open element (`role`). */
  private beginMarked(role: StructRole): void {
    this.current.add(this.doc.markStructureContent(role));
  }
}
