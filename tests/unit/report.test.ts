import { describe, expect, it } from 'vitest';
import { formatReport } from '../../scripts/lib/report';

describe('the content report as tables (npm run pull)', () => {
  it('lists documents read and shown, then each problem with what was left out and why', () => {
    const lines = formatReport({
      generatedAt: 1_790_000_000,
      collections: { menus: { read: 4, shown: 4 }, articles: { read: 13, shown: 11 } },
      problems: [
        {
          collection: 'articles',
          id: 'brouillon-casse',
          titre: 'Kermesse de juin',
          field: 'date',
          reason: 'sa date est illisible',
          leftOut: 'document',
        },
        { collection: 'menus', id: 'reseaux', field: 'liens.2.titre', reason: 'il n’a pas de titre', leftOut: 'link' },
      ],
      pictures: {
        fetched: 3,
        failed: [
          { src: 'https://x.test/a.jpg', reason: 'HTTP 404', collection: 'articles', id: 'a', field: 'img.src' },
        ],
      },
    });
    expect(lines).toEqual([
      'collection  read  shown',
      '──────────  ────  ─────',
      'menus       4     4',
      'articles    13    11',
      '',
      '2 problem(s), the rest is published:',
      'left out  document                                       field          reason',
      '────────  ─────────────────────────────────────────────  ─────────────  ─────────────────────',
      'document  articles/brouillon-casse « Kermesse de juin »  date           sa date est illisible',
      'link      menus/reseaux                                  liens.2.titre  il n’a pas de titre',
      '',
      'Pictures: 3 fetched, 1 failed.',
      '  https://x.test/a.jpg — HTTP 404',
    ]);
  });
});
