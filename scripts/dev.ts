/**
 * `npm start`: pull, then `astro dev` on http://localhost:4321. Without
 * FIREBASE_PROJECT_ID the embedded demo database stays up for the whole
 * session (endpoints write to it) and is stopped on Ctrl-C.
 */
import { spawnAstro } from './lib/astro-cli.ts';
import { exitWithError, pullFromPreparedSource, type ContentSource } from './lib/content-source.ts';

let source: ContentSource | undefined;
try {
  source = await pullFromPreparedSource({ keepRunning: true });
} catch (error) {
  exitWithError(error);
}
const astro = spawnAstro(['dev', ...process.argv.slice(2)]);
let stopping = false;
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  astro.kill(signal);
  // Give Astro a moment to close its server, then stop the database.
  setTimeout(() => {
    source?.stop();
    process.exit(0);
  }, 500).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
astro.on('exit', (code) => {
  source?.stop();
  process.exit(stopping ? 0 : (code ?? 0));
});
