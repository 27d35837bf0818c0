/**
 * Under `astro dev`, a write of Astro's data store has the rendering environments' modules evaluated again (a Vite
 * `full-reload`), so that no page keeps the store it read before a re-pull (scripts/lib/dev-content-reload.ts).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { devContentReload } from '../../scripts/lib/dev-content-reload';

type Hooks = Record<string, (options: unknown) => unknown>;

/** The integration set up on a stand-in of Vite's dev server rooted at /site/; what each environment was sent. */
function setUp() {
  const sent: Record<string, unknown[]> = { ssr: [], prerender: [], client: [] };
  const environments = Object.fromEntries(
    Object.keys(sent).map((name) => [name, { hot: { send: (payload: unknown) => sent[name]!.push(payload) } }]),
  );
  const watcher = new EventEmitter();
  const hooks = devContentReload().hooks as unknown as Hooks;
  hooks['astro:config:done']!({ config: { root: new URL('file:///site/') } });
  hooks['astro:server:setup']!({ server: { watcher, environments } });
  return { sent, change: (event: string, path: string) => watcher.emit('all', event, path) };
}

describe('devContentReload', () => {
  it('reloads the server-side modules when the data store is written, whether changed or replaced', () => {
    const { sent, change } = setUp();
    change('change', '/site/.astro/data-store.json');
    change('add', '/site/.astro/data-store.json');
    expect(sent.ssr).toEqual([{ type: 'full-reload' }, { type: 'full-reload' }]);
    expect(sent.prerender).toEqual([{ type: 'full-reload' }, { type: 'full-reload' }]);
    // The browser's reload is Astro's own (it sends one when the store changes).
    expect(sent.client).toEqual([]);
  });

  it('leaves the modules alone for any other file, or the store removed', () => {
    const { sent, change } = setUp();
    change('change', '/site/src/data/articles.json');
    change('unlink', '/site/.astro/data-store.json');
    expect(sent).toEqual({ ssr: [], prerender: [], client: [] });
  });
});
