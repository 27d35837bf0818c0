/** The treasurer's ledger without Firestore: kinds, euros for a spreadsheet, the year asked for, the year's totals. */
import { describe, expect, it } from 'vitest';
import {
  eurosCell,
  giftKind,
  methodLabel,
  requestedYear,
  yearTotals,
  type LedgerRow,
  rowDisplay,
} from '../../src/features/donations/ledger/ledger-view';

const row = (extra: Partial<LedgerRow>): LedgerRow => ({
  ...{ id: 'cs_x', date: new Date('2026-03-01T10:00:00Z'), prenom: '', nom: 'Jeanne', email: '', montant: 5000 },
  ...{ kind: 'don', moyen: 'Carte bancaire', statut: 'paid', recu: '2026-00001', livemode: true },
  ...{ rembourse: 0, litige: '', recusAnnules: [], numberPending: false },
  ...{ entreprise: '', abonnementStatut: '', monthlyCents: null },
  ...extra,
});

describe('the ledger rows', () => {
  it('shows a monthly gift’s start as what it is, not as money paid', () => {
    const start = row({ kind: 'abonnement', montant: 2500, monthlyCents: 2500, recu: '', nom: 'Ana García' });
    expect(rowDisplay(start)).toEqual({
      donor: 'Ana García',
      amount: '25,00 €/mois',
      nature: 'Don mensuel mis en place',
      status: 'en cours',
    });
    expect(rowDisplay({ ...start, abonnementStatut: 'canceled', monthlyCents: 3000 })).toMatchObject({
      amount: '30,00 €/mois',
      status: 'arrêté',
    });
    expect(rowDisplay(row({ montant: 2500, kind: 'mensualité', recu: '' }))).toMatchObject({
      amount: '25,00 €',
      nature: 'mensualité',
      status: 'payé',
    });
    expect(rowDisplay(row({ entreprise: 'Boulangerie Durand SARL', nom: '', kind: 'chèque' })).donor).toBe(
      'Boulangerie Durand SARL',
    );
  });

  it('names each kind and method as the treasurer reads them', () => {
    expect(giftKind('don', undefined)).toBe('don');
    expect(giftKind('don', 'cheque')).toBe('chèque');
    expect(giftKind('don', 'virement')).toBe('virement');
    expect(giftKind('mensualite', 'carte')).toBe('mensualité');
    expect(giftKind('abonnement', undefined)).toBe('abonnement');
    expect([methodLabel(undefined), methodLabel('cheque'), methodLabel('virement')]).toEqual([
      'Carte bancaire',
      'Chèque',
      'Virement',
    ]);
  });

  it('writes euros with a decimal comma and no grouping, nothing for no amount', () => {
    expect(eurosCell(1234567)).toBe('12345,67');
    expect(eurosCell(2500)).toBe('25,00');
    expect(eurosCell(null)).toBe('');
  });

  it('reads the year asked for between 2000 and next year, else this year', () => {
    const at = (query: string) => requestedYear(new URL(`https://x.fr/espace/dons${query}`), 2026);
    expect([
      at('?annee=2024'),
      at('?annee=2027'),
      at('?annee=2028'),
      at('?annee=1999'),
      at('?annee=abc'),
      at(''),
    ]).toEqual([2024, 2027, 2026, 2026, 2026, 2026]);
  });

  it('totals the receipts issued and the money received of live gifts only', () => {
    const totals = yearTotals([
      row({ montant: 5000 }),
      row({ montant: 15050, kind: 'chèque', recu: '2026-00002' }),
      row({ montant: 2500, kind: 'mensualité', recu: '' }),
      row({ montant: 2500, kind: 'abonnement', recu: '' }),
      row({ montant: 1000, statut: 'unpaid', recu: '' }),
      row({ montant: 999900, livemode: false, recu: '2026-00003' }),
    ]);
    expect(totals).toEqual({
      receipts: 2,
      receiptsCents: 20050,
      receivedCents: 22550,
      refundedCents: 0,
      cancelledReceipts: 0,
    });
  });

  it('counts only valid receipts, a corrected one for what it certifies, and the money kept after refunds', () => {
    const totals = yearTotals([
      row({ montant: 5000, recu: '', rembourse: 5000, recusAnnules: ['2026-00001'] }),
      row({ montant: 5000, recu: '2026-00004', rembourse: 2000, recusAnnules: ['2026-00002'] }),
      row({ montant: 10000, recu: '', litige: 'perdu', recusAnnules: ['2026-00003'] }),
      row({ montant: 2500, recu: '2026-00005', litige: 'ouvert' }),
      row({ montant: 2500, kind: 'mensualité', recu: '', rembourse: 2500 }),
    ]);
    expect(totals).toEqual({
      receipts: 2,
      receiptsCents: 3000 + 2500,
      receivedCents: 3000 + 2500,
      refundedCents: 5000 + 2000 + 10000 + 2500,
      cancelledReceipts: 3,
    });
  });
});
