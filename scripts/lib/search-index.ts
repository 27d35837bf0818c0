/**
 * The site search's index: Pagefind (the static search Starlight uses) reads
 * the built pages of dist/ (only the parts marked data-pagefind-body, see
 * BaseLayout's `searchable`) and writes dist/pagefind/, which /recherche loads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as pagefind from 'pagefind';

/** What the indexing did: pages indexed and where the bundle went. */
export interface SearchIndexSummary {
  /** Pages in the index (those with data-pagefind-body). */
  pages: number;
  outputPath: string;
}

/** A French elided word and its apostrophe (l’, d’, qu’, jusqu’…) before a letter. */
const ELISION = /(?<!\p{L})(c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu|quoiqu)([’'])(?=\p{L})/giu;

/**
 * HTML with a space after each French elision ("l’école" → "l’ école"), so
 * that Pagefind, which does not split words at apostrophes, indexes "école"
 * (found by "école") and not "l’école". The search page removes the space
 * again in what it shows (site-search.ts, joinElisions).
 */
export function splitElisions(html: string): string {
  return html.replace(ELISION, '$1$2 ');
}

/** URL path of a file of dist/: `actualites/x/index.html` → `/actualites/x/`. */
function urlOf(file: string): string {
  return `/${file.split(sep).join('/')}`.replace(/(^|\/)index\.html$/, '$1');
}

/**
 * Indexes the HTML files of dist/ in French (stemming: "crêpe" finds
 * "crêpes"; elisions split, see splitElisions) and writes the bundle to
 * `<dist>/pagefind`.
 * @throws Error listing Pagefind's errors, or when no page was indexed.
 */
export async function buildSearchIndex(dist = 'dist'): Promise<SearchIndexSummary> {
  const outputPath = join(dist, 'pagefind');
  const files = (readdirSync(dist, { recursive: true }) as string[]).filter(
    (file) => file.endsWith('.html') && !file.startsWith(`pagefind${sep}`),
  );
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'fr' });
    if (!index) throw new Error(errors.join('\n'));
    // In batches: one message per file to Pagefind's process, a bounded number in flight.
    for (let start = 0; start < files.length; start += 200) {
      const batch = files.slice(start, start + 200);
      const added = await Promise.all(
        batch.map((file) =>
          index.addHTMLFile({ url: urlOf(file), content: splitElisions(readFileSync(join(dist, file), 'utf8')) }),
        ),
      );
      const failed = added.flatMap((response) => response.errors);
      if (failed.length > 0) throw new Error(failed.join('\n'));
    }
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(written.errors.join('\n'));
    const entry = JSON.parse(readFileSync(join(outputPath, 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    const pages = Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
    if (pages === 0) throw new Error(`no page of ${dist}/ was indexed: is dist/ built?`);
    return { pages, outputPath };
  } catch (error) {
    throw new Error(`Search index (Pagefind): ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    await pagefind.close();
  }
}
