/**
 * The work of /espace/articles/<id> (the page only renders): its post (a restore, a save, or a save and publish), then
 * what the form shows: the fields, the refusals, the history, the online status and the notice of what just happened.
 */
import type { PageContext } from '../page-context';
import { ADDRESS_ARTICLE } from '../../../content-association';
import { failureOf } from '../../espace/server-calls.server';
import { ARTICLE_MESSAGES } from './articles';
import {
  ArticleRefused,
  fieldsOf,
  listArticles,
  openArticle,
  postedArticleFields,
  readArticlePost,
  saveArticle,
  type ArticleFields,
} from './articles.server';
import { restoreArticle } from './article-history.server';
import { historyOf, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES, type FieldIssue } from '../editing/messages';
import { publicationQuery, publish } from '../publishing/publish.server';
import { publicationMessage, publicationOfQuery } from '../publishing/report';
import { articleStatus, publishSettings } from '../publishing/article-publishing.server';
import type { OnlineStatus } from '../publishing/online-status';
import { linkTargets, type LinkTarget } from './link-targets';

/** What the page renders; `redirect` when it must answer with a 303 instead. */
export interface ArticlePage {
  redirect?: string;
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

/** Where a post goes next: the preview, the form, each with what happened (`?enregistre`, `?publication=…`). */
async function handlePost(context: PageContext, id: string): Promise<string> {
  const session = context.locals.espace;
  const form = await readArticlePost(context.request);
  const entry = form.get('restaurer');
  if (typeof entry === 'string') {
    await restoreArticle(session, id, entry);
    return `/espace/articles/${id}?restaure`;
  }
  const publishing = form.get('suite') === 'publier';
  // « Publier » takes the draft off: what the editor sees is what goes online.
  if (publishing) form.delete('brouillon');
  const saved = await saveArticle(session, id, form, context.url.origin);
  if (publishing) {
    return `/espace/articles/${saved.id}?${publicationQuery(await publish(session, publishSettings()))}`;
  }
  const page = `/espace/articles/${saved.id}${form.get('suite') === 'apercu' ? '/apercu' : ''}`;
  return `${page}?${saved.brouillon ? 'brouillon' : 'enregistre'}`;
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

/** Runs the page: see the module's comment. Never throws (failures become `error` and the response's status). */
export async function articlePage(context: PageContext): Promise<ArticlePage> {
  const id = context.params.id ?? '';
  // The address article (plain lines for the footer and the receipts) has its own form with the association's texts.
  if (id === ADDRESS_ARTICLE)
    return { redirect: '/espace/association', creating: false, issues: [], history: [], links: [] };
  const page: ArticlePage = { creating: id === 'nouveau', issues: [], history: [], links: [] };
  const session = context.locals.espace;
  const fail = (failure: unknown) => {
    if (page.error) return; // the first failure is the one to say
    ({ status: context.response.status, message: page.error } = failureOf(failure, '[espace/articles]'));
  };
  if (context.request.method === 'POST') {
    try {
      return { ...page, redirect: await handlePost(context, id) };
    } catch (failure) {
      if (failure instanceof ArticleRefused) {
        context.response.status = 400;
        ({ issues: page.issues, fields: page.fields } = failure);
      } else fail(failure);
    }
  }
  // A post sent after the session ended, given back once signed in again (session.server.ts): the form shows it.
  const kept = context.locals.keptPost;
  if (kept && !page.fields) {
    page.fields = postedArticleFields((name) => kept.fields.find(([field]) => field === name)?.[1] ?? '');
    context.locals.keptPostUsed = true;
  }
  try {
    page.links = linkTargets(await listArticles(session));
    if (!page.creating) {
      page.fields ??= await openArticle(session, id);
      page.history = await historyOf(session, 'articles', id);
      page.status = await articleStatus(session, page.fields.brouillon, page.history);
    }
  } catch (failure) {
    fail(failure);
  }
  if (page.creating) page.fields ??= fieldsOf(undefined, 0);
  return page.error || page.issues.length > 0 ? page : { ...page, ...noticesOf(context.url.searchParams) };
}
