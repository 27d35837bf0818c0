/**
 * The tax receipt of one gift of money as an A4 PDF (pdf-lib, Helvetica): the fields of CERFA n° 11580; for a test-mode
 * gift a specimen without tax value.
 */
import { breakTextIntoLines, degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatDate } from '../../lib/dates';
import { PAYMENT_METHOD_LABELS, type ReceiptedGift } from './gift.server';
import { costAfterTaxReduction, formatEuros, TAX_REDUCTION_RATE } from './donations';
import { toCurrency } from 'n2words/fr-FR';

/**
 * Who issues the receipt (src/association.ts): name, address lines, object, registration numbers, signatory ('' =
 * none).
 */
export type ReceiptIssuer = Record<'name' | 'object' | 'registration' | 'signatory', string> & {
  addressLines: string[];
};

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.1, 0.16, 0.22);
const MUTED = rgb(0.33, 0.38, 0.44);
const SMALL = { size: 9.5, color: MUTED };
const WARNING = rgb(0.72, 0.07, 0.07);

/** What a test-mode gift's PDF says in its banner, its title and across the page: it is not a tax receipt. */
export const SPECIMEN_TITLE = 'SPÉCIMEN — paiement de test, sans valeur fiscale';

/** True for a gift paid with Stripe's test keys: its PDF is a specimen (SPECIMEN_TITLE), never a tax receipt. */
export const isSpecimen = (gift: { livemode: boolean }): boolean => !gift.livemode;

/** The PDF's file name: "recu-fiscal-2026-00042.pdf", or "specimen-TEST-2026-3f9a1c0b7e2d.pdf" for a test gift. */
export function receiptFileName(gift: ReceiptedGift): string {
  return isSpecimen(gift) ? `specimen-${gift.recu}.pdf` : `recu-fiscal-${gift.recu}.pdf`;
}

/** A red banner across the top of `page` and SPÉCIMEN written diagonally across it, pale, behind the text. */
function markSpecimen(page: PDFPage, bold: PDFFont): void {
  page.drawText('SPÉCIMEN', {
    x: 120,
    y: 200,
    size: 110,
    font: bold,
    color: WARNING,
    opacity: 0.12,
    rotate: degrees(45),
  });
  page.drawRectangle({ x: 0, y: A4.height - 40, width: A4.width, height: 40, color: WARNING });
  page.drawText(SPECIMEN_TITLE, { x: MARGIN, y: A4.height - 25, size: 13, font: bold, color: rgb(1, 1, 1) });
}

// Latin letters that have no decomposition into a WinAnsi letter and an accent.
const LOOKALIKES: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h', ŀ: 'l', Ŀ: 'L' };

// Text Helvetica (WinAnsi) can draw: other letters lose their accents, emoji go, the rest become '?'.
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

/**
 * What a yearly receipt (yearly-receipts.server.ts) prints instead of one date of payment: the period it covers
 * (« Dons mensuels du 1er janvier au 31 décembre 2026 ») and how many payments it sums.
 */
export interface ReceiptPeriod {
  periode: string;
  versements: number;
}

/**
 * The PDF (bytes) of a paid one-off gift with its receipt number `recu`: donor, `montant` in cents, `datePaiement`;
 * `date` (when the ledger recorded it) is the issue date; `moyen` the payment method (card when absent); `periode`
 * the period and count of a yearly receipt's payments, printed instead of the date of payment. A test-mode
 * gift (`livemode` false) gets a specimen: SPECIMEN_TITLE in a banner, as its title and across the page, and neither
 * the CERFA heading nor the certification nor the tax reduction.
 */
