/** What restoring an article's older version would change, field by field, in an editor's words. */
import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../../src/features/content/articles/articles.server';
import { restoreChanges, textSummary } from '../../src/features/content/articles/restore-diff';

const stored = {
  titre: 'Fête de l’école',
  slug: 'fete',
  cat: 'actualites',
  date: Date.UTC(2026, 5, 1, 12) / 1000,
  intro: '<p>Venez <strong>nombreux</strong> !</p>',
  contenu: '<h3>Programme</h3><p>Jeux &amp; goûter.</p>',
};

describe('restoreChanges', () => {
  it('lists only what differs: title, date in French, draft mark, text summaries', () => {
    const now = fieldsOf({ ...stored, titre: 'Fête de l’école 2026', date: Date.UTC(2026, 5, 2, 12) / 1000 }, 3);
    const older = { ...stored, brouillon: true, intro: '<p>Bientôt.</p>' };
    expect(restoreChanges(now, older)).toEqual([
      { label: 'Titre', now: '« Fête de l’école 2026 »', then: '« Fête de l’école »' },
      { label: 'Date de publication', now: '2 juin 2026', then: '1er juin 2026' },
      { label: 'Brouillon', now: 'non', then: 'oui' },
      { label: 'Introduction', now: '« Venez nombreux ! » (3 mots)', then: '« Bientôt. » (1 mot)' },
    ]);
  });

  it('says nothing for the same version, and a change past the summary still shows', () => {
    expect(restoreChanges(fieldsOf(stored, 1), stored)).toEqual([]);
    const long = `<p>${'mot '.repeat(30)}fin</p>`;
    const changed = restoreChanges(fieldsOf({ ...stored, contenu: long }, 1), {
      ...stored,
      contenu: long.replace('fin', 'but'),
    });
    expect(changed).toEqual([
      {
        label: 'Texte complet',
        now: expect.any(String),
        then: expect.stringMatching(/\(31 mots\), modifié plus loin$/),
      },
    ]);
  });
});

describe('textSummary', () => {
  it('reads HTML as words, with entities, cut at a word, and « vide » for none', () => {
    expect(textSummary('<h3>Programme</h3><p>Jeux &amp; goûter.</p>')).toBe('« Programme Jeux & goûter. » (4 mots)');
    expect(textSummary('<p> </p>')).toBe('vide');
    expect(textSummary(`<p>${'abc '.repeat(40)}</p>`, 10)).toBe('« abc abc… » (40 mots)');
  });
});
