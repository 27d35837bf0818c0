/**
 * No server secret reaches a visitor: dist/ holds no secret variable's name, nothing shaped like a Stripe
 * secret, and (when the build ran with fake secrets: STRIPE_SECRET_KEY, REBUILD_SECRET…) not their values,
 * nor does the server function's code: astro:env must not inline secrets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const dist = join(root, 'dist');
/** The server function's code (not its node_modules), as @astrojs/netlify writes it. */
const functionCode = join(root, '.netlify/v1/functions/ssr');

const SECRET_NAMES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'REBUILD_SECRET',
  'FIREBASE_PRIVATE_KEY',
];
/** Stripe secret and restricted keys, webhook signing secrets (the values, whatever the account). */
const SECRET_SHAPES = [/\b[sr]k_(?:test|live)_[0-9A-Za-z]/, /\bwhsec_[0-9A-Za-z]/];

function filesUnder(dir: string, skip: (path: string) => boolean = () => false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (skip(path)) return [];
    return entry.isDirectory() ? filesUnder(path, skip) : [path];
  });
}

/** The files of `files` whose bytes (read as latin1, so binaries too) contain `needle`. */
function filesContaining(files: string[], needle: string | RegExp): string[] {
  return files
    .filter((file) => {
      const text = readFileSync(file, 'latin1');
      return typeof needle === 'string' ? text.includes(needle) : needle.test(text);
    })
    .map((file) => relative(root, file));
}

describe('secrets never reach the client', () => {
  const files = existsSync(dist) ? filesUnder(dist) : [];

  it('searches a real build: HTML pages and client scripts are there', () => {
    expect(files.some((file) => file.endsWith('.html'))).toBe(true);
    expect(files.some((file) => file.includes(`${join('dist', '_astro')}`) && file.endsWith('.js'))).toBe(true);
  });

  it.each(SECRET_NAMES)('no file of dist/ names %s', (name) => {
    expect(filesContaining(files, name)).toEqual([]);
  });

  it.each(SECRET_SHAPES)('no file of dist/ holds a value shaped like %s', (shape) => {
    expect(filesContaining(files, shape)).toEqual([]);
  });

  const secretValues = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'REBUILD_SECRET', 'FIREBASE_PRIVATE_KEY']
    .map((name) => [name, process.env[name]?.trim()] as const)
    .filter((entry): entry is readonly [string, string] => Boolean(entry[1]));

  it.runIf(secretValues.length > 0)(
    'the values the build ran with appear neither in dist/ nor in the server function’s code',
    () => {
      const serverFiles = existsSync(functionCode)
        ? filesUnder(functionCode, (path) => path.includes(`${join('ssr', 'node_modules')}`))
        : [];
      for (const [name, value] of secretValues) {
        expect(filesContaining([...files, ...serverFiles], value), name).toEqual([]);
      }
    },
  );
});
