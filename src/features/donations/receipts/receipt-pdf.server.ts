/**
 * The tax receipt of one gift of money as an A4 PDF: the fields of CERFA n° 11580, or for a company's gift
 * (`entreprise`) those of CERFA n° 16216 (company-gifts.ts); for a test-mode gift a specimen without tax value. The
 * receipt is data (`receiptBlocks`: titles, paragraphs, sections of fields) that one renderer draws as a tagged PDF
 * (receipt-tagged.server.ts) in fonts for every script (receipt-fonts.server.ts).
 */
import { formatDate } from '../../../lib/dates';
import { PAYMENT_METHOD_LABELS, type ReceiptedGift } from '../ledger/gift.server';
import { costAfterTaxReduction, formatEuros, TAX_REDUCTION_RATE } from '../checkout/donations';
import { receiptCents } from './receipt-validity';
import { toCurrency } from 'n2words/fr-FR';
import { renderReceipt, WARNING, type ReceiptBlock } from './receipt-render.server';
import type { TaggedPdf } from './receipt-tagged.server';
import { COMPANY_RECEIPT, COMPANY_TAX_REDUCTION_RATE, isCompanyGift } from '../ledger/company-gifts';
import type { SignatureImage } from './signatory';

/**
 * Who issues the receipt (src/association.ts): name, address lines, object, registration numbers, signatory ('' =
 * none: « Claire Martin, présidente », receipts/signatory.ts signatoryLine) and the picture of the signature, printed
 * above the signatory's name.
 */
export type ReceiptIssuer = Record<'name' | 'object' | 'registration' | 'signatory', string> & {
  addressLines: string[];
  signature?: SignatureImage;
};

/** The height of the signature on the receipt, in points (its width follows, within the text's width). */
const SIGNATURE_HEIGHT = 50;

/**
 * The receipt's last lines: « Fait le … », « Pour l’association : », the signature's picture when there is one, then
 * the signatory's name and quality.
 */
function signedBlocks(issuer: ReceiptIssuer, issued: string): ReceiptBlock[] {
  const signature: ReceiptBlock[] = issuer.signature
    ? [{ kind: 'image', image: issuer.signature, height: SIGNATURE_HEIGHT, alt: `Signature de ${issuer.signatory}` }]
    : [];
  return [
    { kind: 'paragraph', text: `Fait le ${issued}` },
    { kind: 'paragraph', style: 'strong', text: issuer.signatory ? 'Pour l’association :' : 'Pour l’association' },
    ...(issuer.signatory
      ? [...signature, { kind: 'paragraph', style: 'strong', text: issuer.signatory } as const]
      : []),
  ];
}

/** What a test-mode gift's PDF says in its banner, its title and across the page: it is not a tax receipt. */
export const SPECIMEN_TITLE = 'SPÉCIMEN — paiement de test, sans valeur fiscale';

/** True for a gift paid with Stripe's test keys: its PDF is a specimen (SPECIMEN_TITLE), never a tax receipt. */
export const isSpecimen = (gift: { livemode: boolean }): boolean => !gift.livemode;

/** The PDF's file name: "recu-fiscal-2026-00042.pdf", or "specimen-TEST-2026-3f9a1c0b7e2d.pdf" for a test gift. */
export function receiptFileName(gift: ReceiptedGift): string {
  return isSpecimen(gift) ? `specimen-${gift.recu}.pdf` : `recu-fiscal-${gift.recu}.pdf`;
}

/** A red banner across the top of the page and SPÉCIMEN written diagonally across it, pale, behind the text. */
async function markSpecimen(doc: TaggedPdf): Promise<void> {
  const { width, height, margin } = doc.format;
  await doc.decorativeText('SPÉCIMEN', {
    x: 120,
    y: height - 200,
    size: 110,
    weight: 700,
    color: WARNING,
    opacity: 0.12,
    angle: 45,
  });
  doc.artifact((pdf) => pdf.fillColor(WARNING).rect(0, 0, width, 40).fill());
  const white = { size: 13, weight: 700, color: '#ffffff' } as const;
  await doc.decorativeText(SPECIMEN_TITLE, { x: margin, y: 25, ...white });
}

