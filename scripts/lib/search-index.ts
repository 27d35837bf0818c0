/**
 * The site search's index: Pagefind (the static search Starlight uses) reads
 * the built pages of dist/ (only the parts marked data-pagefind-body, see
 * BaseLayout's `searchable`) and writes dist/pagefind/, which /recherche loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';

/** What the indexing did: pages indexed and where the bundle went. */
export interface SearchIndexSummary {
  /** Pages in the index (those with data-pagefind-body). */
  pages: number;
  outputPath: string;
}

/**
 * Indexes dist/ in French (stemming: "inscriptions" finds "inscription") and
 * writes the bundle to `<dist>/pagefind`.
 * @throws Error listing Pagefind's errors, or when no page was indexed.
 */
export async function buildSearchIndex(dist = 'dist'): Promise<SearchIndexSummary> {
  const outputPath = join(dist, 'pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'fr' });
    if (!index) throw new Error(errors.join('\n'));
    const added = await index.addDirectory({ path: dist });
    if (added.errors.length > 0) throw new Error(added.errors.join('\n'));
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
