/**
 * The news archive of a built workspace, checked at whatever size it was built (moved here from the test suite:
 * building hundreds of articles is a scale run, not a test). The pagination's rules are unit-tested
 * (pageLinkItems); here the whole archive is read back from dist/: every news item, newest first, on exactly one
 * numbered index page, pages linked in order, the index pages in the sitemap, the feed of the latest items, the
 * search index of every indexed page, and the home's latest items.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { FEED_NEWS_COUNT, HOME_NEWS_COUNT, NEWS_PER_PAGE } from '../../src/features/content/news/news.ts';
import { pageLinkItems } from '../../src/features/content/news/pagination.ts';

const text = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Slugs of the pulled news items of a workspace (src/data/articles.json), newest first. */
async function pulledNewsSlugs(dir: string): Promise<string[]> {
  const articles = JSON.parse(await readFile(join(dir, 'src/data/articles.json'), 'utf8')) as Record<
    string,
    { cat: string; slug?: string; date?: number }
  >;
  return Object.entries(articles)
    .filter(([, data]) => data.cat === 'actualites')
    .toSorted(([, a], [, b]) => (b.date ?? 0) - (a.date ?? 0))
    .map(([id, data]) => data.slug || id);
}

/**
 * What is wrong with the news archive of the workspace `dir` (built: src/data/ and dist/), one sentence per
 * problem; [] when it is complete. Reads every index page, the sitemap, the feed, the Pagefind entry and the home.
 */
export async function newsArchiveProblems(dir: string): Promise<string[]> {
  const dist = join(dir, 'dist');
  const problems: string[] = [];
  const slugs = await pulledNewsSlugs(dir);
  const page = async (path: string) => new JSDOM(await readFile(join(dist, path), 'utf8')).window.document;
  const pages = Math.max(1, Math.ceil(slugs.length / NEWS_PER_PAGE));
  const indexPath = (number: number) => (number === 1 ? '/actualites' : `/actualites/${number}`);

  const listed: string[] = [];
  for (let number = 1; number <= pages; number++) {
    const document = await page(`${indexPath(number).slice(1)}/index.html`);
    listed.push(...[...document.querySelectorAll('main h2 a')].map((link) => link.getAttribute('href') ?? ''));
    if (pages === 1) continue;
    if (!document.title.includes(`page ${number} sur ${pages}`)) {
      problems.push(`${indexPath(number)}: title « ${document.title} » does not say page ${number} sur ${pages}`);
    }
    const nav = document.querySelector('nav[aria-label="Pages des actualités"]');
    const items = [...(nav?.querySelectorAll('li') ?? [])]
      .map(text)
      .filter((item) => !/Page (précédente|suivante)/.test(item));
    const expected = pageLinkItems(number, pages).map(String);
    if (items.join(' ') !== expected.join(' ')) {
      problems.push(`${indexPath(number)}: page links « ${items.join(' ')} », expected « ${expected.join(' ')} »`);
    }
    const rel = (name: string) => nav?.querySelector(`a[rel="${name}"]`)?.getAttribute('href') ?? undefined;
    const [prev, next] = [
      number > 1 ? indexPath(number - 1) : undefined,
      number < pages ? indexPath(number + 1) : undefined,
    ];
    if (rel('prev') !== prev || rel('next') !== next) {
      problems.push(
        `${indexPath(number)}: previous/next link to ${rel('prev')}/${rel('next')}, expected ${prev}/${next}`,
      );
    }
    const current = nav?.querySelector('a[aria-current="page"]')?.getAttribute('href');
    if (current !== indexPath(number)) problems.push(`${indexPath(number)}: the current page is marked ${current}`);
  }
  const expectedList = slugs.map((slug) => `/actualites/${slug}`);
  if (listed.join('\n') !== expectedList.join('\n')) {
    const missing = expectedList.filter((href) => !listed.includes(href)).length;
    problems.push(
      `the index pages list ${listed.length} items for ${slugs.length} news items (${missing} missing), or not ` +
        `newest first`,
    );
  }
  if (existsSync(join(dist, 'actualites', String(pages + 1)))) problems.push(`an index page ${pages + 1} exists`);

  const sitemaps = (await readdir(dist)).filter((name) => /^sitemap-\d+\.xml$/.test(name));
  const sitemap = (await Promise.all(sitemaps.map((name) => readFile(join(dist, name), 'utf8')))).join('\n');
  for (let number = 2; number <= pages; number++) {
    if (!sitemap.includes(`/actualites/${number}/</loc>`)) problems.push(`the sitemap lacks /actualites/${number}`);
  }

  const feed = await readFile(join(dist, 'actualites/rss.xml'), 'utf8');
  const fed = [...feed.matchAll(/<item>.*?<link>([^<]+)<\/link>/gs)].map((match) => new URL(match[1]!).pathname);
  const latest = slugs.slice(0, FEED_NEWS_COUNT).map((slug) => `/actualites/${slug}/`);
  if (fed.join('\n') !== latest.join('\n'))
    problems.push(`the feed holds ${fed.length} items, not the ${latest.length} latest`);

  const htmlFiles = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith('.html'));
  let indexed = 0;
  for (const file of htmlFiles)
    if ((await readFile(join(dist, file), 'utf8')).includes('data-pagefind-body')) indexed++;
  const entry = JSON.parse(await readFile(join(dist, 'pagefind/pagefind-entry.json'), 'utf8'));
  if (entry.languages.fr.page_count !== indexed) {
    problems.push(`the search index holds ${entry.languages.fr.page_count} pages of the ${indexed} marked for it`);
  }

  const home = await page('index.html');
  const shown = [...home.querySelectorAll('#actualites a[href^="/actualites/"]')].map((link) =>
    link.getAttribute('href'),
  );
  const newest = slugs.slice(0, HOME_NEWS_COUNT).map((slug) => `/actualites/${slug}`);
  if (shown.join('\n') !== newest.join('\n'))
    problems.push(`the home shows ${shown.length} news items, not the ${newest.length} latest`);
  return problems;
}
