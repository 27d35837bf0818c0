import { describe, expect, it } from 'vitest';
import { applyAnchor, visibleLinks } from '../../src/lib/links';

describe('visibleLinks', () => {
  const links = [
    { titre: 'Contact', href: '/contact', ordre: 50 },
    { titre: 'Boutique', href: '/boutique', ordre: 5, statut: false, children: [{ titre: 'Tee-shirts', href: '/t' }] },
    {
      titre: 'L’école',
      href: '/ecole',
      ordre: 20,
      children: [
        { titre: 'Suivi', href: '/ecole/schema', ordre: 3 },
        { titre: 'Cantine', href: '/cantine', ordre: 1, statut: false },
        { titre: 'Pré-inscription', href: '/ecole', ancre: 'preinscription', ordre: 2 },
      ],
    },
    { titre: 'Sans ordre', href: '/x' },
    { titre: 'Accueil', href: '/', ordre: 10, statut: true },
    {
      titre: 'Don',
      href: '/soutenir',
      ordre: 40,
      exergue: true,
      target: '_blank',
      picto: { src: '/c.svg', alt: 'Cœur' },
    },
  ];

  it('hides statut false links, and their children with them', () => {
    const titles = visibleLinks(links).map((link) => link.titre);
    expect(titles).not.toContain('Boutique');
    expect(JSON.stringify(visibleLinks(links))).not.toContain('Tee-shirts');
  });

  it('sorts by ordre ascending, links without ordre last', () => {
    expect(visibleLinks(links).map((link) => link.titre)).toEqual([
      'Accueil',
      'L’école',
      'Don',
      'Contact',
      'Sans ordre',
    ]);
  });

  it('filters and sorts children the same way and applies anchors', () => {
    const school = visibleLinks(links).find((link) => link.titre === 'L’école');
    expect(school?.children.map((child) => [child.titre, child.href])).toEqual([
      ['Pré-inscription', '/ecole#preinscription'],
      ['Suivi', '/ecole/schema'],
    ]);
  });

  it('keeps target, exergue and picto', () => {
    const don = visibleLinks(links).find((link) => link.titre === 'Don');
    expect(don).toMatchObject({ newTab: true, exergue: true, picto: { src: '/c.svg', alt: 'Cœur' } });
    expect(visibleLinks(links).find((link) => link.titre === 'Contact')).toMatchObject({
      newTab: false,
      exergue: false,
    });
  });
});

describe('applyAnchor', () => {
  it('appends or replaces the fragment', () => {
    expect(applyAnchor('/ecole', 'preinscription')).toBe('/ecole#preinscription');
    expect(applyAnchor('/ecole#old', '#new')).toBe('/ecole#new');
    expect(applyAnchor(undefined, 'haut')).toBe('#haut');
    expect(applyAnchor('/asso', undefined)).toBe('/asso');
  });
});
