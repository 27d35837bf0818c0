/**
 * Work done once per build rather than once per page: the prerender renders thousands of pages from the same pulled
 * content (every page's header pictures, the news list that four routes read), which does not change while it runs, nor
 * in the built function. Under `astro dev` (and vitest) nothing is kept: a re-pull changes the content in place.
 */

/**
 * `compute` wrapped so that each key (compared as a string, e.g. JSON) is computed once and its result (a promise
 * included) reused; the plain `compute` in development.
 */
export function memoizedPerBuild<A extends unknown[], R>(key: (...args: A) => string, compute: (...args: A) => R) {
  if (import.meta.env.DEV) return compute;
  const results = new Map<string, R>();
  return (...args: A): R => {
    const name = key(...args);
    if (!results.has(name)) results.set(name, compute(...args));
    return results.get(name) as R;
  };
}
