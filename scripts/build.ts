/**
 * `npm run build`: pull (a failure stops it before Astro: no partial site), `astro build` into dist/, then the Pagefind
 * index.
 */
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';
import { buildSearchIndex } from './lib/search-index.ts';

// The static build only reads the pulled JSON: the emulator is stopped after the pull.
await pullFromPreparedSource().catch(exitWithError);
spawnAstro(['build', ...process.argv.slice(2)]).on('exit', async (code, signal) => {
  if (code !== 0) process.exit(code ?? (signal ? 1 : 0));
  const search = await buildSearchIndex('dist').catch(exitWithError);
  console.log(`Search index: ${search.pages} pages → ${search.outputPath}/`);
  process.exit(0);
});
