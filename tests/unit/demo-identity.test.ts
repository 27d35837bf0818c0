/**
 * The demo association lives in content/demo/ only: a real site built from its own database must never show its
 * name, so no file that every build ships may carry it in any form: src/ (src/data/ is the pulled content, not
 * source), public/ (copied as is into dist/) and netlify/ (the edge functions).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');
/** « Petits Pas », « Les Petits Pas Ensemble », « École des Petits Pas », petitspas, petits-pas, Petits_Pas… */
const DEMO_NAME = /petits[\s\u00a0_-]*pas/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(src, 'data') ? [] : sourceFiles(path);
    return [path];
  });
}

describe('the demo association’s identity', () => {
  it('appears in no file under src/, public/ or netlify/', () => {
    const files = ['src', 'public', 'netlify'].flatMap((dir) => sourceFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(90);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          DEMO_NAME.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('would be caught in each of its forms', () => {
    for (const form of [
      'Les Petits Pas Ensemble',
      'École des Petits Pas',
      'site-petitspas',
      'petits-pas',
      'PETITS PAS',
    ]) {
      expect(DEMO_NAME.test(form), form).toBe(true);
    }
  });
});
