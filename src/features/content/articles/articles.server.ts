/**
 * The articles of the space (/espace/articles): the list, and a form post turned into the document in the original
 * admin's shape, checked (the pull's schema through the editing layer, sanitised HTML without scripts, a unique slug,
 * described pictures) and saved with its history. Nothing is written when anything is refused; the form gets back
 * what was typed with a French message per field.
 */
import type { DocumentData } from 'firebase-admin/firestore';
import { LEGAL_PAGES, toSeconds, type LegalId } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { holdsScript, refusedLinks, sanitizeEditorHtml } from '../../../lib/html.server';
import { mediaType, readBoundedBody } from '../../../lib/endpoint.server';
import { HttpError } from '../../../lib/http';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { assertPlainFields } from '../../espace/form-post.server';
import type { StaffSession } from '../../espace/auth.server';
import { ContentRejected, listContent, loadContent, saveContent } from '../editing/content-store.server';
import type { FieldIssue } from '../editing/messages';
import { CONTENT_TEXT_MAX } from '../editing/text-bounds';
import {
  ARTICLE_MESSAGES,
  MAX_PICTURE_BYTES,
  SLUG_PATTERN,
  dateInputToSeconds,
  isArticleCategory,
  reservedSlug,
  secondsToDateInput,
  slugify,
  todayInParis,
} from './articles';
import {
  PICTURE_FORM_FIELDS,
  pictureData,
  pictureFieldsOf,
  postedPictureFields,
  storePostedPictures,
  type PictureFields,
} from './article-pictures.server';

/** A line of the list: id, titre, category, date (seconds), draft or not, the address of its page. */
export interface ArticleSummary {
  id: string;
  titre: string;
  cat: string;
  date: number | undefined;
  brouillon: boolean;
  slug: string;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** The list, newest first within each category. @throws HttpError 403, 503. */
export async function listArticles(session: StaffSession | undefined): Promise<ArticleSummary[]> {
  const documents = await listContent(session, 'articles');
  return documents
    .map(({ id, data }) => {
      const seconds = toSeconds(data.date);
      return {
        id,
        titre: textOf(data.titre).trim() || id,
        cat: textOf(data.cat).trim(),
        date: typeof seconds === 'number' ? seconds : undefined,
        brouillon: isDraft(data),
        slug: textOf(data.slug).trim() || id,
      };
    })
    .toSorted((a, b) => (b.date ?? 0) - (a.date ?? 0) || a.titre.localeCompare(b.titre, 'fr'));
}

/** The form's fields, as strings (what the page shows back after a refusal); the pictures' in PictureFields. */
export interface ArticleFields extends PictureFields {
  titre: string;
  slug: string;
  cat: string;
  date: string;
  intro: string;
  contenu: string;
  brouillon: boolean;
  version: string;
}

/** A stored article as the form's fields (`''` for none, the date as YYYY-MM-DD in Paris; a new one's: today). */
export function fieldsOf(data: DocumentData | undefined, version: number): ArticleFields {
  return {
    titre: textOf(data?.titre),
    slug: textOf(data?.slug),
    cat: textOf(data?.cat) || 'actualites',
    // A new article is dated today; an old one keeps its date, or none (the form then asks for one for the news).
    date: data ? secondsToDateInput(data.date) : todayInParis(),
    intro: textOf(data?.intro),
    contenu: textOf(data?.contenu),
    ...pictureFieldsOf(data),
    brouillon: isDraft(data),
    version: String(version),
  };
}

/** The form's fields as posted (`text`: a field's value, '' when absent): a save's, or a post kept after a session. */
export function postedArticleFields(text: (name: string) => string): ArticleFields {
  return {
    titre: text('titre').trim(),
    slug: text('slug').trim(),
    cat: text('cat'),
    date: text('date'),
    intro: text('intro'),
    contenu: text('contenu'),
    ...postedPictureFields(text),
    brouillon: text('brouillon') === 'oui',
    version: text('version'),
  };
}

/** A refused form: HTTP 400 with its French messages per form field (`''`: the whole form) and the typed fields. */
export class ArticleRefused extends HttpError {
  override name = 'ArticleRefused';
  readonly issues: FieldIssue[];
  readonly fields: ArticleFields;

