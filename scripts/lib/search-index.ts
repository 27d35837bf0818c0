/**
 * The site search's index: Pagefind reads dist/ (only data-pagefind-body parts) and writes dist/pagefind/ for
 * /recherche.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import * as pagefind from 'pagefind';

/** A French elided word and its apostrophe (l’, d’, qu’, jusqu’…) before a letter. */
const ELISION = /(?<!\p{L})(c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu|quoiqu)([’'])(?=\p{L})/giu;

/**
 * HTML with a space after each French elision ("l’école" → "l’ école", Pagefind does not split at apostrophes;
 * site-search.ts joins them again).
 */
export function splitElisions(html: string): string {
  return html.replace(ELISION, '$1$2 ');
}

/**
 * Indexes dist/'s HTML in French (stemmed, elisions split) into `<dist>/pagefind`: pages indexed, output path; throws
 * with Pagefind's errors or when no page was indexed.
 */
export async function buildSearchIndex(dist = 'dist'): Promise<{ pages: number; outputPath: string }> {
  const outputPath = join(dist, 'pagefind');
  // Pagefind reads a copy of the indexed pages (elisions split) from disk, in parallel: sending each page
  // through its Node API (addHTMLFile) took 36 s for 5,000 pages.
  const source = mkdtempSync(join(tmpdir(), 'pagefind-source-'));
  try {
    for (const file of readdirSync(dist, { recursive: true }) as string[]) {
      if (!file.endsWith('.html') || file.startsWith(`pagefind${sep}`)) continue;
      const html = readFileSync(join(dist, file), 'utf8');
      if (!html.includes('data-pagefind-body')) continue;
      mkdirSync(dirname(join(source, file)), { recursive: true });
      writeFileSync(join(source, file), splitElisions(html));
    }
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'fr' });
    if (!index) throw new Error(errors.join('\n'));
    const added = await index.addDirectory({ path: source });
    if (added.errors.length > 0) throw new Error(added.errors.join('\n'));
    if (added.page_count === 0) throw new Error(`no page of ${dist}/ was indexed: is dist/ built?`);
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(written.errors.join('\n'));
    return { pages: added.page_count, outputPath };
  } catch (error) {
    throw new Error(`Search index (Pagefind): ${(error as Error).message}`, { cause: error });
  } finally {
    await pagefind.close();
    rmSync(source, { recursive: true, force: true });
  }
}
