/**
 * Restoring an article's older version from its page (/espace/articles/<id>): only an entry of that article's own
 * history, and only a version the site can still publish as it stands (its link not taken meanwhile by another article,
 * a legal page kept a published page of category `legal`). Nothing is written when refused.
 */
import { LEGAL_PAGES, type LegalId } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { HttpError } from '../../../lib/http';
import type { StaffSession } from '../../espace/auth.server';
import { listContent } from '../editing/content-store.server';
import { ownHistoryEntry, restoreVersion } from '../editing/history.server';
import { ARTICLE_MESSAGES } from './articles';

const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Puts back the version of article `id` that history entry `entryId` kept (recorded as `restauration`).
 * @throws HttpError 404 EDITING_MESSAGES.versionNotFound for an entry of another document; 409
 * ARTICLE_MESSAGES.legalRestore for a legal page's draft, other category or deletion; 409
 * ARTICLE_MESSAGES.restoreSlugTaken when another article has the version's link now; as restoreVersion (403, 503).
 */
export async function restoreArticle(session: StaffSession | undefined, id: string, entryId: string): Promise<void> {
  const { avant } = await ownHistoryEntry(session, entryId, [`articles/${id}`]);
  if (Object.hasOwn(LEGAL_PAGES, id) && (!avant || isDraft(avant) || textOf(avant.cat) !== 'legal')) {
    throw new HttpError(409, ARTICLE_MESSAGES.legalRestore(LEGAL_PAGES[id as LegalId]));
  }
  if (avant) {
    const slug = textOf(avant.slug) || id;
    const others = await listContent(session, 'articles');
    const clash = others.find((other) => other.id !== id && (textOf(other.data.slug) || other.id) === slug);
    if (clash) throw new HttpError(409, ARTICLE_MESSAGES.restoreSlugTaken(slug, textOf(clash.data.titre) || clash.id));
  }
  await restoreVersion(session, entryId);
}
