/**
 * The glossary's acronyms explained in editors' HTML (explainTerms): the first use of each in a text, never inside a
 * tag, an attribute or an <abbr> the editor wrote, never part of a longer word.
 */
import { describe, expect, it } from 'vitest';
import { explainTerms } from '../../src/features/falc/glossary';

const MDPH = '<abbr title="maison départementale des personnes handicapées : ';

describe('explainTerms', () => {
  it('wraps the first use of an acronym only, and leaves the rest of the HTML as it was', () => {
    const html = '<p>Le dossier MDPH.</p><p><a href="/mdph?x=MDPH" title="MDPH">La MDPH</a> répond.</p>';
    const out = explainTerms(html);
    expect(out.startsWith(`<p>Le dossier ${MDPH}`)).toBe(true);
    expect(out.split('<abbr').length - 1).toBe(1);
    expect(out.replace(/<abbr title="[^"]*">(MDPH)<\/abbr>/, '$1')).toBe(html);
  });

  it('never searches the explanations it inserts (AEEH’s says « La CAF paie »)', () => {
    const out = explainTerms('<p>L’AEEH, puis la CAF.</p>');
    expect(out.match(/<abbr /g)).toHaveLength(2);
    expect(out).toMatch(/<abbr title="allocation d’éducation de l’enfant handicapé : [^"]*La CAF paie\.">AEEH<\/abbr>/);
    expect(out).toMatch(/, puis la <abbr title="caisse d’allocations familiales : [^"]*">CAF<\/abbr>\.<\/p>$/);
  });

  it('leaves an acronym the editor explained, and words that only contain one', () => {
    const html = '<p><abbr title="Maison départementale">MDPH</abbr>, CAFÉ, PPSX et AESHs.</p>';
    expect(explainTerms(html)).toBe(html);
  });
});
