/** Astro's island style moved from <body> into <head> (islandStyleInHead), where HTML allows a <style>. */
import { describe, expect, it } from 'vitest';
import { islandStyleInHead } from '../../src/lib/island-styles';

const STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

describe('islandStyleInHead', () => {
  it('moves each island style of the body to the end of the head, once', () => {
    const island = '<astro-island></astro-island>';
    const html = `<html><head><title>t</title></head><body><p>a</p>${STYLE}${island}${STYLE}</body></html>`;
    expect(islandStyleInHead(html)).toBe(
      `<html><head><title>t</title>${STYLE}</head><body><p>a</p><astro-island></astro-island></body></html>`,
    );
  });

  it('leaves a page without islands, or without a head, as it was', () => {
    const plain = '<html><head></head><body><p>a</p></body></html>';
    expect(islandStyleInHead(plain)).toBe(plain);
    expect(islandStyleInHead(`<p>a</p>${STYLE}`)).toBe(`<p>a</p>${STYLE}`);
  });
});
