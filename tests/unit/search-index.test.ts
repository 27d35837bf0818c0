import { describe, expect, it } from 'vitest';
import type { AstroPrerenderer, RouteData } from 'astro';
import { pageSourcePath, searchIndex, splitElisions } from '../../scripts/lib/search-index';
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

describe('searchIndex: the routes with no searchable part', () => {
  /** The integration's prerenderer around a fake one whose pages are the given HTML, by pathname. */
  function wrapped(pages: Record<string, string>): AstroPrerenderer {
    const routeOf = (pathname: string) =>
      ({ route: pathname.startsWith('/archive') ? '/archive/[...page]' : pathname }) as RouteData;
    const inner: AstroPrerenderer = {
      name: 'fake',
      getStaticPaths: async () => Object.keys(pages).map((pathname) => ({ pathname, route: routeOf(pathname) })),
      render: async (request) =>
        new Response(pages[new URL(request.url).pathname], { headers: { 'content-type': 'text/html' } }),
    };
    let prerenderer: AstroPrerenderer | undefined;
    const hook = searchIndex({ unsearchableRoutes: ['/archive/[...page]'] }).hooks['astro:build:start'] as (options: {
      setPrerenderer: (wrap: (inner: AstroPrerenderer) => AstroPrerenderer) => void;
    }) => void;
    hook({ setPrerenderer: (wrap) => (prerenderer = wrap(inner)) });
    return prerenderer!;
  }
  it('renders them after every other page, each route in its own order', async () => {
    const prerenderer = wrapped({ '/a': '', '/archive/2': '', '/b': '', '/archive/3': '', '/c': '' });
    const paths = await prerenderer.getStaticPaths();
    expect(paths.map(({ pathname }) => pathname)).toEqual(['/a', '/b', '/c', '/archive/2', '/archive/3']);
  });

  it('fails the build when one of their pages has a searchable part (it would be missing from the index)', async () => {
    const prerenderer = wrapped({
      '/archive/2': '<main>Archives</main>',
      '/archive/3': '<main data-pagefind-body>Archives</main>',
    });
    await prerenderer.getStaticPaths();
    const archivePage = (pathname: string) =>
      prerenderer.render(new Request(`http://localhost${pathname}`), {
        routeData: { route: '/archive/[...page]' } as RouteData,
      });
    await expect(archivePage('/archive/2')).resolves.toBeInstanceOf(Response);
    await expect(archivePage('/archive/3')).rejects.toThrow(/archive\/3\/index\.html has a searchable part/);
  });
});
