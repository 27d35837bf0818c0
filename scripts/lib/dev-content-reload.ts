/**
 * Under `astro dev`, the pages read the content of Astro's data store as it was when the server's modules were first
 * evaluated after a change: Astro's content runtime keeps the store it read in a module-level singleton, which only a
 * re-evaluation of the server's modules replaces. A re-pull rewrites src/data/ (some files reload the server's modules
 * through Vite, e.g. report.json) and then, later, the data store: on a busy machine a page rendered in between read
 * the old store, kept it, and the site showed the old content until the next restart (a published article stayed 404).
 * This integration has the server's modules evaluated again after every write of the data store.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** The server environments that render pages (Astro invalidates its data store module in these). */
const RENDERING_ENVIRONMENTS = ['ssr', 'prerender'];

/**
 * In `astro dev`, a full reload of the rendering environments' modules (Vite's `full-reload`, as for an edited file
 * nothing accepts) each time `.astro/data-store.json` is written; nothing in a build.
 */
export function devContentReload(): AstroIntegration {
  let dataStore = '';
  return {
    name: 'dev-content-reload',
    hooks: {
      'astro:config:done': ({ config }) => {
        // Astro's dev data store (content/paths.js: `data-store.json` in the .astro folder).
        dataStore = fileURLToPath(new URL('.astro/data-store.json', config.root));
      },
      'astro:server:setup': ({ server }) => {
        server.watcher.on('all', (event, path) => {
          if ((event !== 'add' && event !== 'change') || path !== dataStore) return;
          for (const name of RENDERING_ENVIRONMENTS) server.environments[name]?.hot.send({ type: 'full-reload' });
        });
      },
    },
  };
}
