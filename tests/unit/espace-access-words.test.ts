/**
 * The access log in words: requests by the child's first name and initial (never what the family wrote), gifts by
 * amount and date, receipts by number, refusals by section, role changes; a deleted request leaves no name.
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../../src/features/espace/access-log.server';
import { describeEntries } from '../../src/features/espace/access-words.server';

/** A Firestore holding `documents` by path, read through getAll and the gifts' `recu` query. */
function fakeFirestore(documents: Record<string, Record<string, unknown>>) {
  const snapshot = (path: string) => ({
    ref: { path },
    exists: path in documents,
    get: (field: string) => documents[path]?.[field],
  });
  const db = {
    doc: (path: string) => ({ path }),
    getAll: async (...refs: { path: string }[]) => refs.map((ref) => snapshot(ref.path)),
    collection: (name: string) => ({
      where: (_field: string, _op: string, value: unknown) => ({
        limit: () => ({
          get: async () => ({
            docs: Object.keys(documents)
              .filter((path) => path.startsWith(`${name}/`) && documents[path]!.recu === value)
              .map(snapshot),
          }),
        }),
      }),
    }),
  };
  return db as unknown as Firestore;
}

const entry = (action: AccessEntry['action'], objet: string): AccessEntry => ({
  id: objet,
  qui: 'admin@demo.test',
  action,
  objet,
  date: undefined,
});

describe('describeEntries', () => {
  it('names each document in words, with no health data', async () => {
    const paid = Timestamp.fromDate(new Date('2026-03-03T10:00:00Z'));
    const db = fakeFirestore({
      'inscripitions/a1': { enfantPrenom: 'Léa', enfantNom: 'martin', infos: 'asthme sévère' },
      'dons/cheque-k1': { montant: 5000, datePaiement: paid },
      'dons/cs_test_1': { montant: 2550, date: paid, recu: '2026-00012' },
    });
    const words = await describeEntries(db, [
      entry('consultation', 'inscripitions/a1'),
      entry('suppression', 'inscripitions/gone'),
      entry('creation', 'dons/cheque-k1'),
      entry('export', 'dons/3f9a1c0b7e2d (reçu 2026-00012, PDF)'),
      entry('envoi', 'dons/3f9a1c0b7e2d (reçu 2026-00012, email)'),
      entry('export', 'inscripitions statut refusee (4 lignes, CSV)'),
      entry('consultation', 'dons 2026 (liste)'),
      entry('refus', '/espace/preinscriptions/a1'),
      entry('role', 'lea@exemple.fr : + edition'),
      entry('role', 'lea@exemple.fr : accès retiré'),
      entry('envoi', 'invitation lea@exemple.fr : edition'),
      entry('consultation', 'essai/001'),
    ]);
    // Intl writes a no-break space before « € ».
    expect(words.map((text) => text.replace(/[\u202f\u00a0]/g, ' '))).toEqual([
      'Préinscription de Léa M.',
      'Préinscription supprimée depuis',
      'Don de 50 € du 3 mars 2026',
      'Reçu n° 2026-00012 du don de 25,50 € du 3 mars 2026 (PDF)',
      'Reçu n° 2026-00012 du don de 25,50 € du 3 mars 2026 (envoyé par email)',
      'Export des préinscriptions « Refusée » (4 lignes)',
      'Dons de 2026',
      'Préinscriptions (/espace/preinscriptions/a1)',
      'Rôle « Édition » donné à lea@exemple.fr',
      'Accès retiré à lea@exemple.fr',
      'Invitation de lea@exemple.fr (Édition)',
      'essai/001',
    ]);
    expect(words.join(' ')).not.toContain('asthme');
  });
});
