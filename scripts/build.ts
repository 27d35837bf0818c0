/**
 * `npm run build`: pull (from FIREBASE_PROJECT_ID's database, or the embedded
 * demo database), then `astro build` into dist/ (Astro writes each page's
 * Content-Security-Policy for Netlify, docs/security.md). A failed pull stops
 * the build before Astro runs, so an empty or partial site is never published.
 */
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource } from './lib/content-source.ts';

try {
  // The static build only reads the pulled JSON: the emulator is stopped after the pull.
  await pullFromPreparedSource();
} catch (error) {
  exitWithError(error);
}
const astro = spawnAstro(['build', ...process.argv.slice(2)]);
astro.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
