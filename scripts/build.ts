/**
 * `npm run build`: pull (a failure stops it before Astro: no partial site), then `astro build` into dist/, which also
 * writes the Pagefind index (scripts/lib/search-index.ts).
 */
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';

// The static build only reads the pulled JSON: the emulator is stopped after the pull.
await pullFromPreparedSource().catch(exitWithError);
spawnAstro(['build', ...process.argv.slice(2)]).on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
