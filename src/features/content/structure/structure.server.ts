/**
 * The structure pages' reads and writes: what a category's order and texts, a menu or the association's document look
 * like in the database now (not as last published), their saves and a category's restores, all through the editing
 * layer (src/features/content/editing/content-store.server.ts: the role, the pull's schema, the history, the stale-form check).
 */
import type { DocumentData } from 'firebase-admin/firestore';
import { ASSOCIATION_DOCUMENT } from '../../../content-association';
import { toSeconds } from '../../../content.config';
import type { StaffSession } from '../../espace/auth.server';
import { ContentRejected, listContent, loadContent, saveContent } from '../editing/content-store.server';
import {
  categoryOrder,
  ORDERED_CATEGORIES,
  schemaErrors,
  type FieldErrors,
  type OrderedCategory,
  type RawDocument,
} from './structure';

/** An item of a category's order: its id, title and date (seconds) as stored. */
export interface OrderItem {
  id: string;
  titre: string;
  date: number | undefined;
}

/** A category as its order page shows it: titre, the items in the site's order, the document and its version. */
export interface CategoryState {
  titre: string;
  items: OrderItem[];
  document: RawDocument | undefined;
  version: number;
}

const titreOf = (data: DocumentData, id: string) =>
  typeof data.titre === 'string' && data.titre.trim() ? data.titre.trim() : id;

/**
 * Category `id` and its articles (or, for `partenaires`, every partner) in the order the site shows them: the listed
 * ones first, then the others newest first (partners: by name), as src/content.ts sorts them.
 * @throws HttpError 403 unless an editor, 503.
 */
export async function loadCategory(session: StaffSession | undefined, id: OrderedCategory): Promise<CategoryState> {
  const source = ORDERED_CATEGORIES[id];
  const [category, documents] = await Promise.all([
    loadContent(session, 'categories', id),
    listContent(session, source),
  ]);
  const items = documents
    .filter(({ data }) => source === 'partenaires' || (typeof data.cat === 'string' && data.cat.trim() === id))
    .map(({ id: itemId, data }) => {
      const date = toSeconds(data.date);
      return { id: itemId, titre: titreOf(data, itemId), date: typeof date === 'number' ? date : undefined };
    })
    .toSorted((a, b) =>
      source === 'partenaires' ? a.titre.localeCompare(b.titre, 'fr') : (b.date ?? 0) - (a.date ?? 0),
    );
  const byId = new Map(items.map((item) => [item.id, item]));
  const order = categoryOrder(category.data?.articles, [...byId.keys()]);
  return {
    titre: category.data ? titreOf(category.data, id) : id,
    items: order.map((itemId) => byId.get(itemId)!),
    document: category.data,
    version: category.version,
  };
}

/**
 * Saves category `id`'s order (`articles` = `ids`), keeping its other fields (a category the database lacks gets its
 * id as titre); returns the new version. @throws as saveContent (409 when changed since `expectedVersion`).
 */
export async function saveCategoryOrder(
  session: StaffSession | undefined,
  id: OrderedCategory,
  state: CategoryState,
  ids: string[],
  expectedVersion: number,
): Promise<number> {
  const data = { titre: id, descr: '', ...state.document, articles: ids };
  return saveContent(session, { collection: 'categories', id, data, expectedVersion });
}

/** A category's title and description as its form shows them. */
export interface CategoryText {
  titre: string;
  descr: string;
}

/**
 * Saves category `id`'s `titre` (required: the pull's schema) and `descr` (shown under the page's title), keeping its
 * `articles` as stored (`[]` for a category the database lacks); returns the schema's French errors by field (`{}`
 * when saved). @throws as saveContent (409 when changed since `expectedVersion`).
 */
export async function saveCategoryText(
  session: StaffSession | undefined,
  id: OrderedCategory,
  state: CategoryState,
  text: CategoryText,
  expectedVersion: number,
): Promise<FieldErrors> {
  const data = { articles: [], ...state.document, titre: text.titre, descr: text.descr };
  const errors = schemaErrors('categories', data);
  if (Object.keys(errors).length > 0) return errors;
  try {
    await saveContent(session, { collection: 'categories', id, data, expectedVersion });
  } catch (error) {
    if (!(error instanceof ContentRejected)) throw error;
    return Object.fromEntries(error.issues.map((issue) => [issue.field || '(document)', issue.message]));
  }
  return {};
}

/** The association's document as stored (undefined when absent) and its version. @throws HttpError 403, 503. */
export function loadAssociation(session: StaffSession | undefined) {
  return loadContent(session, 'association', ASSOCIATION_DOCUMENT);
}
