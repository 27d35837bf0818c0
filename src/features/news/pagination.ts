/** Numbered page links of a paginated list (the /actualites index), without framework code. */

/** One entry of the numbered links: a page number, or a gap ("…") between two runs of numbers. */
export type PageLinkItem = { page: number } | { gap: true };

/**
 * Page numbers to link from 1-based page `current` of `last`: first, last and `around` on each side, "…" for
 * a gap of two or more (6, 20 → 1 … 5 6 7 … 20; 2, 4 → 1 2 3 4).
 */
export function pageLinkItems(current: number, last: number, around = 1): PageLinkItem[] {
  const shown = new Set([1, last]);
  for (let page = current - around; page <= current + around; page += 1) {
    if (page >= 1 && page <= last) shown.add(page);
  }
  const pages = [...shown].sort((a, b) => a - b);
  const items: PageLinkItem[] = [];
  pages.forEach((page, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous === 2) items.push({ page: previous + 1 });
    else if (previous !== undefined && page - previous > 2) items.push({ gap: true });
    items.push({ page });
  });
  return items;
}

/** URL path of page `page` of a list at `base` (page 1 is the base itself): ('/actualites', 3) → '/actualites/3'. */
export function pagePath(base: string, page: number): string {
  return page === 1 ? base : `${base}/${page}`;
}