/**
 * What a yearly receipt (yearly-receipts.server.ts) prints instead of one date of payment: the period it covers
 * (« Dons mensuels du 1er janvier au 31 décembre 2026 ») and how many payments it sums.
 */
export interface ReceiptPeriod {
  periode: string;
  versements: number;
  /** A corrected yearly receipt: the number it replaces and why (« dons remboursés en partie »). */
  remplace?: { numero: string; raison: string };
}

/** A receipt's gift: a numbered one-off gift, or a yearly receipt's sum with its `periode`. */
export type ReceiptGift = ReceiptedGift & { periode?: ReceiptPeriod };

/**
 * The PDF (bytes) of a paid one-off gift with its receipt number `recu`: donor, `montant` minus `rembourse` in cents (a
 * corrected receipt, after a partial refund, names the number it replaces: the last of `recusAnnules`), `datePaiement`;
 * `date` (when the ledger recorded it) is the issue date; `moyen` the payment method (card when absent); `periode`
 * the period and count of a yearly receipt's payments, printed instead of the date of payment (and, for a corrected
 * yearly receipt, the number it replaces: `periode.remplace`, not `recusAnnules`). A test-mode
 * gift (`livemode` false) gets a specimen: SPECIMEN_TITLE in a banner, as its title and across the page, and neither
 * the CERFA heading nor the certification nor the tax reduction.
 */
export async function receiptPdf(issuer: ReceiptIssuer, gift: ReceiptGift): Promise<Uint8Array> {
  const specimen = isSpecimen(gift);
  const title = specimen ? `${SPECIMEN_TITLE} — n° ${gift.recu}` : `Reçu fiscal n° ${gift.recu} — ${issuer.name}`;
  // No automatic dates: the same gift gives the same file, byte for byte, at every download.
  const meta = { title, lang: 'fr-FR', author: issuer.name, date: gift.date.toDate() };
  return renderReceipt(receiptBlocks(issuer, gift), meta, specimen ? markSpecimen : undefined);
}

