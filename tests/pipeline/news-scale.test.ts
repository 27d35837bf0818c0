/**
 * The news archive at scale: the real build of 44 and 384 generated news items in temporary copies: numbered,
 * linked index pages, each item on exactly one, and a home page the same size whatever the archive's length.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataset, measureBuild, syntheticDataset, type BuildMeasurement } from '../../bench/src/builds';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { FEED_NEWS_COUNT, HOME_NEWS_COUNT, NEWS_PER_PAGE } from '../../src/features/news/news';
import { freePort } from '../../scripts/lib/ports';

const root = resolve(import.meta.dirname, '../..');

interface Built {
  workspace: Workspace;
  build: BuildMeasurement;
  /** Slugs of the dataset's news items, newest first. */
  newsSlugs: string[];
}

/** Builds the demo dataset grown to `articles` articles in a temporary copy of the project. */
async function buildWith(articles: number): Promise<Built> {
  const dataset = syntheticDataset(await demoDataset(root), articles);
  const workspace = await createWorkspace(root, `news-${articles}`);
  const build = await measureBuild(workspace, `${articles} articles`, dataset, await freePort());
  const pulled = JSON.parse(readFileSync(join(workspace.dir, 'src/data/articles.json'), 'utf8')) as Record<
    string,
    { cat: string; slug: string; date?: number }
  >;
  const newsSlugs = Object.entries(pulled)
    .filter(([, data]) => data.cat === 'actualites')
    .toSorted(([, a], [, b]) => (b.date ?? 0) - (a.date ?? 0))
    .map(([id, data]) => data.slug || id);
  return { workspace, build, newsSlugs };
}

const document = (built: Built, file: string) =>
  new JSDOM(readFileSync(join(built.workspace.dir, 'dist', file), 'utf8')).window.document;

let small: Built;
let large: Built;

beforeAll(async () => {
  small = await buildWith(60);
  large = await buildWith(400);
}, 600_000);

afterAll(async () => {
  await small?.workspace.remove();
  await large?.workspace.remove();
});

describe('the news index at scale', () => {
  it('puts every news item, newest first, on exactly one numbered page', () => {
    expect(small.newsSlugs).toHaveLength(44);
    const pages = Math.ceil(small.newsSlugs.length / NEWS_PER_PAGE);
    const listed: string[] = [];
    for (let number = 1; number <= pages; number++) {
      const page = document(small, number === 1 ? 'actualites/index.html' : `actualites/${number}/index.html`);
      expect(page.title).toBe(`Actualités, page ${number} sur ${pages} · Les Petits Pas Ensemble`);
      const cards = [...page.querySelectorAll('main h2 a')].map((link) => link.getAttribute('href'));
      expect(cards.length).toBe(number < pages ? NEWS_PER_PAGE : small.newsSlugs.length % NEWS_PER_PAGE);
      listed.push(...(cards as string[]));
    }
    expect(listed).toEqual(small.newsSlugs.map((slug) => `/actualites/${slug}`));
    expect(readdirSync(join(small.workspace.dir, 'dist/actualites'))).not.toContain(String(pages + 1));
  });

  it('links previous, next and numbered pages, the current one marked', () => {
    const nav = (file: string) => {
      const element = document(small, file).querySelector('nav[aria-label="Pages des actualités"]');
      const link = (rel: string) => element?.querySelector(`a[rel="${rel}"]`);
      return {
        prev: [link('prev')?.getAttribute('href'), link('prev')?.textContent?.replace(/\s+/g, ' ').trim()],
        next: [link('next')?.getAttribute('href'), link('next')?.textContent?.replace(/\s+/g, ' ').trim()],
        numbers: [...(element?.querySelectorAll('a[aria-label^="Page "]') ?? [])].map(
          (number) => `${number.getAttribute('href')}${number.getAttribute('aria-current') === 'page' ? '*' : ''}`,
        ),
      };
    };
    expect(nav('actualites/index.html')).toEqual({
      prev: [undefined, undefined],
      next: ['/actualites/2', 'Page suivante →'],
      numbers: ['/actualites*', '/actualites/2', '/actualites/3', '/actualites/4'],
    });
    expect(nav('actualites/3/index.html')).toEqual({
      prev: ['/actualites/2', '← Page précédente'],
      next: ['/actualites/4', 'Page suivante →'],
      numbers: ['/actualites', '/actualites/2', '/actualites/3*', '/actualites/4'],
    });
    expect(nav('actualites/4/index.html').next).toEqual([undefined, undefined]);
    // 32 pages: the first, the last and the neighbours, "…" between.
    const middle = document(large, 'actualites/16/index.html').querySelector('nav[aria-label="Pages des actualités"]');
    const items = [...(middle?.querySelectorAll('li') ?? [])].map((item) =>
      item.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(items.join(' ')).toBe('← Page précédente 1 … 15 16 17 … 32 Page suivante →');
  });

  it('lists the index pages in the sitemap for search engines, and each news page links back', () => {
    const sitemap = readFileSync(join(small.workspace.dir, 'dist/sitemap-0.xml'), 'utf8');
    for (const number of [2, 3, 4]) expect(sitemap).toContain(`/actualites/${number}/</loc>`);
    const news = document(small, `actualites/${small.newsSlugs[30]}/index.html`);
    expect(news.querySelector('main a[href="/actualites"]')?.textContent?.trim()).toBe('← Toutes les actualités');
  });

  it('feeds the latest news only', () => {
    const feed = readFileSync(join(large.workspace.dir, 'dist/actualites/rss.xml'), 'utf8');
    const links = [...feed.matchAll(/<item>.*?<link>([^<]+)<\/link>/gs)].map((match) => new URL(match[1]!).pathname);
    expect(links).toEqual(large.newsSlugs.slice(0, FEED_NEWS_COUNT).map((slug) => `/actualites/${slug}/`));
  });

  it('indexes every news page for the search', () => {
    const entry = JSON.parse(readFileSync(join(large.workspace.dir, 'dist/pagefind/pagefind-entry.json'), 'utf8'));
    expect(entry.languages.fr.page_count).toBe(large.newsSlugs.length + 6);
  });
});

describe('the home page at scale', () => {
  it('shows the latest news and keeps its size whatever the archive’s length', () => {
    for (const built of [small, large]) {
      const hrefs = [...document(built, 'index.html').querySelectorAll('#actualites a[href^="/actualites/"]')].map(
        (link) => link.getAttribute('href'),
      );
      expect(hrefs).toEqual(built.newsSlugs.slice(0, HOME_NEWS_COUNT).map((slug) => `/actualites/${slug}`));
    }
    expect(large.newsSlugs.length).toBeGreaterThan(8 * small.newsSlugs.length);
    const growth = Math.abs(large.build.homeHtmlBytes - small.build.homeHtmlBytes) / small.build.homeHtmlBytes;
    expect(growth).toBeLessThan(0.05);
  });
});
