/**
 * The structure forms' rules (src/features/content/structure/structure.ts): what the space writes is in the original admin's
 * shape and the pull publishes it whole, beside documents typed in the console; orders, links and partners.
 */
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../scripts/lib/validate';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';
import { LINK_REFUSED } from '../../src/lib/link-address';
import { readSeedDirectory } from '../../scripts/lib/seed';
import {
  linkFromForm,
  linkOrder,
  linkToForm,
  removeLink,
  reorderMenu,
  writeLink,
} from '../../src/features/content/structure/menu-links';
import {
  categoryOrder,
  dateInputToSeconds,
  htmlToTextLines,
  moveId,
  partnerFromForm,
  postedOrder,
  schemaErrors,
  secondsToDateInput,
  slugify,
  STRUCTURE_MESSAGES,
  type RawDocument,
} from '../../src/features/content/structure/structure';

const form = (fields: Record<string, string>) => new Map(Object.entries(fields));

/** The five spellings the menus' old check let through (a browser reads the first four as `javascript:`). */
const SMUGGLED = [
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u0001javascript:alert(1)',
  'javascript\t:alert(1)',
  '//evil.example',
];

describe('orders', () => {
  it('moves an id up or down, and leaves the list as it is at an end or for an unknown id', () => {
    expect(moveId(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveId(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveId(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
    expect(moveId(['a', 'b', 'c'], 'c', 1)).toEqual(['a', 'b', 'c']);
    expect(moveId(['a', 'b'], 'z', 1)).toEqual(['a', 'b']);
  });

  it('shows a category’s listed articles first, then the others; drops ids that no longer exist', () => {
    expect(categoryOrder(['c', 'gone', 'a', 'c'], ['a', 'b', 'c', 'd'])).toEqual(['c', 'a', 'b', 'd']);
    // The original admin's '' for an empty list.
    expect(categoryOrder('', ['b', 'a'])).toEqual(['b', 'a']);
  });

  it('accepts a posted order only with the same ids, each once', () => {
    expect(postedOrder(['b', 'a'], ['a', 'b'])).toEqual(['b', 'a']);
    expect(postedOrder(['a'], ['a', 'b'])).toBeUndefined();
    expect(postedOrder(['a', 'a'], ['a', 'b'])).toBeUndefined();
    expect(postedOrder(['a', 'x'], ['a', 'b'])).toBeUndefined();
  });
});

describe('menus', () => {
  const menu: RawDocument = {
    liens: [
      { titre: 'Contact', href: '/contact', statut: true, ordre: '3' },
      { titre: 'Accueil', href: '/', statut: 'true', ordre: '1' },
      {
        titre: 'L’école',
        href: '/ecole',
        statut: true,
        ordre: 2,
        children: [
          { titre: 'Projet', href: '/ecole', ancre: 'projet', statut: true, ordre: '2' },
          { titre: 'Cantine', href: '/ecole', ancre: 'cantine', statut: 'false', ordre: '1' },
        ],
      },
    ],
  };

  it('lists links in the site’s order (ordre as text or number) and rewrites ordre "1", "2"… on a new order', () => {
    expect(linkOrder(menu.liens as RawDocument[])).toEqual([1, 2, 0]);
    const reordered = reorderMenu(menu, undefined, [2, 1, 0])!;
    expect((reordered.liens as RawDocument[]).map((link) => [link.titre, link.ordre])).toEqual([
      ['L’école', '1'],
      ['Accueil', '2'],
      ['Contact', '3'],
    ]);
    const children = reorderMenu(menu, 2, [0, 1])!;
    expect(((children.liens as RawDocument[])[2]!.children as RawDocument[]).map((link) => link.ordre)).toEqual([
      '1',
      '2',
    ]);
    // A list that changed meanwhile (a link more or less) is not reordered.
    expect(reorderMenu(menu, undefined, [0, 1])).toBeUndefined();
  });

  it('reads the console’s shapes into the form and writes the original shape back', () => {
    const stored = { titre: '', href: 'https://fb.example', target: '_blank', statut: 'false', exergue: 'true' };
    expect(linkToForm({ ...stored, picto: { src: '/f.svg', alt: 'Facebook' } })).toEqual({
      titre: '',
      href: 'https://fb.example',
      ancre: '',
      nouvelOnglet: true,
      visible: false,
      exergue: true,
      picto: '/f.svg',
      pictoAlt: 'Facebook',
    });
    const { fields } = linkFromForm(form({ titre: ' Dons ', href: '/soutenir', ancre: '#don', visible: 'oui' }));
    expect(fields).toEqual({
      titre: 'Dons',
      href: '/soutenir',
      target: '',
      ancre: 'don',
      statut: true,
      exergue: false,
      picto: { src: '', alt: '' },
    });
  });

  it('adds a link last and a sub-link under its parent, edits in place, removes a link with its sub-links', () => {
    const { fields } = linkFromForm(form({ titre: 'Boutique', href: '/boutique', visible: 'oui' }));
    const added = writeLink(menu, { parent: undefined }, fields)!;
    expect((added.liens as RawDocument[])[3]).toMatchObject({ titre: 'Boutique', ordre: '4', children: [] });
    const child = writeLink(menu, { parent: 2 }, fields)!;
    expect(((child.liens as RawDocument[])[2]!.children as RawDocument[])[2]).toMatchObject({ ordre: '3' });
    const edited = writeLink(menu, { place: { index: 2, child: 1 } }, fields)!;
    expect(((edited.liens as RawDocument[])[2]!.children as RawDocument[])[1]).toMatchObject({
      titre: 'Boutique',
      ordre: '1',
    });
    expect(writeLink(menu, { place: { index: 9 } }, fields)).toBeUndefined();
    expect((removeLink(menu, { index: 2 })!.liens as RawDocument[]).map((link) => link.titre)).toEqual([
      'Contact',
      'Accueil',
    ]);
    expect(removeLink(menu, { index: 2, child: 5 })).toBeUndefined();
  });

  it('refuses with the pull’s French words a link the site would leave out', () => {
    const bad = writeLink(
      menu,
      { parent: undefined },
      linkFromForm(form({ titre: 'Piège', href: 'javascript:alert(1)' })).fields,
    );
    expect(schemaErrors('menus', bad)).toEqual({ 'liens.3.href': `Son adresse (href) ${LINK_REFUSED}` });
    const nameless = writeLink(menu, { parent: undefined }, linkFromForm(form({ href: '/x', picto: '/p.svg' })).fields);
    expect(schemaErrors('menus', nameless)).toEqual({
      'liens.3.titre': 'Il n’a pas de titre et son pictogramme n’a pas de description (alt)',
    });
    for (const href of SMUGGLED) {
      const smuggled = writeLink(menu, { parent: undefined }, linkFromForm(form({ titre: 'Piège', href })).fields);
      expect(schemaErrors('menus', smuggled), JSON.stringify(href)).toEqual({
        'liens.3.href': `Son adresse (href) ${LINK_REFUSED}`,
      });
    }
    for (const src of ['//evil.example/suivi', '/\\evil.example', 'java\tscript:alert(1)']) {
      expect(schemaErrors('menus', { ...menu, schema: { src } }), src).toEqual({
        'schema.src': 'L’adresse du suivi des démarches ne commence ni par / ni par https://',
      });
    }
    const frame = { ...menu, schema: { src: 'http://insecure.example/' } };
    expect(schemaErrors('menus', frame)).toEqual({
      'schema.src': 'L’adresse du suivi des démarches ne commence ni par / ni par https://',
    });
  });
});

describe('partners', () => {
  it('derives the id from the name and writes the original shape: seconds, cat, img {src, alt}', () => {
    const {
      document,
      errors,
      form: shown,
    } = partnerFromForm(
      form({
        titre: 'Boulangerie Au Pain Doré',
        intro: 'Le goûter.',
        date: '2026-03-05',
        logo: '/l.svg',
        logoAlt: 'Logo',
      }),
      undefined,
    );
    expect(errors).toEqual({});
    expect(shown.id).toBe('boulangerie-au-pain-dore');
    expect(document).toEqual({
      slug: 'boulangerie-au-pain-dore',
      cat: 'partenaires',
      titre: 'Boulangerie Au Pain Doré',
      intro: 'Le goûter.',
      contenu: '',
      date: Date.UTC(2026, 2, 5) / 1000,
      img: { src: '/l.svg', alt: 'Logo' },
      imgContenu: { src: '' },
      picto: { src: '', alt: '' },
    });
  });

  it('keeps what the form does not show of a console document', () => {
    const stored = {
      titre: 'Mairie',
      contenu: '<p>Merci</p>',
      date: '1642237200',
      img: '',
      picto: { src: '/p.svg', alt: 'P' },
    };
    const { document, errors } = partnerFromForm(form({ titre: 'Mairie de Lyon', date: '2022-01-15' }), stored);
    expect(errors).toEqual({});
    expect(document).toMatchObject({
      titre: 'Mairie de Lyon',
      contenu: '<p>Merci</p>',
      picto: { src: '/p.svg', alt: 'P' },
    });
  });

  it('refuses in French: no name, a logo without its description, a bad date or identifier, a bad logo address', () => {
    const { errors } = partnerFromForm(
      form({ titre: ' ', id: 'Pas Bon', date: '2026-02-31', logo: 'ftp://x/logo.png' }),
      undefined,
    );
    expect(errors).toEqual({
      titre: 'Son titre est vide',
      id: STRUCTURE_MESSAGES.badSlug,
      date: STRUCTURE_MESSAGES.badDate,
      'img.alt': STRUCTURE_MESSAGES.altRequired,
      'img.src': 'L’adresse de son image (« ftp://x/logo.png ») ne commence ni par /, ni par https://, ni par gs://',
    });
  });

  it('refuses a script in the few words, as the articles do, and stores their HTML sanitised as the articles’', () => {
    const typed = '<p onclick="alert(1)">Le goûter</p>';
    const refused = partnerFromForm(form({ titre: 'Club', intro: typed }), undefined);
    expect(refused.errors).toEqual({ intro: ARTICLE_MESSAGES.script });
    expect(refused.form.intro).toBe(typed);
    expect(partnerFromForm(form({ titre: 'Club', intro: '<script>x()</script>' }), undefined).errors).toEqual({
      intro: ARTICLE_MESSAGES.script,
    });
    for (const href of SMUGGLED) {
      const smuggled = partnerFromForm(form({ titre: 'Club', intro: `<a href="${href}">site</a>` }), undefined);
      // The four `javascript:` spellings are code; an address on another host is a link refused.
      const message = href.startsWith('//') ? ARTICLE_MESSAGES.badLink(href) : ARTICLE_MESSAGES.script;
      expect(smuggled.errors, JSON.stringify(href)).toEqual({ intro: message });
    }
    expect(ARTICLE_MESSAGES.badLink('java\tscript:x')).toBe(
      'Le lien « java script:x » n’est pas accepté : écrivez une adresse https://…, mailto:…, tel:… ou /page du ' +
        'site, puis enregistrez à nouveau.',
    );
    const html = '<p style="color:red">Le <b>goûter</b></p><iframe src="https://pister.example/"></iframe>';
    const saved = partnerFromForm(form({ titre: 'Club', intro: html }), undefined);
    expect(saved.errors).toEqual({});
    expect(saved.document.intro).toBe('<p>Le <b>goûter</b></p>');
    // Plain text is kept as typed: « & » is not turned into « &amp; » in the form the editor opens again.
    expect(partnerFromForm(form({ titre: 'Club', intro: 'Durand & Fils' }), undefined).document.intro).toBe(
      'Durand & Fils',
    );
  });
});

describe('dates and texts', () => {
  it('converts a date input to seconds and back, in Paris', () => {
    expect(dateInputToSeconds('2022-01-15')).toBe(1642204800);
    expect(secondsToDateInput(1642237200)).toBe('2022-01-15');
    expect(dateInputToSeconds('15/01/2022')).toBeUndefined();
    expect(dateInputToSeconds('1969-12-31')).toBeUndefined();
  });

  it('slugifies titles and reads address lines from plain lines or HTML', () => {
    expect(slugify('  L’Œuvre de Noël — 2026 ! ')).toBe('l-oeuvre-de-noel-2026');
    expect(htmlToTextLines('<p>École<br>12 rue A</p><p>69007 Lyon</p>')).toBe('École\n12 rue A\n69007 Lyon');
    expect(htmlToTextLines('École\n\n 12 rue A ')).toBe('École\n12 rue A');
  });
});

describe('what the space saves and what the console holds both build', () => {
  it('publishes the space’s documents whole, and the original dataset’s documents as before', async () => {
    const original = await readSeedDirectory('content/original');
    const partner = partnerFromForm(
      form({ titre: 'Club', logo: 'gs://b/club.png', logoAlt: 'Logo du club' }),
      undefined,
    );
    const demo = await readSeedDirectory('content/demo');
    const menu = reorderMenu(demo.menus!.principal as RawDocument, undefined, [5, 4, 3, 2, 1, 0])!;
    const association = { objet: 'Gérer une école', enregistrement: 'RNA W1', signataire: '', horaires: 'Du lundi' };
    for (const [name, id, data] of [
      ['partenaires', 'club', partner.document],
      ['menus', 'principal', menu],
      [
        'categories',
        'partenaires',
        { ...(original.categories!.partenaires as RawDocument), articles: ['boulangerie', 'fondation'] },
      ],
      ['association', 'site', association],
    ] as const) {
      expect(validateDocument(name, id, data).problems, `${name}/${id}`).toEqual([]);
    }
    for (const [name, documents] of Object.entries(original)) {
      for (const [id, data] of Object.entries(documents)) {
        const problems = validateDocument(name as 'menus', id, data).problems.map((problem) => problem.field);
        // The space finds what the pull would leave out of a console document, and refuses to save it as it is.
        expect(Object.keys(schemaErrors(name as 'menus', data)), `${name}/${id}`).toEqual(problems);
      }
    }
  });
});
