/**
 * The space's content writes (firebase-admin): save, delete and restore a content document, each in one Firestore
 * transaction that also writes a history entry (collection `historique`: who, when, what, the previous version). Data
 * is validated with the pull's own zod schema first (src/content.config.ts), so nothing saved here is later left out
 * of the site. Drafts of articles are stored apart, where no browser reads them (DRAFTS). docs/editing.md says how to
 * use it.
 */
import {
  FieldValue,
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
  type Timestamp,
} from 'firebase-admin/firestore';
import type * as z from 'zod';
import { firestoreSchemas } from '../../../content.config';
import { isDraft } from '../../../lib/drafts';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { HttpError } from '../../../lib/http';
import type { StaffSession } from '../../espace/auth.server';
import { bounded } from '../../espace/server-calls.server';
import { assertEditor } from './editing';
import { EDITING_MESSAGES, issuesInFrench, type FieldIssue } from './messages';
import { textIssues } from './text-bounds';

/** The history's collection (no client reads it: firestore.rules refuses every collection but the public content). */
export const HISTORY = 'historique';

/**
 * Where a collection's drafts (isDraft) are stored instead of the collection itself: `articles` is public (the pull
 * reads it with the web key, and rules cannot hide some of a collection's documents from such a read), `brouillons`
 * is read by no client (firestore.rules). The functions below take the public collection's name and move a document
 * between the two as its draft mark changes; the history records it under the public name.
 */
export const DRAFTS: Readonly<Partial<Record<string, string>>> = { articles: 'brouillons' };

/** The references a document of `collection` may be stored at: the collection's, then its drafts' (DRAFTS). */
export function placesOf(collection: string, id: string): DocumentReference[] {
  const db = adminFirestore();
  const drafts = DRAFTS[collection];
  return [db.collection(collection).doc(id), ...(drafts ? [db.collection(drafts).doc(id)] : [])];
}

/** Of a document's places as read, the one that exists (the latest written if a console edit left two). */
export function storedOf(snapshots: DocumentSnapshot[]): DocumentSnapshot | undefined {
  return snapshots
    .filter((snapshot) => snapshot.exists)
    .toSorted((a, b) => versionOf(b.updateTime) - versionOf(a.updateTime))[0];
}

/** What a history entry records. */
export type HistoryAction = 'creation' | 'modification' | 'suppression' | 'restauration';

/** Refused content: HTTP 400 with a French message per field (`field` is the schema's dotted path, '' for all). */
export class ContentRejected extends HttpError {
  override name = 'ContentRejected';
  readonly issues: FieldIssue[];

  constructor(issues: FieldIssue[]) {
    super(400, EDITING_MESSAGES.invalid);
    this.issues = issues;
  }
}

/** A collection the space may write: the pull's four, or another with its own `schema` (see SaveRequest). */
export type ContentCollection = keyof typeof firestoreSchemas | (string & {});

/** A save: the document's collection and id, its data in the original admin's shape, and what it is recorded as. */
export interface SaveRequest {
  collection: ContentCollection;
  id: string;
  /** Stored as given (replacing the whole document), after `schema` (default: the pull's) accepts it. */
  data: DocumentData;
  /** A schema for a collection the pull does not read (else the pull's `firestoreSchemas[collection]`). */
  schema?: z.ZodType;
  /**
   * The document's update time (ms since epoch, `version` of loadContent) when the form was opened; a document changed
   * since is refused (409 EDITING_MESSAGES.changedMeanwhile). 0: the document must not exist yet (creation).
   * Undefined: no check.
   */
  expectedVersion?: number;
}

/** A document as the forms open it: its stored data (undefined when absent) and `version` (update time, ms; 0). */
export interface LoadedContent {
  data: DocumentData | undefined;
  version: number;
}

/** A document id: Firestore's rules (no `/`, not `.` or `..`, at most 1,500 bytes), kept to URL-safe characters. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

export function assertId(id: string): void {
  if (!ID_PATTERN.test(id)) throw new HttpError(400, EDITING_MESSAGES.badId);
}

/** The schema for `collection`. @throws HttpError 400 for a collection without one. */
function schemaOf(collection: string, schema?: z.ZodType): z.ZodType {
  const found = schema ?? (firestoreSchemas as Record<string, z.ZodType>)[collection];
  if (!found) throw new HttpError(400, EDITING_MESSAGES.badId);
  return found;
}

/**
 * @throws ContentRejected with each issue in French unless `schema` accepts `data` whole (the pull would leave out a
 * document, a field or a link it does not accept; the space refuses it instead) and every text is within its bounds
 * (text-bounds.ts: its length, no control character): one issue per field, the bounds' first.
 */
