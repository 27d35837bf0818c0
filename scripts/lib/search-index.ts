/**
 * The site search's index: Pagefind reads dist/ (only data-pagefind-body parts) and writes dist/pagefind/ for
 * /recherche.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
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

/** The searchable part of a built page: its `<main data-pagefind-body>` (BaseLayout), or undefined. */
const SEARCHABLE_MAIN = /<main\b[^>]*\bdata-pagefind-body\b[^>]*>[\s\S]*<\/main>/;

/** Pages sent to Pagefind at once (its service parses them in parallel). */
const IN_FLIGHT = 32;

/**
 * Indexes dist/'s HTML in French (stemmed, elisions split) into `<dist>/pagefind`: pages indexed, output path; throws
 * with Pagefind's errors or when no page was indexed.
 */
export async function buildSearchIndex(dist = 'dist'): Promise<{ pages: number; outputPath: string }> {
  const outputPath = join(dist, 'pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'fr' });
    if (!index) throw new Error(errors.join('\n'));
    const files = (await readdir(dist, { recursive: true })).filter(
      (file) => file.endsWith('.html') && !file.startsWith(`pagefind${sep}`),
    );
    // Through Pagefind's Node API, no copy on disk: only each page's searchable part (a few KB, not the whole page),
    // its elisions split, many pages at a time.
    let pages = 0;
    const next = files.values();
    const worker = async () => {
      for (const file of next) {
        const main = SEARCHABLE_MAIN.exec(await readFile(join(dist, file), 'utf8'))?.[0];
        if (!main) continue;
        const content = `<!doctype html><html lang="fr"><body>${splitElisions(main)}</body></html>`;
        const added = await index.addHTMLFile({ sourcePath: file.split(sep).join('/'), content });
        if (added.errors.length > 0) throw new Error(added.errors.join('\n'));
        pages += 1;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    if (pages === 0) throw new Error(`no page of ${dist}/ was indexed: is dist/ built?`);
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(written.errors.join('\n'));
    return { pages, outputPath };
  } catch (error) {
    throw new Error(`Search index (Pagefind): ${(error as Error).message}`, { cause: error });
  } finally {
    await pagefind.close();
  }
}
