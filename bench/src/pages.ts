/**
 * Page weight of every built route: the HTML, and the JavaScript the page
 * loads — `<script src>`, the static imports of inline `<script type=module>`,
 * `<link rel=modulepreload>`, the `component-url` / `renderer-url` /
 * `before-hydration-url` of Astro islands — followed through the static
 * `import` graph of the modules in dist/. Sizes raw and gzip (node:zlib
 * gzipSync, level 9), each file compressed on its own as a server sends it.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImportType, init as initLexer, parse as parseModule } from 'es-module-lexer';
import { JSDOM } from 'jsdom';
import { BenchError } from './processes.ts';

/** zlib level used for every gzip size of the report. */
export const GZIP_LEVEL = 9;

/** Markers of React or react-dom in a built module (the JSX runtime's element symbol, react-dom's error URL). */
const FRAMEWORK_MARKERS = /Symbol\.for\(["'`]react\.(?:transitional\.)?element["'`]\)|react\.dev\/errors/;

/** Island attributes that name a module the island loads when it hydrates. */
const ISLAND_URL_ATTRIBUTES = ['component-url', 'renderer-url', 'before-hydration-url'];

/** One JavaScript file a page loads. */
export interface ScriptFile {
  /** Site path, e.g. `/_astro/client.CzWaolnw.js`. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** gzip size in bytes. */
  gzipBytes: number;
  /** Whether it holds React or react-dom code. */
  framework: boolean;
}

/** Weight of one built page. */
export interface PageWeight {
  /** Route, e.g. `/`, `/ecole/schema`, `/404`. */
  route: string;
  /** HTML size in bytes (inline scripts and styles included). */
  htmlBytes: number;
  /** HTML gzip size in bytes. */
  htmlGzipBytes: number;
  /** Bytes of inline `<script>` elements (part of htmlBytes). */
  inlineScriptBytes: number;
  /** Number of `<astro-island>` elements. */
  islands: number;
  /** Every external JS file the page loads (static graph), by path. */
  scripts: ScriptFile[];
  /** Sum of the scripts' sizes, in bytes. */
  jsBytes: number;
  /** Sum of the scripts' gzip sizes, in bytes. */
  jsGzipBytes: number;
  /** gzip bytes of the scripts that hold React or react-dom. */
  frameworkGzipBytes: number;
  /**
   * gzip bytes of the scripts loaded before any interaction: all but those only `client:interaction` islands load
   * (src/lib/hydrate-on-interaction.ts).
   */
  beforeInteractionGzipBytes: number;
  /** Modules only imported dynamically (`import()`) by those scripts: not counted, loaded on demand. */
  lazyModules: string[];
}

/** Route of an HTML file of dist/: `index.html` → `/`, `asso/index.html` → `/asso`, `404.html` → `/404`. */
export function routeOf(relativePath: string): string {
  const path = relativePath
    .split(sep)
    .join('/')
    .replace(/(^|\/)index\.html$/, '')
    .replace(/\.html$/, '');
  return `/${path}`;
}

/**
 * Measures every .html of `distDir` (see module doc), sorted by route.
 * @throws BenchError when a page names a script that is not in dist/.
 */
export async function measurePages(distDir: string): Promise<PageWeight[]> {
  await initLexer;
  const htmlFiles = (await readdir(distDir, { recursive: true }))
    .filter((file) => file.endsWith('.html'))
    .map((file) => join(distDir, file));
  const modules = new ModuleGraph(distDir);
  const pages = await Promise.all(htmlFiles.map((file) => measurePage(distDir, file, modules)));
  return pages.toSorted((a, b) => a.route.localeCompare(b.route));
}

async function measurePage(distDir: string, file: string, modules: ModuleGraph): Promise<PageWeight> {
  const route = routeOf(relative(distDir, file));
  const html = await readFile(file);
  const document = new JSDOM(html).window.document;
  const pageUrl = new URL(route === '/' ? '/' : `${route}/`, 'http://site.invalid');
  const entries: string[] = [];
  let inlineScriptBytes = 0;
  for (const script of document.querySelectorAll('script')) {
    const src = script.getAttribute('src');
    if (src) entries.push(src);
    else {
      const code = script.textContent ?? '';
      inlineScriptBytes += Buffer.byteLength(code);
      if (script.getAttribute('type') === 'module') entries.push(...staticImports(code));
    }
  }
  for (const link of document.querySelectorAll('link[rel="modulepreload"][href]')) {
    entries.push(link.getAttribute('href') as string);
  }
  const islands = [...document.querySelectorAll('astro-island')];
  const atOnce = [...entries];
  for (const island of islands) {
    for (const name of ISLAND_URL_ATTRIBUTES) {
      const url = island.getAttribute(name);
      if (!url) continue;
      entries.push(url);
      if (island.getAttribute('client') !== 'interaction') atOnce.push(url);
    }
  }
  const sitePaths = (list: string[]) =>
    list
      .map((entry) => new URL(entry, pageUrl))
      .filter((url) => url.origin === pageUrl.origin)
      .map((url) => url.pathname);
  const { loaded, lazy } = await modules.closure(sitePaths(entries), route);
  const loadedAtOnce = new Set((await modules.closure(sitePaths(atOnce), route)).loaded);
  const scripts = await Promise.all(loaded.map((path) => modules.file(path, route)));
  return {
    route,
    htmlBytes: html.length,
    htmlGzipBytes: gzipSync(html, { level: GZIP_LEVEL }).length,
    inlineScriptBytes,
    islands: islands.length,
    scripts,
    jsBytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    jsGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    frameworkGzipBytes: scripts.filter((script) => script.framework).reduce((sum, script) => sum + script.gzipBytes, 0),
    beforeInteractionGzipBytes: scripts
      .filter((script) => loadedAtOnce.has(script.path))
      .reduce((sum, script) => sum + script.gzipBytes, 0),
    lazyModules: lazy.filter((path) => !loaded.includes(path)),
  };
}

/** Specifiers of the static imports of a module's source. */
function staticImports(code: string): string[] {
  const [imports] = parseModule(code);
  return imports.filter((entry) => entry.t === ImportType.Static && entry.n).map((entry) => entry.n as string);
}

/** Dynamic imports with a literal specifier. */
function dynamicImports(code: string): string[] {
  const [imports] = parseModule(code);
  return imports.filter((entry) => entry.t === ImportType.Dynamic && entry.n).map((entry) => entry.n as string);
}

/** The modules of dist/, read once each. */
class ModuleGraph {
  private readonly files = new Map<string, Promise<{ info: ScriptFile; code: string }>>();

  constructor(private readonly distDir: string) {}

  /** Size and framework flag of the module at a site path. */
  async file(path: string, route: string): Promise<ScriptFile> {
    return (await this.read(path, route)).info;
  }

  /** Site paths of the modules reached from `entries` by static imports, and those only imported dynamically. */
  async closure(entries: string[], route: string): Promise<{ loaded: string[]; lazy: string[] }> {
    const loaded = new Set<string>();
    const lazy = new Set<string>();
    const queue = [...entries];
    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (loaded.has(path)) continue;
      loaded.add(path);
      const { code } = await this.read(path, route);
      const base = new URL(path, 'http://site.invalid');
      const resolvePath = (specifier: string) => new URL(specifier, base).pathname;
      queue.push(...staticImports(code).map(resolvePath));
      for (const specifier of dynamicImports(code)) lazy.add(resolvePath(specifier));
    }
    return { loaded: [...loaded].sort(), lazy: [...lazy].sort() };
  }

  private read(path: string, route: string): Promise<{ info: ScriptFile; code: string }> {
    let entry = this.files.get(path);
    if (!entry) {
      entry = readFile(join(this.distDir, decodeURIComponent(path)))
        .catch(() => {
          throw new BenchError(`${route} loads ${path}, which is not in dist/: is the build complete?`);
        })
        .then((bytes) => {
          const code = bytes.toString('utf8');
          return {
            code,
            info: {
              path,
              bytes: bytes.length,
              gzipBytes: gzipSync(bytes, { level: GZIP_LEVEL }).length,
              framework: FRAMEWORK_MARKERS.test(code),
            },
          };
        });
      this.files.set(path, entry);
    }
    return entry;
  }
}
