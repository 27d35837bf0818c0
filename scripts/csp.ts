/**
 * `npm run csp`: regenerates the Content-Security-Policy block of netlify.toml
 * from dist/ (run `npm run build` first): the hashes of the pages' inline
 * scripts and styles and one rule per kind of page (scripts/lib/csp.ts).
 * Needed after a change to an inline script or style, or an Astro upgrade;
 * `npm test` (tests/build/csp.test.ts) says when.
 *
 * `npm run csp -- --check`: audits dist/ against netlify.toml as it is and
 * exits with status 1, listing what a policy would block (scripts/build.ts
 * runs this audit after every build).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { checkBuiltSite, renderNetlifyBlock, replaceNetlifyBlock, scanDist } from './lib/csp.ts';

const NETLIFY_TOML = 'netlify.toml';

if (process.argv.includes('--check')) {
  if (!(await checkBuiltSite('dist', NETLIFY_TOML))) process.exit(1);
} else {
  const toml = readFileSync(NETLIFY_TOML, 'utf8');
  const next = replaceNetlifyBlock(toml, renderNetlifyBlock(scanDist('dist')));
  writeFileSync(NETLIFY_TOML, next);
  console.log(
    next === toml ? `${NETLIFY_TOML} is up to date.` : `${NETLIFY_TOML}: Content-Security-Policy block rewritten.`,
  );
}
