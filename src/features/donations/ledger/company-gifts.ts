/**
 * A company's gift (mécénat, article 238 bis of the Code général des impôts): its tax reduction and the legal lines of
 * its receipt, after the CERFA n° 16216 (formulaire 2041-MEC-SD, « Reçu des dons et versements effectués par les
 * entreprises ») and service-public.fr's « Réduction d’impôt pour les dons des entreprises ».
 */
import { costAfterTaxReduction, formatEuros, taxReductionLine } from '../checkout/donations';
import type { DonorKind } from '../checkout/payment-draft';

/** Tax reduction of a company's gift of money: 60 % of the amount (article 238 bis of the CGI), up to 2 M€ a year. */
export const COMPANY_TAX_REDUCTION_RATE = 0.6;

/** What a company gives within (article 238 bis 1 of the CGI, service-public.fr): the higher of the two. */
export const COMPANY_CAP = '20 000 € ou 5 ‰ (5 pour mille) du chiffre d’affaires annuel hors taxes';

/** True for a gift the ledger recorded with a business name: its receipt is a company's. */
export const isCompanyGift = (gift: { entreprise?: string | undefined }): boolean => Boolean(gift.entreprise?.trim());

/** The key of the session's custom field that asks a company for its SIREN (stripe.server.ts). */
export const SIREN_FIELD_KEY = 'siren';

/**
 * True for a SIREN: 9 digits whose Luhn sum is a multiple of 10 (INSEE), or La Poste's (356000000, whose digits sum
 * to a multiple of 5: the one exception INSEE documents).
 */
export function isSiren(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  if (value === '356000000') return true;
  const sum = [...value].reduce((total, digit, index) => {
    const doubled = Number(digit) * (index % 2 === 1 ? 2 : 1);
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return sum % 10 === 0;
}

/** The receipt's lines for a company (CERFA n° 16216): title, reference, certification, reduction. */
export const COMPANY_RECEIPT = {
  title: 'Reçu des dons et versements effectués par les entreprises',
  reference: 'Article 238 bis du code général des impôts (CGI) — modèle CERFA n° 16216 (formulaire 2041-MEC-SD)',
  donorHeading: 'Entreprise donatrice',
  certification:
    'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction ' +
    'd’impôt prévue à l’article 238 bis du code général des impôts.',
  /** The reduction line for `reduction` euros (60 % of the gift; of the gifts, `several`, for a yearly receipt). */
  reduction: (reduction: number, several = false) =>
    `Réduction d’impôt pour l’entreprise : 60 % ${several ? 'des dons' : 'du don'}, soit ${formatEuros(reduction)}, ` +
    `dans la limite de 20 000 € ` +
    `ou de 5 ‰ du chiffre d’affaires annuel hors taxes si ce montant est plus élevé (excédent reportable sur les ` +
    `cinq exercices suivants).`,
} as const;

/** "Votre don de 500 € [par mois] ne coûte à votre entreprise que 200 € [par mois] après réduction d’impôt". */
export function companyTaxLine(euros: number, monthly = false): string {
  const period = monthly ? ' par mois' : '';
  const cost = costAfterTaxReduction(euros, COMPANY_TAX_REDUCTION_RATE);
  return (
    `Votre don de ${formatEuros(euros)}${period} ne coûte à votre entreprise que ${formatEuros(cost)}${period} ` +
    `après réduction d’impôt`
  );
}

/**
 * What the picker says for each kind of donor: the choice's label, the tax line for `euros` (one-off or per month),
 * the reduction's cap, and what Stripe's page will ask.
 */
export const DONOR_KINDS: Record<
  DonorKind,
  { label: string; taxLine: (euros: number, monthly: boolean) => string; cap: string; notice: string }
> = {
  particulier: {
    label: 'Don personnel',
    taxLine: taxReductionLine,
    cap:
      'Réduction d’impôt sur le revenu de 66 % du don, dans la limite de 20 % de votre revenu imposable. Si vos ' +
      'dons dépassent cette limite, la part en trop réduit vos impôts des cinq années suivantes.',
    notice:
      'Paiement sécurisé par Stripe, qui vous demandera votre nom, votre email et votre adresse : ils figurent sur ' +
      'votre reçu fiscal.',
  },
  entreprise: {
    label: 'Don d’entreprise',
    taxLine: companyTaxLine,
    cap:
      `Mécénat d’entreprise : réduction d’impôt de 60 % du don (article 238 bis du CGI), dans la limite de ` +
      `${COMPANY_CAP} si ce montant est plus élevé. Au-delà, la part en trop réduit l’impôt des cinq exercices ` +
      `suivants.`,
    notice:
      'Paiement sécurisé par Stripe, qui vous demandera le nom de l’entreprise, son adresse, un email et, si vous le ' +
      'souhaitez, son numéro SIREN : ils figurent sur le reçu fiscal de l’entreprise.',
  },
};
