/**
 * The access log (collection `espaceJournal`): who viewed, exported, changed or deleted personal data, what and when.
 * Written before the data is shown (no entry, no data), read by admins on /espace/journal. An entry names documents by
 * id and counts rows: it holds no personal data of the families itself.
 */
import { FieldValue, Timestamp, type Firestore } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { toDate } from './admissions';
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

/**
 * The newest `limit` entries (default 300), newest first.
 * @throws HttpError 403 ESPACE_MESSAGES.forbidden unless the session is an admin's; the Firestore error or a
 * TimeoutError.
 */
export async function latestAccess(
  session: StaffSession | undefined,
  db: Firestore,
  limit = 300,
): Promise<AccessEntry[]> {
  assertSection(session, 'journal');
  const snapshot = await withDeadline(db.collection(ACCESS_LOG).orderBy('date', 'desc').limit(limit).get(), 8000);
  return snapshot.docs.map((document) => {
    const data = document.data();
    return {
      id: document.id,
      qui: String(data.qui ?? ''),
      action: (data.action as AccessAction) ?? 'consultation',
      objet: String(data.objet ?? ''),
      date: toDate(data.date instanceof Timestamp ? data.date : undefined),
    };
  });
}
