/**
 * `npm run build`: pull, `astro build` into dist/, then the Pagefind index. A failed pull stops the build
 * before Astro runs, so an empty or partial site is never published.
 */
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';
import { buildSearchIndex } from './lib/search-index.ts';

try {
  // The static build only reads the pulled JSON: the emulator is stopped after the pull.
  await pullFromPreparedSource();
} catch (error) {
  exitWithError(error);
}
const astro = spawnAstro(['build', ...process.argv.slice(2)]);
astro.on('exit', async (code, signal) => {
  if (code !== 0) process.exit(code ?? (signal ? 1 : 0));
  try {
    const search = await buildSearchIndex('dist');
    console.log(`Search index: ${search.pages} pages → ${search.outputPath}/`);
  } catch (error) {
    exitWithError(error);
  }
  process.exit(0);
});
