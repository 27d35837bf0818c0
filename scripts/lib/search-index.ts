/**
 * The site search's index, written by `astro build` (the `searchIndex` integration): Pagefind reads each page's
 * searchable part (only data-pagefind-body) as Astro's prerender renders it and writes dist/pagefind/ for /recherche.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration, AstroPrerenderer } from 'astro';
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

/** A Pagefind index being filled: add a page's HTML, then write it once. */
export interface SearchIndex {
  /**
   * Adds the page at `sourcePath` (relative to dist/, e.g. `asso/index.html`) when its HTML has a searchable part;
   * resolves true when it was indexed; rejects with Pagefind's errors.
   */
  add(sourcePath: string, html: string): Promise<boolean>;
  /** Writes the index into `outputPath`: the pages indexed; throws when none was or Pagefind fails. */
  write(outputPath: string): Promise<number>;
}

/** A new French index (stemmed, elisions split); throws with Pagefind's errors. */
export async function openSearchIndex(): Promise<SearchIndex> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'fr' });
  if (!index) throw new Error(errors.join('\n'));
  let pages = 0;
  return {
    async add(sourcePath, html) {
      const main = SEARCHABLE_MAIN.exec(html)?.[0];
      if (!main) return false;
      // Only the searchable part (a few KB, not the whole page), its elisions split.
      const content = `<!doctype html><html lang="fr"><body>${splitElisions(main)}</body></html>`;
      const added = await index.addHTMLFile({ sourcePath, content });
      if (added.errors.length > 0) throw new Error(added.errors.join('\n'));
      pages += 1;
      return true;
    },
    async write(outputPath) {
      if (pages === 0) throw new Error(`no page was indexed: is ${outputPath}/.. built?`);
      const written = await index.writeFiles({ outputPath });
      if (written.errors.length > 0) throw new Error(written.errors.join('\n'));
      return pages;
    },
  };
}

/**
 * The file a prerendered page is written to, relative to the output folder (`build.format: 'directory'`): `/asso/` →
 * `asso/index.html`, `/404` → `404.html` (Astro's own rule for a route named 404 or 500).
 */
export function pageSourcePath(pathname: string): string {
  const path = decodeURI(pathname).replace(/^\/+/, '');
  if (/^(404|500)\/?$/.test(path)) return `${path.replace(/\/$/, '')}.html`;
  return path === '' || path.endsWith('/') ? `${path}index.html` : `${path}/index.html`;
}

/** What the integration sends its worker (search-index-worker.ts). */
export type SearchIndexRequest =
  { type: 'add'; sourcePath: string; html: string } | { type: 'write'; outputPath: string };
/** What the worker answers to `write`: the pages indexed, or why it failed (the first failure of every request). */
export type SearchIndexAnswer = { pages: number } | { error: string };

/** Options of {@link searchIndex}. */
export interface SearchIndexOptions {
  /**
   * Routes, as Astro names them (e.g. `/actualites/[...page]`), whose pages have no searchable part: they are rendered
   * after every other page, so that Pagefind writes its files while they render. A page of theirs with a searchable
   * part fails the build (it would be missing from the index).
   */
  unsearchableRoutes?: string[];
}

/**
 * `astro build` writes the search index: Astro's prerenderer is wrapped (the `setPrerenderer` integration API) so that
 * the searchable part of each HTML page rendered goes to a worker thread, which hands it to Pagefind (its own process)
 * while the next pages render on the main thread. The pages of `unsearchableRoutes` are rendered last, and the index
 * is written as soon as every other page is rendered: beside them and Astro's last steps (optimised pictures, the
 * function, the sitemap); it is awaited at `astro:build:done` (this integration comes after the adapter and the
 * sitemap). A Pagefind error fails the build. Nothing happens under `astro dev`.
 */
