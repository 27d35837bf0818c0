import { describe, expect, it } from 'vitest';
import { withA, withDe } from '../../src/lib/french-articles';

describe('the association’s name after « de » and « à »', () => {
  it('contracts a leading « Les » and « Le » and keeps « la » and « l’ » apart', () => {
    expect(withDe('Les Petits Pas Ensemble')).toBe('des Petits Pas Ensemble');
    expect(withA('Les Petits Pas Ensemble')).toBe('aux Petits Pas Ensemble');
    expect(withDe('Le Chemin des écoliers')).toBe('du Chemin des écoliers');
    expect(withA('Le Chemin des écoliers')).toBe('au Chemin des écoliers');
    expect(withDe('La Ruche')).toBe('de la Ruche');
    expect(withA('La Ruche')).toBe('à la Ruche');
    expect(withDe('L’Envol')).toBe('de l’Envol');
    expect(withA("L'Envol")).toBe('à l’Envol');
    expect(withDe('L’association')).toBe('de l’association');
    expect(withA('L’association')).toBe('à l’association');
  });

  it('elides « de » before a vowel and leaves other names as written', () => {
    expect(withDe('Arc-en-ciel')).toBe('d’Arc-en-ciel');
    expect(withDe('Écoles pour tous')).toBe('d’Écoles pour tous');
    expect(withDe('Pas à Pas')).toBe('de Pas à Pas');
    expect(withA('Pas à Pas')).toBe('à Pas à Pas');
    // A word that only begins like an article is not one.
    expect(withDe('Lesage et fils')).toBe('de Lesage et fils');
    expect(withA('Laval Solidaire')).toBe('à Laval Solidaire');
  });
});
