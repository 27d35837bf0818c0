/**
 * The access log (collection `espaceJournal`): who viewed, exported, changed or deleted personal data, what and when.
 * Written before the data is shown (no entry, no data), read by admins on /espace/journal. An entry names documents by
 * id and counts rows: it holds no personal data of the families itself.
 */
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { toDate } from '../admissions/admissions';
import type { StaffSession } from './auth.server';
import { assertSection } from './server-calls.server';

/** The log's collection. */
export const ACCESS_LOG = 'espaceJournal';

/** What was done. */
export type AccessAction = 'consultation' | 'export' | 'modification' | 'suppression' | 'role' | 'envoi' | 'creation';

/** Each action's French label on the log page. */
export const ACCESS_ACTION_LABELS: Record<AccessAction, string> = {
  consultation: 'Consultation',
  export: 'Export',
  modification: 'Modification',
  suppression: 'Suppression',
  role: 'Rôle',
  envoi: 'Envoi',
  creation: 'Enregistrement',
};

/** One entry: `qui` the staff member's email (or the job's name), `objet` what (`inscripitions/<id>`…), `date`. */
export interface AccessEntry {
  id: string;
  qui: string;
  action: AccessAction;
  objet: string;
  date: Date | undefined;
}

/** Who acted: a signed-in staff member, or a scheduled job. */
export interface Actor {
  uid: string;
  email: string;
}

/** Records one entry (within 8 s). @throws the Firestore error or a TimeoutError: the caller shows nothing then. */
export async function recordAccess(db: Firestore, actor: Actor, action: AccessAction, objet: string): Promise<void> {
  const entry = { uid: actor.uid, qui: actor.email, action, objet, date: FieldValue.serverTimestamp() };
  await withDeadline(db.collection(ACCESS_LOG).add(entry), 8000);
}

/** Entries on one page of /espace/journal. */
export const ACCESS_PAGE_SIZE = 100;

/**
 * A page of the log: its `entries`, newest first, and where the older ones start (`olderFrom`: the last entry's
 * instant as `<seconds>.<nanoseconds>`; none on the last page).
 */
export interface AccessPage {
  entries: AccessEntry[];
  olderFrom?: string;
}

/** `<seconds>.<nanoseconds>` (olderFrom) → its Timestamp; undefined when it is not one. */
function instantOf(text: string | undefined): Timestamp | undefined {
  const match = /^(\d{1,12})\.(\d{1,9})$/.exec(text ?? '');
  return match ? new Timestamp(Number(match[1]), Number(match[2])) : undefined;
}

/**
 * A page of the log, newest first: the `limit` (ACCESS_PAGE_SIZE) entries older than the instant `after` (a page's
 * `olderFrom`), or the newest ones without it. A range on the date rather than a query cursor, which the embedded
 * emulator ignores; entries are written one at a time, to the microsecond, so no two share an instant at a page's edge.
 * @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session is an admin's; the Firestore error or a
 * TimeoutError.
 */
export async function latestAccess(
  session: StaffSession | undefined,
  db: Firestore,
  { after, limit = ACCESS_PAGE_SIZE }: { after?: string; limit?: number } = {},
): Promise<AccessPage> {
  assertSection(session, 'journal');
  const before = instantOf(after);
  const log = db.collection(ACCESS_LOG);
  const query = (before ? log.where('date', '<', before) : log).orderBy('date', 'desc').limit(limit + 1);
  const snapshot = await withDeadline(query.get(), 8000);
  const last: unknown = snapshot.docs[limit - 1]?.get('date');
  const entries = snapshot.docs.slice(0, limit).map((document) => {
    const data = document.data();
    return {
      id: document.id,
      qui: String(data.qui ?? ''),
      action: (data.action as AccessAction) ?? 'consultation',
      objet: String(data.objet ?? ''),
      date: toDate(data.date instanceof Timestamp ? data.date : undefined),
    };
  });
  return snapshot.size > limit && last instanceof Timestamp
    ? { entries, olderFrom: `${last.seconds}.${last.nanoseconds}` }
    : { entries };
}
