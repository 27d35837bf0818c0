/**
 * The glossary's words explained in editors' HTML (explainTerms): the first use of each acronym in a text linked to
 * its entry on /facile inside an <abbr> that spells it out (in a FALC article, every glossary word, linked to the
 * page's own list); never inside a tag, an attribute or an <abbr> the editor wrote, never part of a longer word, never
 * a link inside a link.
 */
import { describe, expect, it } from 'vitest';
import { entryId, explainTerms, termsIn } from '../../src/features/content/falc/glossary';

const MDPH = '<a class="term" href="/facile#mot-mdph"><abbr title="maison départementale des personnes handicapées : ';

describe('explainTerms', () => {
  it('links the first use of an acronym only, and leaves the rest of the HTML as it was', () => {
    const html = '<p>Le dossier MDPH.</p><p>La MDPH répond.</p>';
    const out = explainTerms(html);
    expect(out.startsWith(`<p>Le dossier ${MDPH}`)).toBe(true);
    expect(out.split('<abbr').length - 1).toBe(1);
    expect(out.replace(/<a class="term" href="[^"]*"><abbr title="[^"]*">(MDPH)<\/abbr><\/a>/, '$1')).toBe(html);
  });

  it('never searches the explanations it inserts (AEEH’s says « La CAF paie »)', () => {
    const out = explainTerms('<p>L’AEEH, puis la CAF.</p>');
    expect(out.match(/<abbr /g)).toHaveLength(2);
    expect(out).toMatch(/<abbr title="allocation d’éducation de l’enfant handicapé : [^"]*La CAF paie\.">AEEH</);
    expect(out).toMatch(
      /, puis la <a class="term" href="\/facile#mot-caf"><abbr title="caisse d’allocations [^"]*">CAF</,
    );
    expect(out).toMatch(/>CAF<\/abbr><\/a>\.<\/p>$/);
  });

  it('inside the editor’s link, an acronym gets its <abbr> but no link of its own', () => {
    const out = explainTerms('<p><a href="/mdph?x=MDPH" title="MDPH">La MDPH</a> répond.</p>');
    expect(out).toMatch(/^<p><a href="\/mdph\?x=MDPH" title="MDPH">La <abbr title="maison [^"]*">MDPH<\/abbr><\/a>/);
    expect(out.match(/<a /g)).toHaveLength(1);
  });

  it('leaves an acronym the editor explained, and words that only contain one', () => {
    const html = '<p><abbr title="Maison départementale">MDPH</abbr>, CAFÉ, PPSX et AESHs.</p>';
    expect(explainTerms(html)).toBe(html);
  });

  it('in a FALC article, links every glossary word to the page’s own list, whatever its first letter’s case', () => {
    const out = explainTerms('<p>Quotient familial et AESH. Le quotient familial.</p>', {
      every: true,
      href: (entry) => `#${entryId(entry)}`,
    });
    expect(out).toBe(
      '<p><a class="term" href="#mot-quotient-familial">Quotient familial</a> et <a class="term" href="#mot-aesh">' +
        '<abbr title="accompagnant d’élève en situation de handicap : Un adulte qui aide un enfant handicapé en ' +
        'classe. Il l’aide à écrire, à bouger ou à comprendre.">AESH</abbr></a>. Le quotient familial.</p>',
    );
  });
});

describe('termsIn', () => {
  it('finds the words a text uses, as explainTerms links them', () => {
    expect(termsIn('Réduction d’impôt, PPS, mais pas CAFÉ.').map(({ id }) => id)).toEqual(['pps', 'reduction-impot']);
  });
});