  constructor(issues: FieldIssue[], fields: ArticleFields) {
    super(400, issues[0]?.message ?? ARTICLE_MESSAGES.notFound);
    this.issues = issues;
    this.fields = fields;
  }
}

/** An article form's post: each field's text by its name (absent: '') and the pictures' files (ARTICLE_PICTURES). */
export type ArticlePost = Readonly<Record<string, string | Blob | undefined>>;

/**
 * Saves the form post of article `id` (`'nouveau'` creates one, its id being its slug): returns its id. Refused: a slug
 * reserved (reservedSlug), malformed, taken or not derivable from the title; a script; a legal page (LEGAL_PAGES) as a
 * draft or out of category `legal`.
 * @throws ArticleRefused (400) with a French message per field and the typed fields; HttpError 403, 404, 409, 503.
 */
export async function saveArticle(
  session: StaffSession | undefined,
  id: string,
  posted: ArticlePost,
  origin: string,
): Promise<{ id: string; brouillon: boolean }> {
  const creating = id === 'nouveau';
  const fields = postedArticleFields((name) => {
    const value = posted[name];
    return typeof value === 'string' ? value : '';
  });
  const issues: FieldIssue[] = [];
  const refuse = (field: string, message: string) => issues.push({ field, message });

  // An existing article keeps its slug unless the editor changes it; a new one takes its title's, when it gives one.
  fields.slug ||= creating ? slugify(fields.titre) : '';
  if (creating && !fields.slug) {
    if (fields.titre) refuse('slug', ARTICLE_MESSAGES.slugEmpty);
    else refuse('titre', ARTICLE_MESSAGES.titleEmpty);
  } else if (fields.slug && !SLUG_PATTERN.test(fields.slug)) refuse('slug', ARTICLE_MESSAGES.slugShape);
  else {
    const reserved = reservedSlug(fields.slug || id);
    if (reserved) refuse('slug', reserved);
  }
  // The news are sorted by date: an undated one would go after all the others without anyone noticing.
  if (fields.cat === 'actualites' && !fields.date.trim()) refuse('date', ARTICLE_MESSAGES.dateMissing);
  for (const name of ['intro', 'contenu'] as const) {
    const refused = refusedLinks(fields[name])[0];
    if (holdsScript(fields[name])) refuse(name, ARTICLE_MESSAGES.script);
    else if (refused !== undefined) refuse(name, ARTICLE_MESSAGES.badLink(refused));
    else fields[name] = sanitizeEditorHtml(fields[name]);
  }

  const all = await listContent(session, 'articles');
  const targetId = creating ? fields.slug || slugify(fields.titre) : id;
  const existing = all.find((document) => document.id === targetId);
  if (!creating && !existing) throw new HttpError(404, ARTICLE_MESSAGES.notFound);
  // A legal page's article is never a draft nor elsewhere: the pull would not read it and the site would write its own.
  const legal = Object.hasOwn(LEGAL_PAGES, targetId) ? LEGAL_PAGES[targetId as LegalId] : undefined;
  if (legal && fields.brouillon) refuse('brouillon', ARTICLE_MESSAGES.legalDraft(legal));
  if (legal && fields.cat !== 'legal') refuse('cat', ARTICLE_MESSAGES.legalCategory(legal));
  // A category the form does not offer (the original admin's own, such as the address article's `divers`) is kept as
  // it was; the form shows it as the article's, so that a save never moves the article elsewhere.
  else if (!isArticleCategory(fields.cat) && (!fields.cat || fields.cat !== textOf(existing?.data.cat).trim())) {
    refuse('cat', ARTICLE_MESSAGES.category);
  }
  const wanted = fields.slug || targetId;
  const clash = all.find(
    (document) => document.id !== targetId && (textOf(document.data.slug).trim() || document.id) === wanted,
  );
  if (clash || (creating && existing)) {
    const other = clash ?? existing;
    refuse('slug', ARTICLE_MESSAGES.slugTaken(textOf(other?.data.titre).trim() || (other?.id ?? '')));
  }

  // A good picture is kept (its address goes back in the form) even when another field is refused.
  await storePostedPictures(posted, fields, origin, issues);
  if (issues.length > 0) throw new ArticleRefused(issues, fields);

  const { brouillon: _draft, ...kept } = existing?.data ?? {};
  const data: DocumentData = {
    ...kept,
    slug: fields.slug,
    cat: fields.cat,
    titre: fields.titre,
    intro: fields.intro,
    contenu: fields.contenu,
    date: fields.date.trim() ? dateInputToSeconds(fields.date) : '',
    ...pictureData(fields),
    ...(fields.brouillon && { brouillon: true }),
  };
  const version = creating ? 0 : Number(fields.version);
  try {
    await saveContent(session, {
      collection: 'articles',
      id: targetId,
      data,
      expectedVersion: Number.isFinite(version) && fields.version !== '' ? version : undefined,
    });
  } catch (error) {
    if (error instanceof ContentRejected) {
      throw new ArticleRefused(
        error.issues.map((issue) => ({ ...issue, field: PICTURE_FORM_FIELDS[issue.field] ?? issue.field })),
        fields,
      );
    }
    if (error instanceof HttpError && error.status === 409)
      throw new ArticleRefused([{ field: '', message: error.message }], fields);
    throw error;
  }
  return { id: targetId, brouillon: fields.brouillon };
}

/** The article to edit: its fields and its version. @throws HttpError 403, 404 ARTICLE_MESSAGES.notFound, 503. */
export async function openArticle(session: StaffSession | undefined, id: string): Promise<ArticleFields> {
  const { data, version } = await loadContent(session, 'articles', id);
  if (!data) throw new HttpError(404, ARTICLE_MESSAGES.notFound);
  return fieldsOf(data, version);
}

/** Largest article form post (bytes): a picture of MAX_PICTURE_BYTES and room for the texts. */
const MAX_POST_BYTES = MAX_PICTURE_BYTES + 2 * 1024 * 1024;

/**
 * The article form's post (multipart with its picture, or URL-encoded), read bounded.
 * @throws HttpError 413 ARTICLE_MESSAGES.bodyTooLarge past MAX_POST_BYTES, 415 / 400 ESPACE_MESSAGES.badForm, 400 as
 *   assertPlainFields (a control character, a text past an article's content).
 */
export async function readArticlePost(request: Request): Promise<FormData> {
  const type = mediaType(request);
  if (type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, ESPACE_MESSAGES.badForm);
  }
  const body = await readBoundedBody(request, MAX_POST_BYTES).catch((error: unknown) => {
    throw error instanceof HttpError && error.status === 413
      ? new HttpError(413, ARTICLE_MESSAGES.bodyTooLarge)
      : error;
  });
  const form = await new Response(body, { headers: request.headers }).formData().catch((error: unknown) => {
    throw new HttpError(400, ESPACE_MESSAGES.badForm, { cause: error });
  });
  // The longest field is an article's HTML; the editing layer bounds each field by its own limit (text-bounds.ts).
  assertPlainFields(form, CONTENT_TEXT_MAX.contenu!);
  return form;
}
