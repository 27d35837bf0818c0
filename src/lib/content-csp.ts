/** The content's picture and video hosts in every page's policy (docs/security.md), read from the pulled collections. */
import { getCollection } from 'astro:content';
import { allowSources, contentOrigins, type ContentOrigins, type PageCsp } from './csp.ts';
import { sanitizeContentHtml } from './html.server.ts';

let origins: Promise<ContentOrigins> | undefined;

/** Adds the content's remote picture origins to img-src and its video origins to frame-src (once computed per build). */
export async function allowContentOrigins(csp: PageCsp): Promise<void> {
  if (!csp) return;
  origins ??= Promise.all(
    (['menus', 'categories', 'articles', 'partenaires'] as const).map((name) => getCollection(name)),
  ).then((collections) =>
    contentOrigins(
      collections.flat().map((entry) => entry.data),
      sanitizeContentHtml,
    ),
  );
  const { pictures, frames } = await origins;
  allowSources(csp, 'img-src', pictures);
  allowSources(csp, 'frame-src', frames);
}
