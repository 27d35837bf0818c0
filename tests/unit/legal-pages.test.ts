/**
 * The legal pages the site writes when editors wrote none: what they lack is said in French, and what the privacy
 * notice says is kept follows the constants the retention job applies.
 */
import { describe, expect, it } from 'vitest';
import { RETENTION_MONTHS } from '../../src/features/admissions/admissions';
import { generatedLegalPage, personalData } from '../../src/features/content/legal/generated-pages';
import { DEFAULT_HOST, legalFacts, legalGaps } from '../../src/features/content/legal/legal-facts';

const adresse = {
  titre: 'Les Amis de l’école',
  intro: '<p>3 rue des Écoles<br>69001 Lyon</p>',
  contenu: '<p>Contact : bonjour[at]amis.fr</p>',
};

describe('the generated legal pages', () => {
  it('say what the law still asks for, page by page, and nothing when all is there', () => {
    const none = legalFacts(undefined, undefined);
    expect(none.host).toBe(DEFAULT_HOST);
    expect(legalGaps('mentions', none)).toEqual([
      expect.stringMatching(/^le nom et l’adresse de l’association, que la loi exige \(LCEN, article 6\)/),
      expect.stringMatching(/^un téléphone ou un email pour joindre l’association/),
      expect.stringMatching(/^le nom du directeur ou de la directrice de la publication/),
    ]);
    expect(legalGaps('rgpd', none)).toEqual([expect.stringMatching(/^un email où chacun peut exercer ses droits/)]);
    expect(legalGaps('accessibilite', none)).toHaveLength(1);
    const complete = legalFacts(adresse, { directeurPublication: 'Marie Dupont, présidente' }, 'Hébergeur, Paris');
    for (const page of ['mentions', 'rgpd', 'accessibilite'] as const) expect(legalGaps(page, complete)).toEqual([]);
    expect(complete.host).toBe('Hébergeur, Paris');
  });

  it('escape what editors typed and name the set host', () => {
    const facts = legalFacts({ ...adresse, titre: 'A <script>x</script>' }, { directeurPublication: 'B & C' }, 'H');
    const { contenu } = generatedLegalPage('mentions', facts);
    expect(contenu).toContain('A &lt;script&gt;x&lt;/script&gt;');
    expect(contenu).toContain('<p>B &amp; C</p>');
    expect(contenu).toContain('Le site est hébergé par H.');
  });

  it('keep pre-registrations as long as the retention job does', () => {
    const preRegistration = personalData().find((data) => data.form === 'Préinscription')!;
    expect(preRegistration.kept).toMatch(new RegExp(`^${RETENTION_MONTHS} mois après notre décision`));
  });
});
