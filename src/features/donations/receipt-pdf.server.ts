/** The tax receipt of one gift of money as an A4 PDF (pdf-lib, Helvetica): the fields of CERFA n° 11580. */
import { breakTextIntoLines, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatEuros, TAX_REDUCTION_RATE, costAfterTaxReduction } from './donations';
import { amountInWords, formatCents, frenchDate } from './receipt';

/** Who issues the receipt: name and address lines (content's `adresse` article), object and signatory ('' = none). */
export interface ReceiptIssuer {
  name: string;
  addressLines: string[];
  object: string;
  signatory: string;
}

/** One receipt: its number ("2026-00042"), the gift's amount in euro cents, when it was paid and recorded (issued). */
export interface ReceiptData {
  number: string;
  issuer: ReceiptIssuer;
  donorName: string;
  donorAddressLines: string[];
  amountCents: number;
  paidAt: Date;
  issuedAt: Date;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.1, 0.16, 0.22);
const MUTED = rgb(0.33, 0.38, 0.44);

/** Latin letters that have no decomposition into a WinAnsi letter and an accent. */
const LOOKALIKES: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h', ŀ: 'l', Ŀ: 'L' };

/** Text Helvetica (WinAnsi) can draw: other letters lose their accents, emoji go, the rest become '?'. */
function drawable(font: PDFFont, value: string): string {
  const known = new Set(font.getCharacterSet());
  return [...value.replace(/[\u00a0\u202f]/g, ' ')]
    .map((char) => {
      if (known.has(char.codePointAt(0) ?? 0)) return char;
      if (/\p{Extended_Pictographic}/u.test(char) || char === '\u200d' || char === '\ufe0f') return '';
      const bare = LOOKALIKES[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
      return [...bare].every((part) => known.has(part.codePointAt(0) ?? 0)) ? bare : '?';
    })
    .join('');
}

/** A cursor that writes lines down the page. */
class Writer {
  y = A4.height - MARGIN;
  constructor(
    private readonly page: PDFPage,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {}

  text(value: string, { size = 10.5, bold = false, color = INK, gap = 4 } = {}): void {
    const font = bold ? this.bold : this.regular;
    const width = (part: string) => font.widthOfTextAtSize(part, size);
    for (const line of breakTextIntoLines(drawable(font, value), [' '], A4.width - 2 * MARGIN, width)) {
      this.y -= size * 1.3;
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font, color });
    }
    this.y -= gap;
  }

  /** The label in small bold, its value ('—' when empty) below. */
  field(label: string, value: string): void {
    this.text(label, { bold: true, size: 9.5, color: MUTED, gap: 2 });
    this.text(value || '—', { gap: 7 });
  }

  heading(value: string): void {
    this.y -= 8;
    this.text(value, { bold: true, size: 12.5, gap: 3 });
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4.width - MARGIN, y: this.y },
      thickness: 0.75,
      color: MUTED,
    });
    this.y -= 8;
  }
}

/** The receipt's PDF file, as bytes. */
export async function receiptPdf(receipt: ReceiptData): Promise<Uint8Array> {
  // No automatic dates: the same gift gives the same file, byte for byte, at every download.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Reçu fiscal n° ${receipt.number} — ${receipt.issuer.name}`);
  pdf.setAuthor(receipt.issuer.name);
  pdf.setLanguage('fr-FR');
  pdf.setCreationDate(receipt.issuedAt);
  pdf.setModificationDate(receipt.issuedAt);
  pdf.setProducer('pdf-lib');
  const page = pdf.addPage([A4.width, A4.height]);
  const writer = new Writer(
    page,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const euros = receipt.amountCents / 100;
  const reduction = euros - costAfterTaxReduction(euros);

  writer.text('Reçu au titre des dons à certains organismes d’intérêt général', { size: 16, bold: true });
  writer.text('Articles 200, 238 bis et 978 du code général des impôts (CGI) — modèle CERFA n° 11580', {
    color: MUTED,
    size: 9.5,
  });
  writer.text(`Reçu n° ${receipt.number}`, { size: 13, bold: true, gap: 10 });

  writer.heading('Bénéficiaire des versements');
  writer.field('Nom ou dénomination', receipt.issuer.name);
  writer.field('Adresse', receipt.issuer.addressLines.join(', '));
  writer.field('Objet', receipt.issuer.object);
  writer.field('Qualité', 'Œuvre ou organisme d’intérêt général');

  writer.heading('Donateur');
  writer.field('Nom et prénom', receipt.donorName);
  writer.field('Adresse', receipt.donorAddressLines.join(', '));

  writer.heading('Versement');
  writer.text(
    'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt la somme de :',
    { gap: 7 },
  );
  writer.field('Montant', formatCents(receipt.amountCents));
  writer.field('Somme en toutes lettres', amountInWords(receipt.amountCents));
  writer.field('Date du versement', frenchDate(receipt.paidAt));
  writer.field('Forme du don', 'Déclaration de don manuel');
  writer.field('Nature du don', 'Numéraire');
  writer.field('Mode de versement', 'Carte bancaire (paiement en ligne sécurisé par Stripe)');

  writer.y -= 6;
  writer.text(
    'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article 200 du CGI.',
    { gap: 7 },
  );
  writer.text(
    `Ce don ouvre droit à une réduction d’impôt sur le revenu égale à ${Math.round(TAX_REDUCTION_RATE * 100)} % de son montant, soit ${formatEuros(reduction)}, dans la limite de 20 % du revenu imposable (l’excédent est reportable sur les cinq années suivantes).`,
    { gap: 14 },
  );
  writer.text(`Fait le ${frenchDate(receipt.issuedAt)}`);
  writer.text(receipt.issuer.signatory ? `Pour l’association : ${receipt.issuer.signatory}` : 'Pour l’association', {
    bold: true,
  });
  return pdf.save();
}
