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
