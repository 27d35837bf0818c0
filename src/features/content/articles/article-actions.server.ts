/**
 * The forms of an article's pages as Astro Actions (src/actions/index.ts): the article's form on /espace/articles/<id>
 * (`nouveau`: a new one; multipart with its pictures, then its preview, its form or a publish), the history's
 * restore, and « Publier » on its preview. The article is the page's own (`context.params.id`), never one the form
 * names.
 */
import { ActionError } from 'astro:actions';
import * as z from 'zod';
import { FieldsRefused, staffAction, staffText } from '../../espace/staff-action.server';
import { CONTENT_TEXT_MAX } from '../editing/text-bounds';
import { publishArticle, publishSettings } from '../publishing/article-publishing.server';
import { publicationQuery, publish } from '../publishing/publish.server';
import { restoreArticle } from './article-history.server';
import { ARTICLE_MESSAGES } from './articles';
import { ArticleRefused, saveArticle, type ArticleFields } from './articles.server';

/** The page's article id (`nouveau` on the new article's form). @throws ActionError NOT_FOUND outside one. */
function articleOf(params: Record<string, string | undefined>): string {
  const id = params.id;
  if (!id) throw new ActionError({ code: 'NOT_FOUND', message: ARTICLE_MESSAGES.notFound });
  return id;
}

/** A text of the article's form: spaces kept (saveArticle trims what it must), bounded by the longest, an HTML text. */
const text = staffText(CONTENT_TEXT_MAX.contenu!, true);

/** A picture's file input: absent, empty (nothing chosen) or the file. */
const upload = z.instanceof(File).optional();

/** What a refused save made of its post (what was typed, its good pictures stored), for the page showing the refusal. */
const refusedSaves = new WeakMap<Request, ArticleFields>();

/** The fields of a save of this request that was refused (articleActions.save), if any. */
export const refusedSave = (request: Request): ArticleFields | undefined => refusedSaves.get(request);

export const articleActions = {
  /**
   * Saves the article's form (saveArticle) and returns where the page goes: its preview (`suite=apercu`), its form
   * (`?enregistre` or `?brouillon`), or with `suite=publier` the form after a publish (`?publication=…`), the draft
   * taken off first (what the editor sees is what goes online).
   * @throws FieldsRefused with saveArticle's French messages (the refused post kept: refusedSave); ActionError 404,
   *   409, 503.
   */
  save: staffAction(
    'articles',
    z.object({
      titre: text,
      slug: text,
      cat: text,
      date: text,
      intro: text,
      contenu: text,
      brouillon: text,
      version: text,
      suite: text,
      image: upload,
      imgSrc: text,
      imgAlt: text,
      retirerImage: text,
      picto: upload,
      pictoSrc: text,
      pictoAlt: text,
      retirerPicto: text,
      imageContenu: upload,
      imgContenuSrc: text,
      retirerImageContenu: text,
    }),
    async (posted, { session, context }) => {
      const id = articleOf(context.params);
      const publishing = posted.suite === 'publier';
      let saved: { id: string; brouillon: boolean };
      try {
        saved = await saveArticle(session, id, publishing ? { ...posted, brouillon: '' } : posted, context.url.origin);
      } catch (failure) {
        if (!(failure instanceof ArticleRefused)) throw failure;
        refusedSaves.set(context.request, failure.fields);
        const errors: Record<string, string> = {};
        for (const { field, message } of failure.issues) errors[field] ??= message;
        throw new FieldsRefused(errors);
      }
      if (publishing) {
        return `/espace/articles/${saved.id}?${publicationQuery(await publish(session, publishSettings()))}`;
      }
      const page = `/espace/articles/${saved.id}${posted.suite === 'apercu' ? '/apercu' : ''}`;
      return `${page}?${saved.brouillon ? 'brouillon' : 'enregistre'}`;
    },
  ),

  /** Puts back the version before history entry `restaurer`, when it is a change of this article (restoreArticle). */
  restore: staffAction(
    'articles',
    z.object({ restaurer: staffText(200) }),
    async ({ restaurer }, { session, context }) => restoreArticle(session, articleOf(context.params), restaurer),
  ),

  /** « Publier » on the preview: the draft taken off, then a publish; returns its outcome's query (`publication=…`). */
  publish: staffAction('articles', z.object({}), async (_input, { session, context }) =>
    publicationQuery(await publishArticle(session, articleOf(context.params))),
  ),
};
