/**
 * A browser draft sent with its form (article-draft-script.ts) ends when the page that follows the post confirms the
 * save (`?enregistre`, `?brouillon`, whichever page the redirect leads to: the form, its preview).
 */
import { loadDraft, saveDraft } from '../../lib/post-json';

/** The sessionStorage key holding the key of the draft whose form was posted last. */
export const SENT_DRAFT = 'espace-brouillon-envoye';

/** Ends the draft sent with the last post when this page confirms a save. */
export function endSentDraft(search: string): void {
  const query = new URLSearchParams(search);
  if (!query.has('enregistre') && !query.has('brouillon')) return;
  const sent = loadDraft(SENT_DRAFT);
  if (typeof sent === 'string') saveDraft(sent);
  saveDraft(SENT_DRAFT);
}
