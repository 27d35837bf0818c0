/**
 * The secret check of POST /api/rebuild (issue 5): `Authorization: Bearer
 * <REBUILD_SECRET>`, compared in constant time on SHA-256 digests so that
 * neither the content nor the length of the secret leaks through timing.
 */
import * as crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isAuthorized } from '../../src/lib/rebuild.server';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return {
    ...original,
    timingSafeEqual: vi.fn(original.timingSafeEqual),
  };
});

const SECRET = 'un-secret-de-test-assez-long';

describe('isAuthorized', () => {
  // A block body: a function returned by beforeEach would be called as a teardown.
  beforeEach(() => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
  });

  it.each([
    [`Bearer ${SECRET}`, true],
    [`bearer ${SECRET}`, true],
    [`BEARER   ${SECRET}  `, true],
    [null, false],
    ['', false],
    ['Bearer', false],
    ['Bearer ', false],
    [SECRET, false],
    [`Basic ${SECRET}`, false],
    [`Bearer ${SECRET.toUpperCase()}`, false],
    [`Bearer ${SECRET.slice(0, -1)}`, false],
    [`Bearer ${SECRET}x`, false],
    [`Bearer ${SECRET.slice(0, -1)}X`, false],
    [`Bearer x${SECRET}`, false],
  ])('%j → %s', (header, expected) => {
    expect(isAuthorized(header, SECRET)).toBe(expected);
  });

  it('works for any secret, including non-ASCII ones', () => {
    expect(isAuthorized('Bearer clé-très-secrète', 'clé-très-secrète')).toBe(true);
    expect(isAuthorized('Bearer cle-tres-secrete', 'clé-très-secrète')).toBe(false);
  });

  it.each([null, 'Bearer a', `Bearer ${SECRET}`, `Bearer ${'x'.repeat(5000)}`])(
    'always compares two 32-byte SHA-256 digests with timingSafeEqual (header %j)',
    (header) => {
      isAuthorized(header, SECRET);
      const compare = vi.mocked(crypto.timingSafeEqual);
      expect(compare).toHaveBeenCalledTimes(1);
      const [given, expected] = compare.mock.calls[0] as [Buffer, Buffer];
      expect(given.byteLength).toBe(32);
      expect(expected).toEqual(crypto.createHash('sha256').update(SECRET).digest());
    },
  );
});