export function searchIndex({ unsearchableRoutes = [] }: SearchIndexOptions = {}): AstroIntegration {
  const renderedLast = new Set(unsearchableRoutes);
  let outputPath = '';
  let worker: Worker | undefined;
  let written: Promise<SearchIndexAnswer> | undefined;
  // Pages still to render before the index can be written (those not of renderedLast); set by getStaticPaths.
  let searchablePending = Number.POSITIVE_INFINITY;
  let writeAsked = false;
  const askWrite = () => {
    if (writeAsked) return;
    writeAsked = true;
    worker?.postMessage({ type: 'write', outputPath } satisfies SearchIndexRequest);
  };
  return {
    name: 'search-index',
    hooks: {
      'astro:config:done': ({ config, buildOutput }) => {
        // Where the pages go: Astro's own rule for the folder it gives astro:build:generated.
        outputPath = fileURLToPath(new URL('pagefind', buildOutput === 'server' ? config.build.client : config.outDir));
      },
      'astro:build:start': ({ setPrerenderer }) => {
        setPrerenderer((prerenderer: AstroPrerenderer) => ({
          ...prerenderer,
          name: 'search-index',
          async setup() {
            searchablePending = Number.POSITIVE_INFINITY;
            writeAsked = false;
            worker = new Worker(new URL('./search-index-worker.ts', import.meta.url));
            // Never what keeps a failed build's process alive (awaited with a ref at the end).
            worker.unref();
            written = new Promise((resolve, reject) => {
              worker!.once('message', resolve);
              worker!.once('error', reject);
              worker!.once('exit', (code) => reject(new Error(`the worker stopped (exit code ${code})`)));
            });
            written.catch(() => {});
            await prerenderer.setup?.();
          },
          async getStaticPaths() {
            const paths = await prerenderer.getStaticPaths();
            // Astro renders them in this order (each route's own order is kept).
            const first = paths.filter(({ route }) => !renderedLast.has(route.route));
            searchablePending = first.length;
            return [...first, ...paths.filter(({ route }) => renderedLast.has(route.route))];
          },
          async render(request, options) {
            const result = await prerenderer.render(request, options);
            const last = renderedLast.has(options.routeData.route);
            const response = result instanceof Response ? result : result.response;
            if (!response.body || !response.headers.get('content-type')?.startsWith('text/html')) {
              if (!last && --searchablePending === 0) askWrite();
              return result;
            }
            // The body is read once, for Pagefind and for Astro, which writes the file.
            const body = await response.arrayBuffer();
            const html = SEARCHABLE_MAIN.exec(Buffer.from(body).toString('utf8'))?.[0];
            const sourcePath = pageSourcePath(new URL(request.url).pathname);
            if (html && last) {
              throw new Error(
                `Search index: ${sourcePath} has a searchable part, but its route ${options.routeData.route} is listed ` +
                  'in unsearchableRoutes (astro.config.mjs), whose pages are rendered after the index is written.',
              );
            }
            if (html) worker!.postMessage({ type: 'add', sourcePath, html } satisfies SearchIndexRequest);
            if (!last && --searchablePending === 0) askWrite();
            const copy = new Response(body, {
              status: response.status,
              statusText: response.statusText,
              headers: response.headers,
            });
            return result instanceof Response ? copy : { ...result, response: copy };
          },
          async teardown() {
            await prerenderer.teardown?.();
            // Every page is rendered (when Astro skipped one of getStaticPaths', the count never reached 0).
            askWrite();
          },
        }));
      },
      'astro:build:setup': ({ target, updateConfig }) => {
        // With a prerenderer set, Astro leaves the default prerender entry out of the bundle (it expects an adapter's
        // own runtime); the wrapped default prerenderer renders from that entry.
        if (target === 'server') {
          updateConfig({
            environments: { prerender: { build: { rolldownOptions: { input: 'astro/entrypoints/prerender' } } } },
          });
        }
      },
      'astro:build:done': async ({ logger }) => {
        if (!worker || !written) return;
        worker.ref();
        try {
          const answer = await written;
          if ('error' in answer) throw new Error(answer.error);
          logger.info(`${answer.pages} pages indexed into ${relative(process.cwd(), outputPath)}/`);
        } catch (error) {
          throw new Error(`Search index (Pagefind): ${(error as Error).message}`, { cause: error });
        } finally {
          await worker.terminate();
        }
      },
    },
  };
}
