/**
 * Valid HTML on every built page (RGAA 8.2): the W3C Nu HTML Checker (vnu-jar, on the machine's Java 17+) finds no
 * error in any HTML file of dist/. Its CSS messages are left aside: its CSS grammar predates container queries and
 * custom media, which the site's styles use.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '../../dist');
const vnuJar = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

/** Every HTML file of the built site, its search index and hashed assets aside. */
const pages = existsSync(dist)
  ? readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html') && !/^(pagefind|_astro)\//.test(file))
      .map((file) => join(dist, file))
  : [];

/** One message of the checker's JSON output. */
interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

describe('valid HTML (Nu HTML Checker)', () => {
  it('checks the built pages', () => {
    expect(pages.length).toBeGreaterThan(20);
  });

  it('finds no error on any built page, CSS aside', { timeout: 300_000 }, async () => {
    // The checker answers on stderr and exits 1 when it finds an error: its report is read either way.
    const { stderr } = await promisify(execFile)(
      'java',
      ['-jar', vnuJar, '--errors-only', '--exit-zero-always', '--format', 'json', ...pages],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
    const errors = messages
      .filter(({ message }) => !message.startsWith('CSS:'))
      .map(({ url, lastLine, message, extract }) => {
        const where = `${relative(dist, new URL(url).pathname)}:${lastLine ?? '?'}`;
        return `${where}: ${message} « ${extract?.trim().slice(0, 120)} »`;
      });
    expect(errors).toEqual([]);
  });
});