/** The blocks of `gift`'s receipt (or specimen), top to bottom. */
export function receiptBlocks(issuer: ReceiptIssuer, gift: ReceiptGift): ReceiptBlock[] {
  const specimen = isSpecimen(gift);
  const country =
    gift.pays && gift.pays !== 'FR' ? new Intl.DisplayNames(['fr'], { type: 'region' }).of(gift.pays) : '';
  const donorAddress = [gift.adresse, [gift.postal, gift.ville].filter(Boolean).join(' '), country].filter(Boolean);
  // What was paid minus what was refunded (receipt-validity.ts): a corrected receipt certifies the rest only.
  const euros = receiptCents(gift) / 100;
  // A company's gift: CERFA n° 16216, article 238 bis, 60 % (company-gifts.ts); a person's: CERFA n° 11580.
  const company = isCompanyGift(gift);
  const reduction = euros - costAfterTaxReduction(euros, company ? COMPANY_TAX_REDUCTION_RATE : undefined);
  const issued = formatDate(gift.date.seconds);
  const rate = Math.round(TAX_REDUCTION_RATE * 100);
  const heading: ReceiptBlock[] = specimen
    ? [
        { kind: 'title', text: SPECIMEN_TITLE, warning: true },
        {
          kind: 'paragraph',
          style: 'note',
          warning: true,
          text:
            'Paiement fait avec les clés de test de Stripe : aucune somme n’a été versée. Ce document n’est pas un ' +
            'reçu et n’ouvre droit à aucune réduction d’impôt.',
        },
        { kind: 'paragraph', style: 'number', text: `Spécimen n° ${gift.recu}` },
      ]
    : company
      ? [
          { kind: 'title', text: COMPANY_RECEIPT.title },
          { kind: 'paragraph', style: 'note', text: COMPANY_RECEIPT.reference },
          { kind: 'paragraph', style: 'number', text: `Reçu n° ${gift.recu}` },
        ]
      : [
          { kind: 'title', text: 'Reçu au titre des dons à certains organismes d’intérêt général' },
          {
            kind: 'paragraph',
            style: 'note',
            text: 'Articles 200, 238 bis et 978 du code général des impôts (CGI) — modèle CERFA n° 11580',
          },
          { kind: 'paragraph', style: 'number', text: `Reçu n° ${gift.recu}` },
        ];
  const beneficiary: ReceiptBlock = {
    kind: 'section',
    heading: 'Bénéficiaire des versements',
    fields: [
      ['Nom ou dénomination', issuer.name],
      ['Adresse', issuer.addressLines.join(', ')],
      ['Objet', issuer.object],
      ...(issuer.registration ? [['Numéros d’enregistrement', issuer.registration] as [string, string]] : []),
      ['Qualité', 'Œuvre ou organisme d’intérêt général'],
    ],
  };
  const siren = gift.siren?.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
  const donor: ReceiptBlock = company
    ? {
        kind: 'section',
        heading: COMPANY_RECEIPT.donorHeading,
        fields: [
          [
            siren ? 'Dénomination et numéro SIREN' : 'Dénomination',
            [gift.entreprise, siren].filter(Boolean).join(' — SIREN '),
          ],
          ['Adresse', donorAddress.join(', ')],
        ],
      }
    : {
        kind: 'section',
        heading: 'Donateur',
        fields: [
          ['Nom et prénom', [gift.prenom, gift.nom].filter(Boolean).join(' ')],
          ['Adresse', donorAddress.join(', ')],
        ],
      };
  const payment: ReceiptBlock = {
    kind: 'section',
    heading: specimen ? 'Paiement de test' : 'Versement',
    intro: specimen
      ? undefined
      : 'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt la ' +
        'somme de :',
    fields: [
      ['Montant', formatEuros(euros, true)],
      ['Somme en toutes lettres', toCurrency(euros)],
      // A yearly receipt: the period and the number of payments it sums, not one date.
      ...((gift.periode
        ? [
            ['Période des versements', gift.periode.periode],
            ['Nombre de versements', String(gift.periode.versements)],
          ]
        : [['Date du versement', formatDate(gift.datePaiement.seconds)]]) as [string, string][]),
      ['Forme du don', 'Déclaration de don manuel'],
      ['Nature du don', 'Numéraire'],
      ['Mode de versement', PAYMENT_METHOD_LABELS[gift.moyen ?? 'carte']],
    ],
  };
  const closing: ReceiptBlock[] = specimen
    ? [
        { kind: 'paragraph', style: 'strong', warning: true, gap: 14, text: `${SPECIMEN_TITLE}.` },
        { kind: 'paragraph', text: `Édité le ${issued}` },
      ]
    : company
      ? [
          { kind: 'paragraph', style: 'body', text: COMPANY_RECEIPT.certification },
          { kind: 'paragraph', gap: 14, text: COMPANY_RECEIPT.reduction(reduction, Boolean(gift.periode)) },
          ...signedBlocks(issuer, issued),
        ]
      : [
          {
            kind: 'paragraph',
            style: 'body',
            text:
              'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la ' +
              'réduction d’impôt prévue à l’article 200 du CGI.',
          },
          {
            kind: 'paragraph',
            gap: 14,
            text:
              `${gift.periode ? 'Ces dons ouvrent' : 'Ce don ouvre'} droit à une réduction d’impôt sur le revenu ` +
              `égale à ${rate} % de ${gift.periode ? 'leur' : 'son'} montant, soit ` +
              `${formatEuros(reduction)}, dans la limite de 20 % du revenu imposable (l’excédent est reportable sur ` +
              `les cinq années suivantes).`,
          },
          ...signedBlocks(issuer, issued),
        ];
  const cancelled = gift.recusAnnules?.at(-1);
  const replaced = gift.periode
    ? gift.periode.remplace
    : cancelled && { numero: cancelled.numero, raison: 'don remboursé en partie' };
  const correction: ReceiptBlock[] = replaced
    ? [
        {
          kind: 'paragraph',
          style: 'strong',
          gap: 10,
          text: `Reçu rectificatif : il annule et remplace le n° ${replaced.numero} (${replaced.raison}).`,
        },
      ]
    : [];
  return [...heading, ...correction, beneficiary, donor, payment, ...closing];
}
