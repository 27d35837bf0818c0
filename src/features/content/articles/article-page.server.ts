/**
 * The work of /espace/articles/<id> (the page only renders): after one of its actions (article-actions.server.ts) the
 * redirect it asks for, or its refusal with what was typed; then what the form shows: the fields, the history, the
 * online status and the notice of what just happened.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { ADDRESS_ARTICLE } from '../../../content-association';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { ARTICLE_MESSAGES } from './articles';
import { fieldsOf, listArticles, openArticle, postedArticleFields, type ArticleFields } from './articles.server';
import { refusedSave } from './article-actions.server';
import { historyOf, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES, type FieldIssue } from '../editing/messages';
import { publicationMessage, publicationOfQuery } from '../publishing/report';
import { articleStatus } from '../publishing/article-publishing.server';
import type { OnlineStatus } from '../publishing/online-status';
import { linkTargets, type LinkTarget } from './link-targets';

/** What the page renders. */
export interface ArticlePage {
  creating: boolean;
  fields?: ArticleFields;
  issues: FieldIssue[];
  error?: string;
  history: HistoryEntry[];
  status?: OnlineStatus;
  /** The site's pages and articles, for the link dialog. */
  links: LinkTarget[];
  /** The good news to say (saved, restored, publish launched). */
  notice?: string;
  /** A publish that did not start (`attente`, `erreur`): said as an alert. */
  warning?: string;
}

/** The notice of the query (`?enregistre`, `?brouillon`, `?restaure`, `?publication=lancee`), and a failed publish. */
export function noticesOf(params: URLSearchParams): Pick<ArticlePage, 'notice' | 'warning'> {
  const { outcome, next } = publicationOfQuery(params);
  if (outcome === 'lancee') return { notice: publicationMessage(outcome) };
  // Not launched: the save before it is done all the same.
  if (outcome) return { warning: `L’article est enregistré. ${publicationMessage(outcome, next)}` };
  if (params.has('enregistre')) return { notice: ARTICLE_MESSAGES.saved };
  if (params.has('brouillon')) return { notice: ARTICLE_MESSAGES.savedDraft };
  return params.has('restaure') ? { notice: EDITING_MESSAGES.restored } : {};
}

/**
 * What the page shows, or the Response it answers instead: the association's form for the address article, the
 * redirect (303) an action asked for. Never throws (failures become `error` and the page's status).
 */
export async function articlePage(context: AstroGlobal): Promise<ArticlePage | Response> {
  const id = context.params.id ?? '';
  // The address article (plain lines for the footer and the receipts) has its own form with the association's texts.
  if (id === ADDRESS_ARTICLE) return context.redirect('/espace/association', 303);
  const saveResult = context.getActionResult(actions.articles.save);
  if (saveResult?.data) return context.redirect(saveResult.data, 303);
  const restorePost = formOutcome(context, context.getActionResult(actions.articles.restore));
  if (restorePost.state === 'done') return context.redirect(`/espace/articles/${id}?restaure`, 303);
  const savePost = formOutcome(context, saveResult);

  const page: ArticlePage = { creating: id === 'nouveau', issues: [], history: [], links: [] };
  const refusal = [savePost, restorePost].find((post) => post.state === 'refused');
  if (refusal) {
    page.issues = refusal.issues;
    // Astro refuses a body past security.actionBodySizeLimit in English: said as the pictures' limit.
    if (saveResult?.error?.code === 'CONTENT_TOO_LARGE') page.error = ARTICLE_MESSAGES.bodyTooLarge;
    else if (refusal.issues.length === 0) page.error = refusal.message;
  }
  if (savePost.state === 'refused' && savePost.issues.length > 0) {
    // What was typed, with the pictures the save stored; as posted when the form's fields themselves were refused.
    // A copy: the editor's React island reads the post too (@astrojs/react's form state).
    const posted = refusedSave(context.request) ? undefined : await context.request.clone().formData();
    page.fields ??= refusedSave(context.request) ?? postedArticleFields((name) => String(posted?.get(name) ?? ''));
  }
  // A post sent after the session ended, given back once signed in again (session.server.ts): the form shows it.
  const kept = context.locals.keptPost;
  if (kept && !page.fields) {
    page.fields = postedArticleFields((name) => kept.fields.find(([field]) => field === name)?.[1] ?? '');
    context.locals.keptPostUsed = true;
  }
  const session = context.locals.espace;
  try {
    page.links = linkTargets(await listArticles(session));
    if (!page.creating) {
      page.fields ??= await openArticle(session, id);
      page.history = await historyOf(session, 'articles', id);
      page.status = await articleStatus(session, page.fields.brouillon, page.history);
    }
  } catch (failure) {
    if (!page.error)
      ({ status: context.response.status, message: page.error } = failureOf(failure, '[espace/articles]'));
  }
  if (page.creating) page.fields ??= fieldsOf(undefined, 0);
  return page.error || page.issues.length > 0 ? page : { ...page, ...noticesOf(context.url.searchParams) };
}
