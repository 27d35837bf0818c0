/**
 * The « Facile à lire » pages of the built site (dist/facile/*): written to Inclusion Europe's rules as a build
 * checks them: short sentences (at most 15 words, 10 on average) and a French readability index (Kandel–Moles) of
 * at least 70; each parent journey's page links to its version; the glossary's words are explained.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { kandelMoles, sentences, syllables, words } from '../../src/features/content/falc/readability';

const dist = join(import.meta.dirname, '../../dist');
const page = (path: string) => new JSDOM(readFileSync(join(dist, path, 'index.html'), 'utf8')).window.document;

/** The FALC text of a built page: its heading, introduction and text, one block a line (the glossary left aside). */
function falcText(document: Document): string {
  const blocks = document.querySelectorAll('.falc h1, .falc .prose :is(p, li, h2, h3)');
  return [...blocks].map((block) => block.textContent?.trim() ?? '').join('\n');
}

describe('readability measures', () => {
  it('counts French syllables, words and sentences', () => {
    // Spoken syllables: the final « e » is silent.
    expect(syllables('école')).toBe(2);
    expect(syllables('classe')).toBe(1);
    expect(syllables('enfant')).toBe(2);
    expect(words('L’école est à Lyon.')).toEqual(['L’école', 'est', 'à', 'Lyon']);
    expect(sentences('Une idée. Une autre !\nUn titre')).toEqual(['Une idée.', 'Une autre !', 'Un titre']);
    // A plain sentence scores high, an administrative one low.
    expect(kandelMoles('Notre école est à Lyon. Elle accueille tous les enfants.')).toBeGreaterThan(70);
    expect(
      kandelMoles(
        'La reconnaissance administrative des besoins particuliers conditionne l’attribution prioritaire ' +
          'd’accompagnements individualisés relevant de la commission départementale compétente.',
      ),
    ).toBeLessThan(30);
  });
});

describe('« Facile à lire » pages', () => {
  // The FALC articles' pages (/facile/<slug>/index.html), /facile's own index.html aside.
  const pages = existsSync(join(dist, 'facile'))
    ? readdirSync(join(dist, 'facile'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
    : [];

  it('the demo ships one for each parent journey, linked from its page', () => {
    expect(pages.sort()).toEqual(['facile-don', 'facile-ecole', 'facile-preinscription']);
    const links = (path: string) =>
      [...page(path).querySelectorAll('.falc-link a')].map((link) => [link.getAttribute('href'), link.textContent]);
    expect(links('ecole')).toEqual([
      ['/facile/facile-ecole', expect.stringMatching(/Facile à lire\s*: l’école et l’admission/)],
      ['/facile/facile-preinscription', expect.stringMatching(/Facile à lire\s*: la pré-inscription/)],
    ]);
    expect(links('soutenir')).toEqual([
      ['/facile/facile-don', expect.stringMatching(/Facile à lire\s*: faire un don/)],
    ]);
  });

  for (const slug of ['facile-ecole', 'facile-preinscription', 'facile-don']) {
    it(`${slug}: short sentences, readability index ≥ 70, its difficult words explained`, () => {
      const document = page(`facile/${slug}`);
      const text = falcText(document);
      const lengths = sentences(text).map((sentence) => [sentence, words(sentence).length] as const);
      expect(lengths.filter(([, length]) => length > 15)).toEqual([]);
      const average = lengths.reduce((sum, [, length]) => sum + length, 0) / lengths.length;
      expect(average).toBeLessThanOrEqual(10);
      expect(kandelMoles(text)).toBeGreaterThanOrEqual(70);
      // Every glossary word the text uses is defined below it.
      for (const term of ['AESH', 'MDPH', 'PPS', 'quotient familial', 'réduction d’impôt']) {
        if (!text.includes(term)) continue;
        expect([...document.querySelectorAll('dfn')].map((dfn) => dfn.textContent)).toContain(term);
      }
    });
  }

  it('the donation and thank-you pages explain AESH where they say it (abbr)', () => {
    for (const path of ['soutenir', 'soutenir/valide']) {
      const abbr = page(path).querySelector('main abbr');
      expect(abbr?.textContent, path).toBe('AESH');
      expect(abbr?.getAttribute('title'), path).toMatch(/^accompagnant d’élève en situation de handicap : /);
    }
  });

  it('the school’s and the news’ articles explain each acronym of the glossary at its first use', () => {
    const explained = (path: string) =>
      [...page(path).querySelectorAll('main abbr')].map((abbr) => [abbr.textContent, abbr.getAttribute('title')]);
    expect(explained('ecole')).toEqual(
      expect.arrayContaining([
        ['AESH', expect.stringMatching(/^accompagnant d’élève en situation de handicap : Un adulte qui aide/)],
        ['MDPH', expect.stringMatching(/^maison départementale des personnes handicapées : /)],
        ['CAF', 'caisse d’allocations familiales : Le service public qui verse des aides aux familles.'],
      ]),
    );
    // The intro and the text each explain their first MDPH.
    const news = explained('actualites/atelier-parents-mdph').map(([term]) => term);
    expect(news.toSorted()).toEqual(['AEEH', 'AESH', 'MDPH', 'MDPH', 'PPS']);
  });
});
