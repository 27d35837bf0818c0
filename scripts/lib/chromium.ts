/**
 * Debian's Chromium as every browser run of the project starts it: never a downloaded browser, kept off the network.
 */

/** Path of Debian's chromium package. */
export const CHROMIUM_EXECUTABLE = '/usr/bin/chromium';

/** Launch flags: headless, no sandbox (root), no GPU, no background network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The environment to launch it with: the browser's own words (a file field's « Choisir un fichier », a date field's
 * jj/mm/aaaa) in French, as the association's visitors and the editors' guide's screenshots see them. Chromium on
 * Linux takes its interface language from LANGUAGE, not from `--lang`, and has it only with Debian's chromium-l10n
 * installed (English without it).
 */
export const CHROMIUM_ENV = { ...process.env, LANGUAGE: 'fr' };
