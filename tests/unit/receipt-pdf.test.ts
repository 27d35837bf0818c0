/**
 * The receipt PDF (pdf-lib) read back with unpdf: names outside Helvetica's WinAnsi set are
 * drawn as near as it allows instead of failing the whole receipt; long texts wrap on the page.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { ReceiptedGift } from '../../src/features/donations/gift.server';
import { receiptPdf, type ReceiptIssuer } from '../../src/features/donations/receipt-pdf.server';

const ISSUER: ReceiptIssuer = {
  name: 'Les Petits Pas Ensemble',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  object: 'o',
  registration: '',
  signatory: '',
};

/** A paid one-off gift's `dons` document. */
const GIFT: ReceiptedGift = {
  recu: '2026-00042',
  devise: 'eur',
  email: 'jeanne@exemple.fr',
  statut: 'paid',
  nature: 'don',
  livemode: true,
  evenement: 'checkout.session.completed',
  session: 'cs_test_recu',
  abonnement: '',
  prenom: '',
  nom: 'Jeanne Dupont',
  adresse: '8 quai Rambaud',
  postal: '69002',
  ville: 'Lyon',
  pays: 'BE',
  montant: 1_000_000,
  datePaiement: Timestamp.fromDate(new Date('2026-03-01T10:00:00Z')),
  date: Timestamp.fromDate(new Date('2026-03-01T10:05:00Z')),
};

async function textOf(gift = GIFT, issuer = ISSUER): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(await receiptPdf(issuer, gift)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('receipt PDF', () => {
  it('draws names Helvetica cannot: accents dropped, look-alikes, no emoji, "?" for the rest', async () => {
    const text = await textOf({ ...GIFT, nom: 'Łukasz Đoković 😀 Ōta 李 Zoë Œuvre' });
    expect(text).toContain('Lukasz Dokovic Ota ? Zoë Œuvre');
  });

  it('prints the registration numbers under the object when they are set, and no such line otherwise', async () => {
    const registration = 'RNA W691012345 · SIREN 812 345 678';
    expect(await textOf(GIFT, { ...ISSUER, registration })).toContain(
      `Objet o Numéros d’enregistrement ${registration} Qualité`,
    );
    expect(await textOf()).not.toContain('Numéros d’enregistrement');
  });

  it('writes large amounts in figures and words, without a signatory line when none is set', async () => {
    const text = await textOf();
    expect(text).toContain('8 quai Rambaud, 69002 Lyon, Belgique');
    expect(text).toContain('10 000,00 €');
    expect(text).toContain('dix mille euros');
    expect(text).toContain('soit 6 600 €');
    expect(text).toContain('1er mars 2026');
    expect(text).toContain('Pour l’association');
    expect(text).not.toContain('Pour l’association :');
  });

  it.each([
    [2500, 'vingt-cinq euros'],
    [8000, 'quatre-vingts euros'],
    [2550, 'vingt-cinq euros et cinquante centimes'],
  ])('writes %i cents in French words', async (montant, words) => {
    expect(await textOf({ ...GIFT, montant })).toContain(`Somme en toutes lettres ${words}`);
  });

  it('wraps a long object inside the page instead of cutting it', async () => {
    const object = `${'Une école inclusive pour tous les enfants du quartier, '.repeat(8)}fin de l’objet.`;
    const text = await textOf(GIFT, { ...ISSUER, object });
    expect(text).toContain('fin de l’objet.');
  });
});
