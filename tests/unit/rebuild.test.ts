/**
 * The rebuild secret check: equal strings only, compared in constant time on SHA-256 digests (length does not leak).
 */
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { isSecret } from '../../src/features/content/publishing/rebuild.server';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const SECRET = 'clé-très-secrète-assez-longue';

describe('isSecret', () => {
  it.each([
    [SECRET, true],
    ['', false],
    [SECRET.toUpperCase(), false],
    [SECRET.slice(0, -1), false],
    [`${SECRET}x`, false],
    [`${SECRET.slice(0, -1)}X`, false],
    ['cle-tres-secrete-assez-longue', false],
  ])('%j → %s', (given, expected) => {
    expect(isSecret(given, SECRET)).toBe(expected);
  });

  it.each(['', 'a', 'x'.repeat(5000)])('compares two 32-byte digests with timingSafeEqual (given %j)', (given) => {
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    isSecret(given, SECRET);
    expect(compare).toHaveBeenCalledExactlyOnceWith(
      crypto.createHash('sha256').update(given).digest(),
      crypto.createHash('sha256').update(SECRET).digest(),
    );
  });
});