export function validateContent(collection: ContentCollection, data: unknown, schema?: z.ZodType): void {
  const parsed = schemaOf(collection, schema).safeParse(data);
  const issues = [...textIssues(data), ...(parsed.success ? [] : issuesInFrench(parsed.error.issues))];
  const fields = new Set<string>();
  const first = issues.filter(({ field }) => !fields.has(field) && fields.add(field));
  if (first.length > 0) throw new ContentRejected(first);
}

const versionOf = (time: Timestamp | undefined) => (time ? time.toMillis() : 0);

/** The stored document and its version. @throws HttpError 403 unless an editor, 400 for a bad id, 503. */
export async function loadContent(
  session: StaffSession | undefined,
  collection: ContentCollection,
  id: string,
): Promise<LoadedContent> {
  assertEditor(session);
  assertId(id);
  const stored = storedOf(await bounded('load', adminFirestore().getAll(...placesOf(collection, id))));
  return { data: stored?.data(), version: versionOf(stored?.updateTime) };
}

/** Every document of `collection` with its id (lists), its drafts (DRAFTS) included. @throws HttpError 403, 503. */
export async function listContent(
  session: StaffSession | undefined,
  collection: ContentCollection,
): Promise<{ id: string; data: DocumentData }[]> {
  assertEditor(session);
  const db = adminFirestore();
  const names = [collection, DRAFTS[collection]].filter((name) => name !== undefined);
  const snapshots = await bounded('list', Promise.all(names.map((name) => db.collection(name).get())));
  const byId = Map.groupBy(
    snapshots.flatMap((snapshot) => snapshot.docs),
    (document) => document.id,
  );
  return [...byId].map(([id, documents]) => ({ id, data: storedOf(documents)?.data() ?? {} }));
}

/** The history entry of a change, as stored (history.server.ts reads it). */
export function entryFor(session: StaffSession, action: HistoryAction, collection: string, id: string, avant: unknown) {
  return {
    uid: session.uid,
    qui: session.email,
    date: FieldValue.serverTimestamp(),
    action,
    collection,
    documentId: id,
    // One equality field for the history query: no composite index is needed.
    objet: `${collection}/${id}`,
    avant: avant ?? null,
  };
}

/**
 * Saves a content document (SaveRequest) and its history entry in one transaction: `creation` when it did not exist,
 * else `modification` (`restauration` from restoreVersion). A draft goes to the collection's drafts (DRAFTS), anything
 * else to the collection, and the other place is cleared. Returns the new version (ms).
 * @throws HttpError 403 unless an editor; 400 for a bad id; ContentRejected (400) for data the schema refuses; 409
 *   EDITING_MESSAGES.changedMeanwhile when `expectedVersion` is stale (or 0 and the document exists); 503 when
 *   Firestore does not answer within 8 s. Nothing is written on any failure.
 */
export async function saveContent(
  session: StaffSession | undefined,
  request: SaveRequest,
  action?: HistoryAction,
): Promise<number> {
  assertEditor(session);
  assertId(request.id);
  validateContent(request.collection, request.data, request.schema);
  const db = adminFirestore();
  const places = placesOf(request.collection, request.id);
  const target = (isDraft(request.data) && places[1]) || places[0];
  await bounded(
    'save',
    db.runTransaction(async (transaction) => {
      const snapshots = await transaction.getAll(...places);
      const before = storedOf(snapshots);
      const current = versionOf(before?.updateTime);
      if (request.expectedVersion !== undefined && request.expectedVersion !== current) {
        throw new HttpError(409, before ? EDITING_MESSAGES.changedMeanwhile : EDITING_MESSAGES.goneMeanwhile);
      }
      const recorded = action ?? (before ? 'modification' : 'creation');
      for (const snapshot of snapshots)
        if (snapshot.exists && snapshot.ref.path !== target.path) transaction.delete(snapshot.ref);
      transaction.set(target, request.data);
      transaction.create(
        db.collection(HISTORY).doc(),
        entryFor(session, recorded, request.collection, request.id, before?.data()),
      );
    }),
  );
  return (await loadContent(session, request.collection, request.id)).version;
}

/**
 * Deletes a content document, recording it (`suppression`, the deleted version kept for a restore).
 * @throws HttpError 403, 400, 404 EDITING_MESSAGES.notFound, 503.
 */
export async function deleteContent(
  session: StaffSession | undefined,
  collection: ContentCollection,
  id: string,
): Promise<void> {
  assertEditor(session);
  assertId(id);
  const db = adminFirestore();
  await bounded(
    'delete',
    db.runTransaction(async (transaction) => {
      const snapshots = await transaction.getAll(...placesOf(collection, id));
      const before = storedOf(snapshots);
      if (!before) throw new HttpError(404, EDITING_MESSAGES.notFound);
      for (const snapshot of snapshots) if (snapshot.exists) transaction.delete(snapshot.ref);
      transaction.create(db.collection(HISTORY).doc(), entryFor(session, 'suppression', collection, id, before.data()));
    }),
  );
}
