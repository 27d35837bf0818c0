/**
 * The search page's browser code: runs the form's query (and ?q=) through Pagefind's JS API, renders the
 * results and announces their count. Pagefind is imported on the first search only.
 */

/** Where `scripts/build.ts` writes Pagefind's bundle (site path). */
const PAGEFIND_BUNDLE = '/pagefind/pagefind.js';
/** Results shown at once; "Afficher plus de résultats" adds as many. */
const RESULTS_PER_STEP = 10;

/** What Pagefind's `data()` gives for one result (the fields used here). */
interface ResultData {
  url: string;
  /** Text around the matches, HTML with <mark> around them. */
  excerpt: string;
  meta: { title?: string };
}

/** The part of Pagefind's JS API used here (pagefind.app/docs/api/). */
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(term: string): Promise<{ results: { data(): Promise<ResultData> }[] } | null>;
}

/** French sentence for the count of results of `terms`: "2 résultats pour « cantine »." */
export function countMessage(count: number, terms: string): string {
  if (count === 0) return `Aucun résultat pour « ${terms} ». Essayez un autre mot, ou un mot plus court.`;
  return `${count} résultat${count > 1 ? 's' : ''} pour « ${terms} ».`;
}

/** Text as written: removes the space the index adds after French elisions ("l’ école" → "l’école"; scripts/lib/search-index.ts). */
export function joinElisions(text: string): string {
  return text.replace(/(?<!\p{L})(c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu|quoiqu)([’']) (?=\p{L}|<mark>)/giu, '$1$2');
}

/** The excerpt as DOM nodes: its text and <mark> elements only (no other markup of the index reaches the page). */
function excerptNodes(excerpt: string): Node[] {
  const template = document.createElement('template');
  template.innerHTML = joinElisions(excerpt);
  return [...template.content.childNodes].map((node) => {
    if (node.nodeName !== 'MARK') return document.createTextNode(node.textContent ?? '');
    const mark = document.createElement('mark');
    mark.textContent = node.textContent;
    return mark;
  });
}

/** One result: title link (h2), excerpt, address. */
function resultItem(data: ResultData): HTMLLIElement {
  const item = document.createElement('li');
  const heading = document.createElement('h2');
  const link = document.createElement('a');
  link.href = data.url;
  link.textContent = joinElisions(data.meta.title || data.url);
  heading.append(link);
  const excerpt = document.createElement('p');
  excerpt.append(...excerptNodes(data.excerpt));
  const address = document.createElement('p');
  address.className = 'search__url';
  address.textContent = decodeURI(data.url);
  item.append(heading, excerpt, address);
  return item;
}

let pagefind: Promise<Pagefind> | undefined;

/** Pagefind's API, imported once (rejects when the index is missing, e.g. under `npm start`). */
function loadPagefind(): Promise<Pagefind> {
  pagefind ??= import(/* @vite-ignore */ PAGEFIND_BUNDLE).then(async (module: Pagefind) => {
    await module.options({ excerptLength: 24 });
    await module.init();
    return module;
  });
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

/** Wires the search form of /recherche (ids search-terms, search-status, search-results, search-more). */
export function runSiteSearch(): void {
  const form = document.querySelector<HTMLFormElement>('form[role="search"]');
  const input = document.getElementById('search-terms') as HTMLInputElement | null;
  const status = document.getElementById('search-status');
  const list = document.getElementById('search-results') as HTMLOListElement | null;
  const more = document.getElementById('search-more') as HTMLButtonElement | null;
  const moreWrap = document.getElementById('search-more-wrap');
  if (!form || !input || !status || !list || !more || !moreWrap) return;
  let pending: { data(): Promise<ResultData> }[] = [];
  let run = 0;

  const showMore = async (focusFirst: boolean) => {
    const step = pending.slice(0, RESULTS_PER_STEP);
    pending = pending.slice(RESULTS_PER_STEP);
    const items = (await Promise.all(step.map((result) => result.data()))).map(resultItem);
    list.append(...items);
    list.hidden = list.children.length === 0;
    moreWrap.hidden = pending.length === 0;
    if (focusFirst) items[0]?.querySelector('a')?.focus();
  };

  const search = async (terms: string) => {
    const current = ++run;
    list.replaceChildren();
    list.hidden = true;
    moreWrap.hidden = true;
    status.textContent = 'Recherche en cours…';
    try {
      const results = (await (await loadPagefind()).search(terms))?.results ?? [];
      if (current !== run) return;
      pending = results;
      await showMore(false);
      status.textContent = countMessage(results.length, terms);
    } catch {
      if (current !== run) return;
      status.textContent = import.meta.env.DEV
        ? 'La recherche n’existe que sur le site construit : lancez `npm run build` puis ouvrez le site servi (docs/news-search.md).'
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
  more.addEventListener('click', () => void showMore(true));
  // Warms the index up while the visitor types.
  input.addEventListener('focus', () => void loadPagefind().catch(() => undefined), { once: true });

  const initial = new URLSearchParams(location.search).get('q')?.trim();
  if (initial) {
    input.value = initial;
    void search(initial);
  }
}
