import { describe, expect, it } from 'vitest';
import { pageLinkItems } from '../../src/features/content/news/pagination';

const render = (current: number, last: number) => pageLinkItems(current, last).join(' ');

describe('pageLinkItems', () => {
  it('shows every page of a short list', () => {
    expect(render(1, 1)).toBe('1');
    expect(render(2, 4)).toBe('1 2 3 4');
    expect(render(1, 3)).toBe('1 2 3');
  });

  it('keeps the first, the last and the neighbours of the current page, with gaps between', () => {
    expect(render(6, 20)).toBe('1 … 5 6 7 … 20');
    expect(render(1, 834)).toBe('1 2 … 834');
    expect(render(834, 834)).toBe('1 … 833 834');
  });

  it('shows the page a one-page gap would hide, never "…" for a single page', () => {
    expect(render(4, 10)).toBe('1 2 3 4 5 … 10');
    expect(render(7, 10)).toBe('1 … 6 7 8 9 10');
  });
});
