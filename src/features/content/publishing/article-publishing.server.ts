/**
 * « Publier » from an article (its form and its preview): the draft mark taken off, then the same publish as
 * /espace/publication (publish.server.ts), and the article's online status (online-status.ts) from the history, the
 * last publish request and the time this build pulled its content. docs/rebuild.md.
 */
import { NETLIFY_BUILD_HOOK_URL } from 'astro:env/server';
import type { ContentReport } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { HttpError } from '../../../lib/http';
import type { StaffSession } from '../../espace/auth.server';
import { ARTICLE_MESSAGES } from '../articles/articles';
import { loadContent, saveContent } from '../editing/content-store.server';
import type { HistoryEntry } from '../editing/history.server';
import { lastPublications, publish, type Publication } from './publish.server';
import { devPullHook, type RebuildOptions } from './rebuild.server';
import { onlineStatus, type OnlineStatus } from './online-status';

/** The build hook, or under `npm start` its re-pull (DEV_PULL_URL); a production build drops the dev branch. */
export function publishSettings(): Omit<RebuildOptions, 'secret'> {
  return {
    hookUrl: NETLIFY_BUILD_HOOK_URL,
    pull: import.meta.env.DEV ? devPullHook(process.env.DEV_PULL_URL) : undefined,
  };
}

// The report of the pull this very build (or, under `npm start`, the last re-pull) published.
const reports = import.meta.glob<ContentReport>('../../../data/report.json', { eager: true, import: 'default' });

/** When the content online was pulled (report.json `generatedAt`), or undefined without a report. */
export function onlineSince(): Date | undefined {
  const report = Object.values(reports)[0];
  return report ? new Date(report.generatedAt * 1000) : undefined;
}

/**
 * The preview's « Publier »: takes the draft mark off article `id` (a save, recorded in its history), then publishes.
 * @throws HttpError 404 ARTICLE_MESSAGES.notFound; as saveContent and publish (403, 409, 503).
 */
export async function publishArticle(session: StaffSession | undefined, id: string): Promise<Publication> {
  const { data, version } = await loadContent(session, 'articles', id);
  if (!data) throw new HttpError(404, ARTICLE_MESSAGES.notFound);
  if (isDraft(data)) {
    const { brouillon: _draft, ...published } = data;
    await saveContent(session, { collection: 'articles', id, data: published, expectedVersion: version });
  }
  return publish(session, publishSettings());
}

/**
 * The article's online status: `history` is its own, newest first (historyOf), `draft` its mark now.
 * @throws HttpError 403, 503 (lastPublication).
 */
export async function articleStatus(
  session: StaffSession | undefined,
  draft: boolean,
  history: readonly HistoryEntry[],
): Promise<OnlineStatus> {
  // The last launched build, even if someone pressed « Publier » again within its minute since (`attente`).
  const requests = await lastPublications(session, 10);
  const lastRequest = requests.find(({ resultat }) => resultat === 'lancee' || resultat === 'en-cours') ?? requests[0];
  return onlineStatus({ draft, changedAt: history[0]?.date, onlineAt: onlineSince(), lastRequest, now: Date.now() });
}
