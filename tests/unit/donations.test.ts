import { describe, expect, it } from 'vitest';
import {
  costAfterTaxReduction,
  DONATION_AMOUNTS_EUR,
  formatEuros,
  receiptNumber,
  receiptYear,
  taxReductionLine,
} from '../../src/features/donations/checkout/donations';
import {
  DONATION_MESSAGES as MESSAGES,
  draftOfForm,
  paymentDraftSchema,
} from '../../src/features/donations/checkout/payment-draft';
import { donationOutcome, donationOutcomeLocation } from '../../src/features/donations/checkout/form-outcomes';
import { fieldErrors } from '../../src/lib/field-schemas';

/** Intl writes French numbers with narrow no-break spaces: compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('donation amounts (spec §9)', () => {
  it('are the ten amounts of the spec, formatted the French way', () => {
    expect([...DONATION_AMOUNTS_EUR]).toEqual([10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000]);
    expect(DONATION_AMOUNTS_EUR.map((euros) => plain(formatEuros(euros)))).toEqual([
      '10 €',
      '25 €',
      '50 €',
      '100 €',
      '250 €',
      '500 €',
      '1 000 €',
      '2 000 €',
      '5 000 €',
      '10 000 €',
    ]);
    expect(plain(formatEuros(8.5))).toBe('8,50 €');
    expect(plain(formatEuros(10000, true))).toBe('10 000,00 €');
  });

  it('are chosen by index only: missing, non-integer or out-of-range ids are refused', () => {
    const draft = { moyen: 'lien', somme: '2' };
    expect(paymentDraftSchema.parse(draft).somme).toBe(2);
    expect(paymentDraftSchema.parse({ ...draft, somme: 9 }).somme).toBe(9);
    for (const somme of [null, undefined, '', '10', '-1', '1.5', 'abc', '1e1', ' 2x', '02a', true]) {
      const result = paymentDraftSchema.safeParse({ ...draft, somme });
      expect(result.success ? {} : fieldErrors(result.error), String(somme)).toEqual({
        somme: 'Merci de choisir un montant',
      });
    }
  });
});

describe('tax reduction (66 %)', () => {
  it('says what the gift really costs', () => {
    expect(costAfterTaxReduction(50)).toBe(17);
    expect(costAfterTaxReduction(25)).toBe(8.5);
    expect(costAfterTaxReduction(10)).toBe(3.4);
    expect(plain(taxReductionLine(50))).toBe('Votre don de 50 € ne vous coûte que 17 € après réduction d’impôt');
    expect(plain(taxReductionLine(10000))).toBe(
      'Votre don de 10 000 € ne vous coûte que 3 400 € après réduction d’impôt',
    );
    expect(plain(taxReductionLine(25, true))).toBe(
      'Votre don de 25 € par mois ne vous coûte que 8,50 € par mois après réduction d’impôt',
    );
  });
});

describe('tax receipts', () => {
  it('numbers receipts per calendar year in Paris time, five digits', () => {
    expect(receiptNumber(2026, 1)).toBe('2026-00001');
    expect(receiptNumber(2026, 12345)).toBe('2026-12345');
    // 31 December 23:30 UTC is already 1 January in Paris.
    expect(receiptYear(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
    expect(receiptYear(new Date('2026-12-31T22:30:00Z'))).toBe(2026);
  });
});

describe('payment draft (spec §3)', () => {
  const draft = {
    moyen: 'integre',
    somme: 2,
    prenom: 'Paul',
    nom: 'Durand',
    email: 'paul@exemple.fr',
    adresse: '8 quai Rambaud',
    postal: '69002',
    ville: 'Lyon',
    pays: 'FR',
  };

  it('accepts a complete draft whose somme is an index; a person’s one-off gift by default', () => {
    expect(paymentDraftSchema.parse(draft)).toEqual({ ...draft, frequence: 'ponctuel', donateur: 'particulier' });
    expect(paymentDraftSchema.parse({ ...draft, somme: '9' }).somme).toBe(9);
    expect(paymentDraftSchema.parse({ moyen: 'lien', somme: 1, frequence: 'mensuel' })).toEqual({
      moyen: 'lien',
      somme: 1,
      frequence: 'mensuel',
      donateur: 'particulier',
      pays: 'FR',
    });
    expect(paymentDraftSchema.parse({ moyen: 'lien', somme: 1, donateur: 'entreprise' }).donateur).toBe('entreprise');
    const unknown = paymentDraftSchema.safeParse({ moyen: 'lien', somme: 1, donateur: 'association' });
    expect(unknown.success ? {} : fieldErrors(unknown.error)).toEqual({
      donateur: 'Merci de choisir un don personnel ou un don d’entreprise',
    });
  });

  it('refuses prices, unknown ways to pay or frequencies, and malformed strings, in French', () => {
    const result = paymentDraftSchema.safeParse({ ...draft, somme: 50, moyen: 'cheque', frequence: 'hebdo' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        moyen: 'Merci de choisir comment payer',
        somme: 'Merci de choisir un montant',
        frequence: 'Merci de choisir un don ponctuel ou mensuel',
      });
    }
    expect(paymentDraftSchema.safeParse({ ...draft, montant: 5000 }).success).toBe(false);
    const lone = paymentDraftSchema.safeParse({ ...draft, nom: 'Du\uDFFFrand' });
    expect(lone.success ? {} : fieldErrors(lone.error)).toEqual({
      nom: MESSAGES.malformedText,
    });
  });
});

describe('the donation form posted without JavaScript', () => {
  it('reads « Autre montant » only when its radio is the one posted', () => {
    const fields = { frequence: 'mensuel', donateur: 'particulier', autreMontant: '37', moyen: 'lien' };
    expect(draftOfForm({ ...fields, somme: 'autre' })).toEqual({ ...fields, autreMontant: '37' });
    const { autreMontant: _ignored, ...withoutOwn } = fields;
    expect(draftOfForm({ ...fields, somme: '2' })).toEqual({ ...withoutOwn, somme: '2' });
    expect(draftOfForm({ moyen: 'lien', somme: 'autre' })).toEqual({ moyen: 'lien', autreMontant: '' });
  });

  it('sends each refusal back to its message on /soutenir', () => {
    expect(donationOutcomeLocation(donationOutcome(400, 'x', 'Le montant minimum d’un don est de 1 €'))).toBe(
      '/soutenir#don-montant-minimum',
    );
    expect(donationOutcome(400, 'Merci de choisir un montant')).toBe('champs');
    expect(donationOutcome(413, 'La demande est trop volumineuse')).toBe('champs');
    expect(donationOutcome(502, 'Le service de paiement ne répond pas')).toBe('indisponible');
    expect(donationOutcome(503, 'Le paiement en ligne n’est pas configuré sur ce site.')).toBe('non-configure');
  });
});
