/**
 * The content history (collection `historique`, written by content-store.server.ts with each change): a document's
 * changes, one entry, and restoring the version an entry kept. docs/editing.md.
 */
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import type * as z from 'zod';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { HttpError } from '../../../lib/http';
import type { StaffSession } from '../../espace/auth.server';
import { bounded } from '../../espace/server-calls.server';
import {
  HISTORY,
  ID_PATTERN,
  assertId,
  entryFor,
  placesOf,
  saveContent,
  storedOf,
  type ContentCollection,
  type HistoryAction,
} from './content-store.server';
import { assertEditor } from './editing';
import { EDITING_MESSAGES } from './messages';

/** Each action's French label, as the history lists show it. */
export const HISTORY_ACTION_LABELS: Record<HistoryAction, string> = {
  creation: 'Création',
  modification: 'Modification',
  suppression: 'Suppression',
  restauration: 'Restauration d’une version',
};

/** One change: `qui` the editor's email, `date`, `collection` and `documentId`, the version before it (`avant`). */
export interface HistoryEntry {
  id: string;
  qui: string;
  date: Date | undefined;
  action: HistoryAction;
  collection: string;
  documentId: string;
  /** The document as stored before the change; null when it did not exist. */
  avant: DocumentData | null;
}

/** A stored history entry as HistoryEntry. */
function toEntry(id: string, data: DocumentData): HistoryEntry {
  const date = data.date instanceof Timestamp ? data.date.toDate() : undefined;
  return {
    id,
    qui: String(data.qui ?? ''),
    date,
    action: (data.action as HistoryAction) ?? 'modification',
    collection: String(data.collection ?? ''),
    documentId: String(data.documentId ?? ''),
    avant: (data.avant as DocumentData | null) ?? null,
  };
}

/** A document's changes, newest first (at most `limit`, default 50). @throws HttpError 403, 400, 503. */
export async function historyOf(
  session: StaffSession | undefined,
  collection: ContentCollection,
  id: string,
  limit = 50,
): Promise<HistoryEntry[]> {
  assertEditor(session);
  assertId(id);
  const query = adminFirestore().collection(HISTORY).where('objet', '==', `${collection}/${id}`);
  const snapshot = await bounded('history', query.get());
  return snapshot.docs
    .map((document) => toEntry(document.id, document.data()))
    .toSorted((a, b) => (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0))
    .slice(0, limit);
}

/**
 * How many content changes were recorded after `since` (all without it), at most 1,000: the /espace home's count of
 * what an editor may still have to publish. @throws HttpError 403, 503.
 */
export async function editsSince(session: StaffSession | undefined, since: Date | undefined): Promise<number> {
  assertEditor(session);
  const history = adminFirestore().collection(HISTORY);
  const query = since ? history.where('date', '>', Timestamp.fromDate(since)) : history;
  return (await bounded('history', query.select().limit(1000).get())).size;
}

/** One history entry. @throws HttpError 403, 404 EDITING_MESSAGES.versionNotFound, 503. */
export async function historyEntry(session: StaffSession | undefined, entryId: string): Promise<HistoryEntry> {
  assertEditor(session);
  if (!ID_PATTERN.test(entryId)) throw new HttpError(404, EDITING_MESSAGES.versionNotFound);
  const snapshot = await bounded('entry', adminFirestore().collection(HISTORY).doc(entryId).get());
  if (!snapshot.exists) throw new HttpError(404, EDITING_MESSAGES.versionNotFound);
  return toEntry(snapshot.id, snapshot.data() as DocumentData);
}

/**
 * The history entry `entryId` when it is a change of one of `documents` (`collection/id`: the page's own documents),
 * so that a page restores nothing of another. @throws HttpError 404 EDITING_MESSAGES.versionNotFound otherwise; 403,
 * 503.
 */
export async function ownHistoryEntry(
  session: StaffSession | undefined,
  entryId: string,
  documents: readonly string[],
): Promise<HistoryEntry> {
  const entry = await historyEntry(session, entryId);
  if (!documents.includes(`${entry.collection}/${entry.documentId}`)) {
    throw new HttpError(404, EDITING_MESSAGES.versionNotFound);
  }
  return entry;
}

/**
 * Puts back the version that history entry `entryId` kept, when it is a change of one of `documents` (ownHistoryEntry).
 * @throws as ownHistoryEntry and restoreVersion.
 */
export async function restoreOwnVersion(
  session: StaffSession | undefined,
  entryId: string,
  documents: readonly string[],
): Promise<void> {
  await ownHistoryEntry(session, entryId, documents);
  await restoreVersion(session, entryId);
}

/** The changes of several documents (`[collection, id]`), newest first. @throws as historyOf. */
export async function historyOfAll(
  session: StaffSession | undefined,
  documents: readonly (readonly [ContentCollection, string])[],
): Promise<HistoryEntry[]> {
  const lists = await Promise.all(documents.map(([collection, id]) => historyOf(session, collection, id)));
  return lists.flat().toSorted((a, b) => (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0));
}

/**
 * Puts back the version an entry kept (`avant`: the document before that change), itself recorded as `restauration`
 * (so a restore can be undone too). A version that did not exist (the entry of a creation) deletes the document.
 * The restored data is validated like a save (an old version the pull would no longer accept is refused).
 * @throws HttpError 403, 404 EDITING_MESSAGES.versionNotFound, ContentRejected, 503.
 */
export async function restoreVersion(
  session: StaffSession | undefined,
  entryId: string,
  schema?: z.ZodType,
): Promise<HistoryEntry> {
  const entry = await historyEntry(session, entryId);
  if (entry.avant) {
    await saveContent(
      session,
      { collection: entry.collection, id: entry.documentId, data: entry.avant, schema },
      'restauration',
    );
    return entry;
  }
  assertEditor(session);
  const db = adminFirestore();
  await bounded(
    'restore',
    db.runTransaction(async (transaction) => {
      const snapshots = await transaction.getAll(...placesOf(entry.collection, entry.documentId));
      for (const snapshot of snapshots) if (snapshot.exists) transaction.delete(snapshot.ref);
      const before = storedOf(snapshots);
      transaction.create(
        db.collection(HISTORY).doc(),
        entryFor(session as StaffSession, 'restauration', entry.collection, entry.documentId, before?.data()),
      );
    }),
  );
  return entry;
}
