/**
 * The work of /espace/articles/<id>/apercu (the page renders, through src/content.ts toView as the build does): after
 * its « Publier » action (articles.publish) the redirect to its outcome, else the saved article read by the pull's schema, whether it is online and what
 * just happened; previewPictures: the pictures each page would show.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { articleSchema, type Article } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { loadContent } from '../editing/content-store.server';
import { historyOf } from '../editing/history.server';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { articleStatus } from '../publishing/article-publishing.server';
import type { OnlineStatus } from '../publishing/online-status';
import { noticesOf } from './article-page.server';

/** A picture as the preview shows it: its address as stored (not yet pulled), its text, its class and width (px). */
export interface PreviewPicture {
  src: string;
  alt: string;
  class?: string;
  width?: number;
}

/** What the preview renders. */
export interface PreviewPage {
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

/**
 * What the preview shows, or the redirect (303) to `?publication=…` after its « Publier ». Never throws (failures
 * become `error` and the page's status).
 */
export async function previewPage(context: AstroGlobal): Promise<PreviewPage | Response> {
  const id = context.params.id ?? '';
  const result = context.getActionResult(actions.articles.publish);
  if (result?.data) return context.redirect(`/espace/articles/${id}/apercu?${result.data}`, 303);
  const posted = formOutcome(context, result);
  const session = context.locals.espace;
  const page: PreviewPage = { found: false, draft: false };
  if (posted.state === 'refused') page.error = posted.message;
  try {
    const stored = (await loadContent(session, 'articles', id)).data;
    if (!stored) context.response.status = 404;
    page.found = Boolean(stored);
    page.draft = isDraft(stored);
    const parsed = stored ? articleSchema.safeParse(stored) : undefined;
    page.data = parsed?.success ? parsed.data : undefined;
    if (stored) page.status = await articleStatus(session, page.draft, await historyOf(session, 'articles', id, 1));
  } catch (failure) {
    if (!page.error) ({ status: context.response.status, message: page.error } = failureOf(failure, '[espace/apercu]'));
  }
  // The form's save said « enregistré » or « brouillon » in its query: the banner says it too, or a publish's outcome.
  return page.error ? page : { ...page, ...noticesOf(context.url.searchParams) };
}