export async function receiptPdf(
  issuer: ReceiptIssuer,
  gift: ReceiptedGift & { periode?: ReceiptPeriod },
): Promise<Uint8Array> {
  const issuedAt: Date = gift.date.toDate();
  const country =
    gift.pays && gift.pays !== 'FR' ? new Intl.DisplayNames(['fr'], { type: 'region' }).of(gift.pays) : '';
  const donorAddress = [gift.adresse, [gift.postal, gift.ville].filter(Boolean).join(' '), country].filter(Boolean);
  // No automatic dates: the same gift gives the same file, byte for byte, at every download.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const specimen = isSpecimen(gift);
  pdf.setTitle(specimen ? `${SPECIMEN_TITLE} — n° ${gift.recu}` : `Reçu fiscal n° ${gift.recu} — ${issuer.name}`);
  pdf.setAuthor(issuer.name);
  pdf.setLanguage('fr-FR');
  pdf.setCreationDate(issuedAt);
  pdf.setModificationDate(issuedAt);
  pdf.setProducer('pdf-lib');
  const page = pdf.addPage([A4.width, A4.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const boldFont = await pdf.embedFont(StandardFonts.HelveticaBold);
  if (specimen) markSpecimen(page, boldFont);
  let y = A4.height - MARGIN;
  const text = (value: string, { size = 10.5, bold = false, color = INK, gap = 4 } = {}) => {
    const font = bold ? boldFont : regular;
    const width = (part: string) => font.widthOfTextAtSize(part, size);
    for (const line of breakTextIntoLines(drawable(font, value), [' '], A4.width - 2 * MARGIN, width)) {
      y -= size * 1.3;
      page.drawText(line, { x: MARGIN, y, size, font, color });
    }
    y -= gap;
  };
  const field = (label: string, value: string) => {
    text(label, { ...SMALL, bold: true, gap: 2 });
    text(value || '—', { gap: 7 });
  };
  const heading = (value: string) => {
    y -= 8;
    text(value, { bold: true, size: 12.5, gap: 3 });
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4.width - MARGIN, y }, thickness: 0.75, color: MUTED });
    y -= 8;
  };
  const euros = Number(gift.montant ?? 0) / 100;
  const reduction = euros - costAfterTaxReduction(euros);

  if (specimen) {
    text(SPECIMEN_TITLE, { size: 16, bold: true, color: WARNING });
    text(
      'Paiement fait avec les clés de test de Stripe : aucune somme n’a été versée. Ce document n’est pas un ' +
        'reçu et n’ouvre droit à aucune réduction d’impôt.',
      { ...SMALL, color: WARNING },
    );
    text(`Spécimen n° ${gift.recu}`, { size: 13, bold: true, gap: 10 });
  } else {
    text('Reçu au titre des dons à certains organismes d’intérêt général', { size: 16, bold: true });
    text('Articles 200, 238 bis et 978 du code général des impôts (CGI) — modèle CERFA n° 11580', SMALL);
    text(`Reçu n° ${gift.recu}`, { size: 13, bold: true, gap: 10 });
  }

  heading('Bénéficiaire des versements');
  field('Nom ou dénomination', issuer.name);
  field('Adresse', issuer.addressLines.join(', '));
  field('Objet', issuer.object);
  if (issuer.registration) field('Numéros d’enregistrement', issuer.registration);
  field('Qualité', 'Œuvre ou organisme d’intérêt général');

  heading('Donateur');
  field('Nom et prénom', [gift.prenom, gift.nom].filter(Boolean).join(' '));
  field('Adresse', donorAddress.join(', '));

  heading(specimen ? 'Paiement de test' : 'Versement');
  if (!specimen) {
    text(
      'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt la ' +
        'somme de :',
      { gap: 7 },
    );
  }
  field('Montant', formatEuros(euros, true));
  field('Somme en toutes lettres', toCurrency(euros));
  if (gift.periode) {
    // A yearly receipt: the period and the number of payments it sums, not one date.
    field('Période des versements', gift.periode.periode);
    field('Nombre de versements', String(gift.periode.versements));
  } else field('Date du versement', formatDate(gift.datePaiement.seconds));
  field('Forme du don', 'Déclaration de don manuel');
  field('Nature du don', 'Numéraire');
  field('Mode de versement', PAYMENT_METHOD_LABELS[gift.moyen ?? 'carte']);

  y -= 6;
  if (specimen) {
    text(`${SPECIMEN_TITLE}.`, { bold: true, color: WARNING, gap: 14 });
    text(`Édité le ${formatDate(gift.date.seconds)}`);
    return pdf.save();
  }
  text(
    'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction ' +
      'd’impôt prévue à l’article 200 du CGI.',
    { gap: 7 },
  );
  text(
    `${gift.periode ? 'Ces dons ouvrent' : 'Ce don ouvre'} droit à une réduction d’impôt sur le revenu égale à ` +
      `${Math.round(TAX_REDUCTION_RATE * 100)} % de ${gift.periode ? 'leur' : 'son'} montant, soit ` +
      `${formatEuros(reduction)}, dans la limite de 20 % du revenu imposable (l’excédent est ` +
      `reportable sur les cinq années suivantes).`,
    { gap: 14 },
  );
  text(`Fait le ${formatDate(gift.date.seconds)}`);
  text(`Pour l’association${issuer.signatory && ` : ${issuer.signatory}`}`, { bold: true });
  return pdf.save();
}
