/**
 * Page links from 1-based `current` of `last`: first, last, neighbours, "…" for a gap of 2+ (6, 20 → 1 … 5 6 7 … 20; 4,
 * 10 → 1 2 3 4 5 … 10).
 */
export function pageLinkItems(current: number, last: number): (number | '…')[] {
  const items: (number | '…')[] = [];
  for (let page = 1; page <= last; page++) {
    const distance = Math.abs(page - current);
    if (distance <= 1 || page === 1 || page === last || (distance === 2 && (page === 2 || page === last - 1))) {
      items.push(page);
    } else if (items.at(-1) !== '…') items.push('…');
  }
  return items;
}
