/**
 * The access log (collection `espaceJournal`): who viewed, exported, changed or deleted personal data, what and when.
 * Written before the data is shown (no entry, no data), and for every refusal of the guard; read by admins on
 * /espace/journal, where access-words.server.ts names the documents in words. An entry names documents by id and counts
 * rows: it holds no personal data of the families itself (a request deleted after 12 months leaves no name behind).
 */
import { FieldValue, Timestamp, type Firestore, type Query } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { isoDay, toDate } from '../admissions/admissions';
import type { StaffSession } from './auth.server';
import { assertSection } from './server-calls.server';

/** The log's collection. */
export const ACCESS_LOG = 'espaceJournal';

/** What was done; `refus`: a page or action the person's role does not open (the guard's 403). */
export type AccessAction =
  'consultation' | 'export' | 'modification' | 'suppression' | 'role' | 'envoi' | 'creation' | 'refus';

/** Each action's French label on the log page. */
export const ACCESS_ACTION_LABELS: Record<AccessAction, string> = {
  consultation: 'Consultation',
  export: 'Export',
  modification: 'Modification',
  suppression: 'Suppression',
  role: 'Rôle',
  envoi: 'Envoi',
  creation: 'Enregistrement',
  refus: 'Accès refusé',
};

/** True for an action of the log (a filter's value). */
export function isAccessAction(value: unknown): value is AccessAction {
  return typeof value === 'string' && Object.hasOwn(ACCESS_ACTION_LABELS, value);
}

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

/** What the log page is narrowed to: one person (`qui`, as written), one action, days (`YYYY-MM-DD`, Europe/Paris). */
export interface AccessFilter {
  qui?: string;
  action?: AccessAction;
  from?: string;
  to?: string;
}

/** Entries read from Firestore at a time while filling a page. */
const SCAN_BATCH = 500;

/** Most entries read for one page: a rare filter over a long log stops there, « plus anciens » goes on. */
const SCAN_LIMIT = 5000;

/** The instant midnight starts `day` (`YYYY-MM-DD`) in Europe/Paris, or undefined for another text. */
export function parisDayStart(day: string | undefined): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  if (!match) return undefined;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(utc) || isoDay(new Date(utc + 12 * 3600_000)) !== day) return undefined;
  // Paris is one or two hours ahead of UTC: its midnight is 23:00 or 22:00 UTC the day before.
  for (const hours of [2, 1]) {
    const start = utc - hours * 3600_000;
    if (isoDay(new Date(start)) === day && isoDay(new Date(start - 1)) !== day) return new Date(start);
  }
  return new Date(utc - 3600_000);
}

/** The day after `day` (`YYYY-MM-DD`, a valid one). */
function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/**
 * A page of the log, newest first: up to `limit` (ACCESS_PAGE_SIZE) entries of `filter`, older than the instant
 * `after` (a page's `olderFrom`), or the newest ones without it. A range on the date rather than a query cursor, which
 * the embedded emulator ignores; entries are written one at a time, to the microsecond, so no two share an instant at
 * a page's edge. Person and action are matched in memory within the date range, SCAN_BATCH at a time and SCAN_LIMIT at
 * most a page: no composite index to deploy, and a log of a few thousand entries a year reads fast.
 * @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session is an admin's; the Firestore error or a
 * TimeoutError.
 */
export async function latestAccess(
  session: StaffSession | undefined,
  db: Firestore,
  { after, limit = ACCESS_PAGE_SIZE, filter = {} }: { after?: string; limit?: number; filter?: AccessFilter } = {},
): Promise<AccessPage> {
  assertSection(session, 'journal');
  const from = parisDayStart(filter.from);
  const toEnd = parisDayStart(filter.to) && parisDayStart(nextDay(filter.to!));
  let before = instantOf(after);
  if (toEnd && (!before || toEnd < before.toDate())) before = Timestamp.fromDate(toEnd);
  const wanted = (data: Record<string, unknown>) =>
    (!filter.qui || data.qui === filter.qui) && (!filter.action || data.action === filter.action);
  const entries: AccessEntry[] = [];
  let last: Timestamp | undefined;
  let more = false;
  for (let scanned = 0; scanned < SCAN_LIMIT; scanned += SCAN_BATCH) {
    let query: Query = db.collection(ACCESS_LOG);
    if (from) query = query.where('date', '>=', Timestamp.fromDate(from));
    if (before) query = query.where('date', '<', before);
    const snapshot = await withDeadline(query.orderBy('date', 'desc').limit(SCAN_BATCH).get(), 8000);
    for (const document of snapshot.docs) {
      const data = document.data();
      if (!wanted(data)) continue;
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push(entryOf(document.id, data));
      if (data.date instanceof Timestamp) last = data.date;
    }
    const end: unknown = snapshot.docs.at(-1)?.get('date');
    if (more || snapshot.size < SCAN_BATCH || !(end instanceof Timestamp)) break;
    before = end;
    // The scan stops here: the next page goes on from the last entry read, even if none matched.
    if (scanned + SCAN_BATCH >= SCAN_LIMIT) [more, last] = [true, end];
  }
  return more && last ? { entries, olderFrom: `${last.seconds}.${last.nanoseconds}` } : { entries };
}

/** One stored entry as the page reads it. */
function entryOf(id: string, data: Record<string, unknown>): AccessEntry {
  return {
    id,
    qui: String(data.qui ?? ''),
    action: isAccessAction(data.action) ? data.action : 'consultation',
    objet: String(data.objet ?? ''),
    date: toDate(data.date instanceof Timestamp ? data.date : undefined),
  };
}
