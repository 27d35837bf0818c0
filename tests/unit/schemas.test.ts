import { describe, expect, it } from 'vitest';
import { firestoreSchemas, type CollectionName } from '../../src/content.config';
import { formatIssues, normalizeFirestoreValue } from '../../scripts/lib/normalize';
import { readSeedDirectory, reviveSeedValue, DEMO_DIR } from '../../scripts/lib/seed';

/** Validates one document the way the pull does; returns the problem lines. */
function problems(name: CollectionName, id: string, data: unknown): string[] {
  const raw = normalizeFirestoreValue(reviveSeedValue(data));
  const parsed = firestoreSchemas[name].safeParse(raw);
  return parsed.success ? [] : formatIssues(name, id, raw, parsed.error);
}

describe('content schemas', () => {
  it('accept every document of the demo dataset', async () => {
    const demo = await readSeedDirectory(DEMO_DIR);
    expect(Object.keys(demo).sort()).toEqual(['articles', 'categories', 'menus', 'partenaires']);
    for (const [name, documents] of Object.entries(demo)) {
      for (const [id, data] of Object.entries(documents)) {
        expect(problems(name as CollectionName, id, data), `${name}/${id}`).toEqual([]);
      }
    }
  });

  it('the demo dataset exercises what the spec describes', async () => {
    const demo = await readSeedDirectory(DEMO_DIR);
    const menus = demo.menus as Record<
      string,
      { liens: { statut?: boolean; ordre?: number; children?: { statut?: boolean }[] }[] }
    >;
    const allLinks = Object.values(menus).flatMap((menu) => menu.liens);
    expect(allLinks.some((link) => link.statut === false)).toBe(true);
    expect(allLinks.some((link) => link.children?.some((child) => child.statut === false))).toBe(true);
    const orders = (menus.principal?.liens ?? []).map((link) => link.ordre ?? 0);
    expect(orders).not.toEqual([...orders].sort((a, b) => a - b));
    expect(Object.keys(demo.partenaires ?? {}).length).toBeGreaterThanOrEqual(10);
    expect(JSON.stringify(demo.articles)).toContain('[at]');
    expect(JSON.stringify(demo.articles)).toContain('$timestamp');
  });

  it('reject a wrong type with collection, id, field path and what was found', () => {
    expect(problems('articles', 'asso-2', { titre: 'Bonjour', img: { src: 12, alt: 'x' } })).toEqual([
      'articles/asso-2: field img.src — expected string, received number (got number 12)',
    ]);
  });

  it('reject a missing title and a bad link inside a list, with list indexes in the path', () => {
    expect(problems('articles', 'sans-titre', { cat: 'asso' })[0]).toMatch(
      /^articles\/sans-titre: field titre — .*\(got nothing\)$/,
    );
    const lines = problems('menus', 'principal', {
      liens: [
        { titre: 'Accueil', href: '/' },
        { titre: 'École', children: [{ titre: 'Projet', href: 42 }] },
      ],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^menus\/principal: field liens\.1\.children\.0\.href — /);
  });

  it('reject a date that is not whole seconds', () => {
    expect(problems('articles', 'a', { titre: 'A', date: 'hier' })[0]).toMatch(/field date — .*string "hier"/);
    expect(problems('articles', 'b', { titre: 'B', date: 1.5 })[0]).toMatch(/field date/);
  });
});

describe('normalizeFirestoreValue', () => {
  it('turns Timestamps into whole seconds, anywhere in the tree, and keeps numeric seconds', () => {
    const value = reviveSeedValue({
      date: { $timestamp: '2026-10-03T09:00:00Z' },
      nested: [{ when: { $timestamp: '1970-01-01T00:00:10.900Z' } }],
      seconds: 1_760_000_000,
      text: 'ok',
    });
    expect(normalizeFirestoreValue(value)).toEqual({
      date: Date.UTC(2026, 9, 3, 9) / 1000,
      nested: [{ when: 10 }],
      seconds: 1_760_000_000,
      text: 'ok',
    });
  });

  it('leaves plain values alone', () => {
    expect(normalizeFirestoreValue(null)).toBeNull();
    expect(normalizeFirestoreValue([1, 'a', true])).toEqual([1, 'a', true]);
  });
});
