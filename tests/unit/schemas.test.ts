import { describe, expect, it } from 'vitest';
import { toSeconds, type CollectionName } from '../../src/content.config';
import { LINK_REFUSED } from '../../src/lib/link-address';
import { validateDocument } from '../../scripts/lib/validate';
import { readSeedDirectory, reviveSeedValue, DEMO_DIR } from '../../scripts/lib/seed';

/** Validates one document the way the pull does. */
function validate(name: CollectionName, id: string, data: unknown) {
  return validateDocument(name, id, reviveSeedValue(data));
}

const OCTOBER_3 = Date.UTC(2026, 9, 3, 9) / 1000;

describe('content schemas', () => {
  it('accept every document of the demo and original datasets, with the problems the original was given', async () => {
    const demo = await readSeedDirectory(DEMO_DIR);
    expect(Object.keys(demo).sort()).toEqual(['articles', 'association', 'categories', 'menus', 'partenaires']);
    for (const [name, documents] of Object.entries(demo)) {
      for (const [id, data] of Object.entries(documents)) {
        expect(validate(name as CollectionName, id, data).problems, `${name}/${id}`).toEqual([]);
      }
    }
    const original = await readSeedDirectory('content/original');
    const fields = Object.entries(original).flatMap(([name, documents]) =>
      Object.entries(documents).flatMap(([id, data]) =>
        validate(name as CollectionName, id, data).problems.map((p) => `${p.leftOut} ${name}/${id} ${p.field}`),
      ),
    );
    expect(fields.sort()).toEqual([
      'document articles/brouillon-casse date',
      'document articles/sans-titre titre',
      'field partenaires/imprimerie img.src',
      'link menus/principal liens.2.children.4.href',
      'link menus/reseaux liens.2.titre',
    ]);
  });

  it('the demo dataset exercises what the spec describes', async () => {
    const demo = await readSeedDirectory(DEMO_DIR);
    const menus = demo.menus as Record<
      string,
      { liens: { statut?: boolean; ordre?: number; children?: { statut?: boolean }[] }[] }
    >;
    const allLinks = Object.values(menus).flatMap((menu) => menu.liens);
    expect(allLinks.some((link) => link.statut === false)).toBe(true);
    expect(allLinks.some((link) => link.children?.some((child) => child.statut === false))).toBe(true);
    const orders = (menus.principal?.liens ?? []).map((link) => link.ordre ?? 0);
    expect(orders).not.toEqual([...orders].sort((a, b) => a - b));
    expect(Object.keys(demo.partenaires ?? {}).length).toBeGreaterThanOrEqual(10);
    expect(JSON.stringify(demo.articles)).toContain('[at]');
    expect(JSON.stringify(demo.articles)).toContain('$timestamp');
  });

  it("read the original admin's empty values as none, and its strings as numbers and booleans", () => {
    const article = validate('articles', 'a', {
      slug: '',
      cat: 'actualites',
      titre: ' Bonjour ',
      intro: null,
      contenu: '',
      date: '',
      img: { src: '', alt: '' },
      imgContenu: { src: '' },
      picto: null,
      champInconnu: { a: 1 },
    });
    expect(article).toEqual({
      data: { slug: '', cat: 'actualites', titre: 'Bonjour', intro: '', contenu: '' },
      problems: [],
    });
    const menu = validate('menus', 'principal', {
      liens: [
        { titre: 'B', href: '/b', target: '', ancre: '', statut: 'false', ordre: '2', exergue: 'TRUE', children: '' },
        { titre: 'A', href: '', ordre: 1, statut: 'true', picto: { src: '', alt: '' }, children: [] },
      ],
      schema: { src: '' },
    });
    expect(menu).toEqual({
      data: {
        liens: [
          { titre: 'B', href: '/b', statut: false, ordre: 2, exergue: true },
          { titre: 'A', ordre: 1, statut: true, children: [] },
        ],
      },
      problems: [],
    });
  });

  it(
    'read dates stored as Timestamps, seconds, fractions, milliseconds, numeric strings or ISO text as whole ' +
      'seconds',
    () => {
      for (const date of [
        { $timestamp: '2026-10-03T09:00:00.900Z' },
        { seconds: OCTOBER_3, nanoseconds: 5 },
        { _seconds: OCTOBER_3, _nanoseconds: 0 },
        OCTOBER_3,
        OCTOBER_3 + 0.75,
        OCTOBER_3 * 1000 + 999,
        String(OCTOBER_3),
        `${OCTOBER_3 * 1000}`,
        '2026-10-03T09:00:00Z',
        '2026-10-03T11:00:00+02:00',
      ]) {
        expect(toSeconds(reviveSeedValue(date)), JSON.stringify(date)).toBe(OCTOBER_3);
      }
      expect(toSeconds('2026-10-03')).toBe(Date.UTC(2026, 9, 3) / 1000);
      expect(toSeconds(null)).toBeUndefined();
      expect(toSeconds('hier')).toBe('hier');
    },
  );

  it('turn gs:// paths into Firebase Storage download URLs and keep site paths, https URLs and loopback http', () => {
    const images = (src: unknown) => validate('articles', 'a', { titre: 'A', img: { src, alt: 'x' } });
    expect(images('gs://asso.appspot.com/photos/été 1.jpg').data).toMatchObject({
      img: {
        src: 'https://firebasestorage.googleapis.com/v0/b/asso.appspot.com/o/photos%2F%C3%A9t%C3%A9%201.jpg?alt=media',
      },
    });
    expect(images('gs://asso.appspot.com/photos/a.jpg').data).toMatchObject({
      img: { src: 'https://firebasestorage.googleapis.com/v0/b/asso.appspot.com/o/photos%2Fa.jpg?alt=media' },
    });
    expect(images('/contenu/a.svg').data).toMatchObject({ img: { src: '/contenu/a.svg', alt: 'x' } });
    expect(images('https://example.org/a.png?x=1').data).toMatchObject({
      img: { src: 'https://example.org/a.png?x=1' },
    });
    // The build downloads it: an http address never reaches a visitor's browser.
    expect(images('http://example.org/a.png').data).toMatchObject({ img: { src: 'http://example.org/a.png' } });
    expect(images('ftp://example.org/a.png').problems).toEqual([
      {
        collection: 'articles',
        id: 'a',
        titre: 'A',
        field: 'img.src',
        reason:
          'l’adresse de son image (« ftp://example.org/a.png ») ne commence ni par /, ni par https://, ni par gs://',
        leftOut: 'field',
      },
    ]);
    expect(images('ftp://example.org/a.png').data).toEqual({ slug: '', cat: '', titre: 'A', intro: '', contenu: '' });
  });

  it('name an icon-only link by its picto, and leave out a link nobody could name', () => {
    const { data, problems } = validate('menus', 'reseaux', {
      liens: [
        { titre: '', href: 'https://facebook.com/x', picto: { src: '/f.svg', alt: 'Facebook' } },
        { titre: '', href: 'https://youtube.com/x', picto: { src: '/y.svg', alt: '' } },
        { titre: 'Site', href: 'javascript:alert(1)' },
      ],
    });
    expect(data).toEqual({
      liens: [
        {
          titre: 'Facebook',
          href: 'https://facebook.com/x',
          picto: { src: '/f.svg', alt: 'Facebook' },
          iconOnly: true,
        },
      ],
    });
    expect(problems).toEqual([
      {
        collection: 'menus',
        id: 'reseaux',
        field: 'liens.1.titre',
        reason: 'il n’a pas de titre et son pictogramme n’a pas de description (alt)',
        leftOut: 'link',
      },
      {
        collection: 'menus',
        id: 'reseaux',
        titre: 'Site',
        field: 'liens.2.href',
        reason: `son adresse (href) ${LINK_REFUSED}`,
        leftOut: 'link',
      },
    ]);
  });

  it('leave out and report a menu link or a rich-text link smuggling a script or leaving the site', () => {
    const smuggled = ['java\tscript:alert(1)', 'java\nscript:alert(1)', '\u0001javascript:alert(1)'];
    const spellings = [...smuggled, 'javascript\t:alert(1)', '//evil.example'];
    const menu = validate('menus', 'principal', {
      liens: [{ titre: 'Accueil', href: '/' }, ...spellings.map((href, index) => ({ titre: `Piège ${index}`, href }))],
    });
    expect(menu.data).toEqual({ liens: [{ titre: 'Accueil', href: '/' }] });
    expect(menu.problems.map(({ field, reason }) => [field, reason])).toEqual(
      spellings.map((_, index) => [`liens.${index + 1}.href`, `son adresse (href) ${LINK_REFUSED}`]),
    );
    const article = validate('articles', 'a', {
      titre: 'A',
      contenu: spellings.map((href) => `<a href="${href}">x</a>`).join(''),
    });
    expect(article.problems.map(({ field, leftOut }) => [field, leftOut])).toEqual(
      spellings.map(() => ['contenu (<a>)', 'link']),
    );
    expect(article.problems[4]!.reason).toBe(`l’adresse du lien « //evil.example » ${LINK_REFUSED}`);
  });

  it('leave out a document whose date or titre cannot be read, saying why in French', () => {
    expect(validate('articles', 'k', { titre: 'Kermesse', date: 'la semaine prochaine' })).toEqual({
      data: undefined,
      problems: [
        {
          collection: 'articles',
          id: 'k',
          titre: 'Kermesse',
          field: 'date',
          reason: 'sa date est illisible',
          leftOut: 'document',
        },
      ],
    });
    expect(validate('articles', 's', { cat: 'asso' }).problems).toEqual([
      { collection: 'articles', id: 's', field: 'titre', reason: 'son titre est vide', leftOut: 'document' },
    ]);
    expect(validate('menus', 'pied', { liens: 'Mentions' }).problems[0]).toMatchObject({
      field: 'liens',
      reason: 'ses liens ne sont pas une liste',
      leftOut: 'document',
    });
    expect(validate('articles', 'n', { titre: 'N', intro: 12 }).problems[0]?.reason).toBe(
      'son intro n’est pas un texte',
    );
  });

  it('output that validates again unchanged (Astro loads the pulled JSON with the same schemas)', async () => {
    const original = await readSeedDirectory('content/original');
    for (const [name, documents] of Object.entries(original)) {
      for (const [id, raw] of Object.entries(documents)) {
        const { data } = validate(name as CollectionName, id, raw);
        if (data === undefined) continue;
        const json = JSON.parse(JSON.stringify(data));
        expect(validate(name as CollectionName, id, json), `${name}/${id}`).toEqual({ data, problems: [] });
      }
    }
  });
});
