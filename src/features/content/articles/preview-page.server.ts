/**
 * The work of /espace/articles/<id>/apercu (the page renders, through src/content.ts toView as the build does): its
 * « Publier » post (publishArticle), then the saved article read by the pull's schema, whether it is online and what
 * just happened; previewPictures: the pictures each page would show.
 */
import type { PageContext } from '../page-context';
import { articleSchema, type Article } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { loadContent } from '../editing/content-store.server';
import { historyOf } from '../editing/history.server';
import { publicationQuery } from '../publishing/publish.server';
import { readFormPost } from '../../espace/form-post.server';
import { failureOf } from '../../espace/server-calls.server';
import { articleStatus, publishArticle } from '../publishing/article-publishing.server';
import type { OnlineStatus } from '../publishing/online-status';
import { noticesOf } from './article-page.server';

/** A picture as the preview shows it: its address as stored (not yet pulled), its text, its class and width (px). */
export interface PreviewPicture {
  src: string;
  alt: string;
  class?: string;
  width?: number;
}

/** What the preview renders; `redirect` after its post. */
export interface PreviewPage {
  redirect?: string;
  error?: string;
  found: boolean;
  /** The stored article as the pull's schema reads it (undefined when it refuses it). */
  data?: Article;
  draft: boolean;
  status?: OnlineStatus;
  notice?: string;
  warning?: string;
}

/** The pictures an article view has, by their stored addresses. */
interface Pictures {
  img?: { src: string; alt: string } | undefined;
  imgContenu?: { src: string } | undefined;
  picto?: { src: string; alt: string } | undefined;
}

/**
 * The pictures of the pages: the text's, a news page's (cover, else the text's), the school's (the text's, else the
 * cover), a card's (cover, else the pictogram).
 */
export function previewPictures(article: Pictures | undefined) {
  const text = article?.imgContenu && { src: article.imgContenu.src, alt: '' };
  const card: PreviewPicture | undefined = article?.img
    ? { class: 'cover', ...article.img, width: 420 }
    : article?.picto && { class: 'card__picto', ...article.picto, width: 72 };
  return { text, news: article?.img ?? text, school: text ?? article?.img, card };
}

/** Runs the preview: see the module's comment. Never throws (failures become `error` and the response's status). */
export async function previewPage(context: PageContext): Promise<PreviewPage> {
  const id = context.params.id ?? '';
  const session = context.locals.espace;
  const page: PreviewPage = { found: false, draft: false };
  const fail = (failure: unknown) => {
    if (page.error) return;
    ({ status: context.response.status, message: page.error } = failureOf(failure, '[espace/apercu]'));
  };
  if (context.request.method === 'POST') {
    try {
      await readFormPost(context.request);
      const query = publicationQuery(await publishArticle(session, id));
      return { ...page, redirect: `/espace/articles/${id}/apercu?${query}` };
    } catch (failure) {
      fail(failure);
    }
  }
  try {
    const stored = (await loadContent(session, 'articles', id)).data;
    if (!stored) context.response.status = 404;
    page.found = Boolean(stored);
    page.draft = isDraft(stored);
    const parsed = stored ? articleSchema.safeParse(stored) : undefined;
    page.data = parsed?.success ? parsed.data : undefined;
    if (stored) page.status = await articleStatus(session, page.draft, await historyOf(session, 'articles', id, 1));
  } catch (failure) {
    fail(failure);
  }
  // The form's save said « enregistré » or « brouillon » in its query: the banner says it too, or a publish's outcome.
  return page.error ? page : { ...page, ...noticesOf(context.url.searchParams) };
}
