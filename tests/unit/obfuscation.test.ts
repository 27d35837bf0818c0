import { describe, expect, it } from 'vitest';
import { parseContactLines, revealAt } from '../../src/lib/obfuscation';

describe("'[at]' display (spec §9)", () => {
  it('shows [at] as @, whatever the case or spacing', () => {
    expect(revealAt('contact[at]petitspas.fr')).toBe('contact@petitspas.fr');
    expect(revealAt('a [AT] b.fr et c[ at ]d.fr')).toBe('a@b.fr et c@d.fr');
    expect(revealAt('rien à changer')).toBe('rien à changer');
  });

  it('parses phones into tel: links and emails into mailto: links', () => {
    expect(
      parseContactLines(
        'Secrétariat : 04 78 12 34 56\nContact : contact[at]petitspas-ensemble.fr\n\nPortail vert, au fond de la cour\n+33 4 78 00 00 00',
      ),
    ).toEqual([
      { label: 'Secrétariat', value: '04 78 12 34 56', href: 'tel:0478123456', kind: 'phone' },
      {
        label: 'Contact',
        value: 'contact@petitspas-ensemble.fr',
        href: 'mailto:contact@petitspas-ensemble.fr',
        kind: 'email',
      },
      { label: '', value: 'Portail vert, au fond de la cour', href: undefined, kind: 'text' },
      { label: '', value: '+33 4 78 00 00 00', href: 'tel:+33478000000', kind: 'phone' },
    ]);
  });
});
