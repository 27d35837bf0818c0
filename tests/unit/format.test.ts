import { describe, expect, it } from 'vitest';
import { countryOptions } from '../../src/features/forms/countries';
import { isCountryCodeLike } from '../../src/lib/field-schemas';
import { formatDate, isoDate } from '../../src/lib/dates';
import { parseHostPort, firestoreTargetFromEnv } from '../../src/lib/firestore.server';

describe('French dates', () => {
  it('formats seconds as a French date in Paris time', () => {
    expect(formatDate(Date.UTC(2026, 9, 3, 9) / 1000)).toBe('3 octobre 2026');
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(formatDate(Date.UTC(2025, 11, 31, 23, 30) / 1000)).toBe('1er janvier 2026');
    expect(formatDate(Date.UTC(2026, 8, 11, 12) / 1000)).toBe('11 septembre 2026');
    expect(isoDate(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('country list', () => {
  it('puts France first, then the others in French order, with ISO codes', () => {
    const list = countryOptions();
    expect(list[0]).toEqual({ code: 'FR', name: 'France' });
    expect(list.length).toBeGreaterThan(240);
    expect(list.find((country) => country.code === 'DE')?.name).toBe('Allemagne');
    const names = list.slice(1).map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('fr').compare));
    expect(isCountryCodeLike('BE')).toBe(true);
    expect(isCountryCodeLike('XX')).toBe(false);
  });
});

describe('Firestore configuration from the environment', () => {
  it('uses the emulator named by FIRESTORE_EMULATOR_HOST', () => {
    expect(
      firestoreTargetFromEnv({ FIREBASE_PROJECT_ID: 'demo-x', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' }),
    ).toEqual({
      projectId: 'demo-x',
      apiKey: 'emulator',
      emulator: { host: '127.0.0.1', port: 8080 },
      host: '127.0.0.1:8080',
    });
    expect(parseHostPort('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
  });

  it('explains what is missing', () => {
    expect(() => firestoreTargetFromEnv({})).toThrow(/FIREBASE_PROJECT_ID is not set/);
    expect(() => firestoreTargetFromEnv({ FIREBASE_PROJECT_ID: 'asso' })).toThrow(/FIREBASE_API_KEY is not set/);
    expect(() => parseHostPort('localhost')).toThrow(/host:port/);
    expect(firestoreTargetFromEnv({ FIREBASE_PROJECT_ID: 'asso', FIREBASE_API_KEY: 'k' }).host).toBe(
      'firestore.googleapis.com',
    );
  });
});
