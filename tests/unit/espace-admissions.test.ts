/**
 * The space reads every pre-registration, the original admin app's included (`''` for none, numbers as strings,
 * dates in seconds, fields missing): a broken field reads as empty, never as an error that hides the list.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { readPreRegistration } from '../../src/features/admissions/admissions';

describe('readPreRegistration', () => {
  it('reads a document of the original admin app', () => {
    const entry = readPreRegistration('ancienne', {
      enfantPrenom: 'Léo',
      enfantNom: '',
      postal: 69007,
      date: '1600000000',
      statut: '',
      infos: null,
    });
    expect(entry).toMatchObject({
      id: 'ancienne',
      enfantPrenom: 'Léo',
      enfantNom: '',
      postal: '69007',
      infos: '',
      notes: '',
      email: '',
      statut: 'nouvelle',
    });
    expect(entry.dateDecision).toBeUndefined();
    expect(entry.date?.toISOString()).toBe('2020-09-13T12:26:40.000Z');
  });

  it('reads what the site and the space write: Timestamps, a known status', () => {
    const entry = readPreRegistration('x', {
      date: Timestamp.fromMillis(1_780_000_000_000),
      statut: 'liste-attente',
      dateSuppression: { seconds: 1_800_000_000, nanoseconds: 0 },
    });
    expect(entry.statut).toBe('liste-attente');
    expect(entry.date?.getTime()).toBe(1_780_000_000_000);
    expect(entry.dateSuppression?.getTime()).toBe(1_800_000_000_000);
  });

  it('reads an unknown status or a broken date as none', () => {
    expect(readPreRegistration('x', { statut: 'perdue', date: 'hier', notes: { a: 1 } })).toMatchObject({
      statut: 'nouvelle',
      date: undefined,
      notes: '',
    });
  });
});
