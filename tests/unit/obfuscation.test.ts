import { describe, expect, it } from 'vitest';
import { linkContacts, parseContactLines, revealAt } from '../../src/lib/obfuscation';
import { htmlToLines } from '../../src/lib/html.server';

const text = (value: string) => ({ text: value, href: undefined, kind: 'text' });
const phone = (value: string, href: string) => ({ text: value, href, kind: 'phone' });
const email = (value: string) => ({ text: value, href: `mailto:${value}`, kind: 'email' });

describe("'[at]' display (spec §9)", () => {
  it('shows [at] as @, whatever the case or spacing', () => {
    expect(revealAt('contact[at]petitspas.fr')).toBe('contact@petitspas.fr');
    expect(revealAt('a [AT] b.fr et c[ at ]d.fr')).toBe('a@b.fr et c@d.fr');
    expect(revealAt('rien à changer')).toBe('rien à changer');
  });

  it('parses phones into tel: links and emails into mailto: links', () => {
    expect(
      parseContactLines(
        'Secrétariat : 04 78 12 34 56\nContact : contact[at]petitspas-ensemble.fr\n\nPortail vert, au fond de la ' +
          'cour\n+33 4 78 00 00 00',
      ),
    ).toEqual([
      { label: 'Secrétariat', parts: [phone('04 78 12 34 56', 'tel:0478123456')] },
      { label: 'Contact', parts: [email('contact@petitspas-ensemble.fr')] },
      { label: '', parts: [text('Portail vert, au fond de la cour')] },
      { label: '', parts: [phone('+33 4 78 00 00 00', 'tel:+33478000000')] },
    ]);
  });

  it('links every phone and email inside a line, and leaves other numbers alone', () => {
    expect(linkContacts('Inscriptions : a@b.fr ou 04.78.12.34.57 (+33 (0)6 12 34 56 78)')).toEqual([
      text('Inscriptions : '),
      email('a@b.fr'),
      text(' ou '),
      phone('04.78.12.34.57', 'tel:0478123457'),
      text(' ('),
      phone('+33 (0)6 12 34 56 78', 'tel:+33612345678'),
      text(')'),
    ]);
    expect(linkContacts('12 rue des Tilleuls, 69007 Lyon')).toEqual([text('12 rue des Tilleuls, 69007 Lyon')]);
    for (const line of ['IBAN : FR76 3000 6000 0112 3456 7890 189', 'SIRET : 123 456 789 00012', 'Depuis 2019'])
      expect(linkContacts(line)).toEqual([text(line)]);
    expect(linkContacts('London: +44 20 7946 0958')).toEqual([
      text('London: '),
      phone('+44 20 7946 0958', 'tel:+442079460958'),
    ]);
  });
});

describe('address lines from HTML', () => {
  it('keeps each line whether separated by newlines, <br>, <p> or <li>', () => {
    const html =
      '<p>École des Petits Pas</p><p>12 rue des Tilleuls<br>69007&nbsp;Lyon</p><ul><li>Tél : 04 78 12 34 ' +
      '56</li><li>a[at]b.fr</li></ul>Fin\nDernière';
    expect(parseContactLines(htmlToLines(html))).toEqual([
      { label: '', parts: [text('École des Petits Pas')] },
      { label: '', parts: [text('12 rue des Tilleuls')] },
      { label: '', parts: [text('69007 Lyon')] },
      { label: 'Tél', parts: [phone('04 78 12 34 56', 'tel:0478123456')] },
      { label: '', parts: [email('a@b.fr')] },
      { label: '', parts: [text('Fin')] },
      { label: '', parts: [text('Dernière')] },
    ]);
  });
});
