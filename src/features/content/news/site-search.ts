/** The search page's browser code: runs the form's query (and ?q=) through Pagefind's JS API, imported on first use. */

/** Where scripts/build.ts writes Pagefind's bundle (a variable: the module exists only in the built site). */
const PAGEFIND_BUNDLE = '/pagefind/pagefind.js';

/** One result of Pagefind's `search()` (pagefind.app/docs/api/): `excerpt` is text with <mark> around the matches. */
type Result = { data(): Promise<{ url: string; excerpt: string; meta: { title?: string } }> };

/** The part of Pagefind's JS API used here. */
interface Pagefind {
  options(options: object): Promise<void>;
  init(): Promise<void>;
  search(term: string): Promise<{ results: Result[] } | null>;
}

/** French sentence for the count of results of `terms`: "2 résultats pour « cantine »." */
export function countMessage(count: number, terms: string): string {
  if (count === 0) return `Aucun résultat pour « ${terms} ». Essayez un autre mot, ou un mot plus court.`;
  return `${count} résultat${count > 1 ? 's' : ''} pour « ${terms} ».`;
}

/**
 * Text as written: removes the space the index adds after French elisions ("l’ école" → "l’école";
 * scripts/lib/search-index.ts).
 */
export function joinElisions(text: string): string {
  return text.replace(/(?<!\p{L})(c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu|quoiqu)([’']) (?=\p{L}|<mark>)/giu, '$1$2');
}

/**
 * One result as `<li>`: title link (h2), excerpt (its text and <mark> elements only: no other markup of the index),
 * address.
 */
async function resultItem(result: Result): Promise<HTMLLIElement> {
  const { url, excerpt, meta } = await result.data();
  const item = document.createElement('li');
  const heading = item.appendChild(document.createElement('h2'));
  const link = heading.appendChild(document.createElement('a'));
  link.href = url;
  link.textContent = joinElisions(meta.title || url);
  const template = document.createElement('template');
  template.innerHTML = joinElisions(excerpt);
  item
    .appendChild(document.createElement('p'))
    .append(
      ...[...template.content.childNodes].map((node) =>
        node.nodeName === 'MARK'
          ? Object.assign(document.createElement('mark'), { textContent: node.textContent })
          : (node.textContent ?? ''),
      ),
    );
  const address = item.appendChild(document.createElement('p'));
  address.className = 'search__url';
  address.textContent = decodeURI(url);
  return item;
}

let pagefind: Promise<Pagefind> | undefined;

/** Pagefind's API, imported once (rejects when it is missing, as under `npm start`). */
function loadPagefind(): Promise<Pagefind> {
  pagefind ??= import(/* @vite-ignore */ PAGEFIND_BUNDLE).then(async (module: Pagefind) => {
    await module.options({ excerptLength: 24 });
    await module.init();
    return module;
  });
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

/** Wires the search form of /recherche (ids search-terms, search-status, search-results, search-more[-wrap]). */
export function runSiteSearch(): void {
  const form = document.querySelector<HTMLFormElement>('form[role="search"]')!;
  const input = document.getElementById('search-terms') as HTMLInputElement;
  const status = document.getElementById('search-status')!;
  const list = document.getElementById('search-results')!;
  const moreWrap = document.getElementById('search-more-wrap')!;
  let pending: Result[] = [];
  let run = 0;

  const showMore = async (focusFirst: boolean) => {
    // Ten results at once; "Afficher plus de résultats" adds as many.
    const items = await Promise.all(pending.splice(0, 10).map(resultItem));
    list.append(...items);
    list.hidden = list.children.length === 0;
    moreWrap.hidden = pending.length === 0;
    if (focusFirst) items[0]?.querySelector('a')?.focus();
  };

  const search = async (terms: string) => {
    const current = ++run;
    list.replaceChildren();
    list.hidden = moreWrap.hidden = true;
    status.textContent = 'Recherche en cours…';
    try {
      const results = (await (await loadPagefind()).search(terms))?.results ?? [];
      if (current !== run) return;
      pending = [...results];
      await showMore(false);
      status.textContent = countMessage(results.length, terms);
    } catch {
      if (current !== run) return;
      status.textContent = import.meta.env.DEV
        ? 'La recherche n’existe que sur le site construit : lancez `npm run build` puis ouvrez le site servi ' +
          '(docs/news-search.md).'
        : 'La recherche ne répond pas pour le moment. Réessayez dans un instant, ou parcourez toutes les actualités.';
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const terms = input.value.trim();
    if (!terms) return;
    // The address keeps the query: back, reload and shared links show the same results.
    history.replaceState(null, '', `?q=${encodeURIComponent(terms)}`);
    void search(terms);
  });
  document.getElementById('search-more')!.addEventListener('click', () => void showMore(true));
  // Warms the index up while the visitor types.
  input.addEventListener('focus', () => void loadPagefind().catch(() => undefined), { once: true });

  const initial = new URLSearchParams(location.search).get('q')?.trim();
  if (initial) {
    input.value = initial;
    void search(initial);
  }
}
