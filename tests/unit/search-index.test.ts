import { describe, expect, it } from 'vitest';
import { pageSourcePath, splitElisions } from '../../scripts/lib/search-index';
import { countMessage, joinElisions } from '../../src/features/content/news/site-search';

describe('French elisions in the search index', () => {
  it('splits the elided article from its word, with either apostrophe', () => {
    expect(splitElisions('<p>Venez découvrir l’école d’hiver, qu’il fasse beau ou jusqu’au soir.</p>')).toBe(
      '<p>Venez découvrir l’ école d’ hiver, qu’ il fasse beau ou jusqu’ au soir.</p>',
    );
    expect(splitElisions("L'inscription s'ouvre")).toBe("L' inscription s' ouvre");
  });

  it('leaves other apostrophes alone (aujourd’hui, a closing quote, attributes)', () => {
    expect(splitElisions('aujourd’hui')).toBe('aujourd’hui');
    expect(splitElisions('« c’est ’ »')).toBe('« c’ est ’ »');
    expect(splitElisions('<a href="/asso">Voir</a>')).toBe('<a href="/asso">Voir</a>');
  });

  it('shows the text as written again (titles and excerpts, marks included)', () => {
    expect(joinElisions('L’ école et l’ <mark>école</mark>')).toBe('L’école et l’<mark>école</mark>');
    expect(joinElisions(splitElisions('La fête d’hiver, qu’il pleuve'))).toBe('La fête d’hiver, qu’il pleuve');
  });
});

describe('countMessage', () => {
  it('says the count in French, singular and plural, and what to do when nothing matches', () => {
    expect(countMessage(1, 'crêpes')).toBe('1 résultat pour « crêpes ».');
    expect(countMessage(12, 'école')).toBe('12 résultats pour « école ».');
    expect(countMessage(0, 'zzz')).toBe('Aucun résultat pour « zzz ». Essayez un autre mot, ou un mot plus court.');
  });
});

describe('pageSourcePath', () => {
  it('names the file Astro writes for a page (directory format), as Pagefind read it from dist/', () => {
    expect(pageSourcePath('/')).toBe('index.html');
    expect(pageSourcePath('/asso/')).toBe('asso/index.html');
    expect(pageSourcePath('/actualites/rentree-2026')).toBe('actualites/rentree-2026/index.html');
    expect(pageSourcePath('/404')).toBe('404.html');
    expect(pageSourcePath('/facile/l%C3%A9cole/')).toBe('facile/lécole/index.html');
  });
});
