/**
 * The admissions team's reads and writes of `inscripitions` with firebase-admin, each after checking the session's
 * role and logging the access (access-log.server.ts): the list, one pre-registration, its follow-up (with the family's
 * status mail when the team asks for it), its log of calls and notes, the CSV export.
 */
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { recordAccess } from '../espace/access-log.server';
import {
  decisionDate,
  deletionDate,
  newestFirst,
  readPreRegistration,
  shortDay,
  STATUS_LABELS,
  type PreRegistration,
  type Status,
} from './admissions';
import type { StaffSession } from '../espace/auth.server';
import { toCsv } from '../../lib/csv';
import { ESPACE_MESSAGES } from '../espace/messages';
import { assertSection, bounded } from '../espace/server-calls.server';
import { enqueueMails } from '../mail/outbox.server';
import { mailIdentity, siteMailSettings, trySend } from '../mail/mail-env.server';
import { isAnnouncedStatus } from './StatusChangeMail';
import { statusChangeMail } from './status-mail.server';
import { JOURNAL_MAX_ENTRIES, JOURNAL_MESSAGES, type NewJournalEntry } from './journal';
import { matchesSearch } from './search';

const COLLECTION = 'inscripitions';

/** Most pre-registrations read at once: far above a school's yearly requests. */
const MAX_LISTED = 5000;

/**
 * Every pre-registration (names, email, reference, status and dates: not `infos`, the phone or the log), newest
 * first, logged as one consultation of the list.
 * @throws HttpError 403, 503.
 */
export async function listPreRegistrations(session: StaffSession | undefined): Promise<PreRegistration[]> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  await bounded('log', recordAccess(db, session, 'consultation', `${COLLECTION} (liste)`));
  const fields = ['date', 'enfantPrenom', 'enfantNom', 'parentPrenom', 'parentNom', 'email', 'statut', 'reference'];
  const snapshot = await bounded(
    'list',
    db
      .collection(COLLECTION)
      .select(...fields, 'dateDecision', 'dateSuppression')
      .limit(MAX_LISTED)
      .get(),
  );
  return snapshot.docs.map((document) => readPreRegistration(document.id, document.data())).toSorted(newestFirst);
}

/**
 * For /espace: how many requests arrived after `since` (all without it), how many will be deleted within 30 days, and
 * how many arrived over six months ago and still have no decision (so no deletion date: RETENTION_MONTHS runs from the
 * decision). Unlogged: counts only. @throws HttpError 403, 503.
 */
export async function preRegistrationsSince(
  session: StaffSession | undefined,
  since: Date | undefined,
): Promise<{ count: number; expiringSoon: number; undecided: number }> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  const fields = ['date', 'dateDecision', 'dateSuppression'];
  const snapshot = await bounded(
    'since',
    db
      .collection(COLLECTION)
      .select(...fields)
      .get(),
  );
  const all = snapshot.docs.map((document) => readPreRegistration(document.id, document.data()));
  const day = 24 * 60 * 60 * 1000;
  const [in30Days, sixMonthsAgo] = [Date.now() + 30 * day, Date.now() - 183 * day];
  return {
    count: all.filter((entry) => !since || (entry.date && entry.date > since)).length,
    expiringSoon: all.filter((entry) => entry.dateSuppression && entry.dateSuppression.getTime() <= in30Days).length,
    undecided: all.filter((entry) => !entry.dateDecision && entry.date && entry.date.getTime() < sixMonthsAgo).length,
  };
}

/** One pre-registration, its view logged. @throws HttpError 403, 404 ESPACE_MESSAGES.notFound, 503. */
export async function getPreRegistration(session: StaffSession | undefined, id: string): Promise<PreRegistration> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  if (!/^[\w-]{1,128}$/.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  const snapshot = await bounded('get', db.collection(COLLECTION).doc(id).get());
  if (!snapshot.exists) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  await bounded('log', recordAccess(db, session, 'consultation', `${COLLECTION}/${id}`));
  return readPreRegistration(id, snapshot.data());
}

/** A follow-up as its form sends it (desk-actions.server.ts): the status, the decision date (`YYYY-MM-DD` or ''), the mail. */
export interface FollowUp {
  statut: Status;
  dateDecision: string;
  prevenir: boolean;
}

/** Time the page gives a status mail to leave after its save, in ms (the outbox's drain does the rest). */
const MAIL_WAIT_MS = 3000;

/**
 * Saves a follow-up: a decision status sets `dateDecision` (decisionDate: the date typed, or today for an empty field
 * or a new decision whose field still shows the previous one's date) and `dateSuppression` RETENTION_MONTHS later;
 * any other status sets both to null (no decision, no deletion). When `prevenir` is set and the status changes to an
 * announced one (StatusChangeMail), the family's mail is queued in the same transaction, then tried at once. Logged
 * as a modification (and the mail as a sending). Returns whether a mail was queued.
 * @throws HttpError 403, 404, 503.
 */
export async function saveFollowUp(
  session: StaffSession | undefined,
  id: string,
  followUp: FollowUp,
): Promise<{ mailed: boolean }> {
  assertSection(session, 'preinscriptions');
  if (!/^[\w-]{1,128}$/.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  const db = adminFirestore();
  const ref = db.collection(COLLECTION).doc(id);
  const identity = await mailIdentity();
  const staffEmail = siteMailSettings().staff;
  const queued = await bounded(
    'update',
    db.runTransaction(async (transaction) => {
      const current = await transaction.get(ref);
      if (!current.exists) throw new HttpError(404, ESPACE_MESSAGES.notFound);
      const before = readPreRegistration(id, current.data());
      const decision = decisionDate(followUp.statut, followUp.dateDecision, before, new Date());
      transaction.update(ref, {
        statut: followUp.statut,
        // null rather than a field delete: the embedded emulator of `npm start` ignores deletes in an update.
        dateDecision: decision ? Timestamp.fromDate(decision) : null,
        dateSuppression: decision ? Timestamp.fromDate(deletionDate(decision)) : null,
        modifieLe: FieldValue.serverTimestamp(),
        modifiePar: session.email,
      });
      const status = followUp.statut;
      if (!followUp.prevenir || status === before.statut || !isAnnouncedStatus(status) || !before.email) return [];
      const mail = await statusChangeMail({
        identity,
        requestId: id,
        sentAtMs: Date.now(),
        status,
        reference: before.reference || id,
        parentFirstName: before.parentPrenom,
        childFirstName: before.enfantPrenom,
        parentEmail: before.email,
        staffEmail,
      });
      return enqueueMails(db, transaction, [mail]);
    }),
  );
  await bounded('log', recordAccess(db, session, 'modification', `${COLLECTION}/${id}`));
  if (queued.length === 0) return { mailed: false };
  await bounded('log', recordAccess(db, session, 'envoi', `${COLLECTION}/${id} (email de suivi à la famille)`));
  await trySend(queued, MAIL_WAIT_MS);
  return { mailed: true };
}

/**
 * Appends `entry` to the request's log, dated now and signed with the session's email, in a transaction (never
 * rewriting what is there). Logged as a modification.
 * @throws HttpError 403, 404, 409 JOURNAL_MESSAGES.full, 503.
 */
export async function addJournalEntry(
  session: StaffSession | undefined,
  id: string,
  entry: NewJournalEntry,
): Promise<void> {
  assertSection(session, 'preinscriptions');
  if (!/^[\w-]{1,128}$/.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  const db = adminFirestore();
  const ref = db.collection(COLLECTION).doc(id);
  await bounded(
    'journal',
    db.runTransaction(async (transaction) => {
      const current = await transaction.get(ref);
      if (!current.exists) throw new HttpError(404, ESPACE_MESSAGES.notFound);
      const journal: unknown = current.get('journal');
      const entries = Array.isArray(journal) ? journal : [];
      if (entries.length >= JOURNAL_MAX_ENTRIES) throw new HttpError(409, JOURNAL_MESSAGES.full);
      // A server timestamp cannot sit in an array: the server's clock, at the write.
      const added = { date: Timestamp.now(), auteur: session.email, type: entry.type, texte: entry.texte };
      transaction.update(ref, { journal: [...entries, added] });
    }),
  );
  await bounded('log', recordAccess(db, session, 'modification', `${COLLECTION}/${id} (suivi : ${entry.type})`));
}

/**
 * The export's columns. Not `infos` (what parents say of health and disability) nor the team's `notes` and log (needs
 * to prepare, which may be health too; RGPD art. 9), nor the phone (the desk calls from the space; a file travels):
 * they stay in the space.
 */
const EXPORT_HEADER = [
  'Référence',
  'Date de la demande',
  'Statut',
  'Prénom de l’enfant',
  'Nom de l’enfant',
  'Prénom du parent',
  'Nom du parent',
  'Email',
  'Adresse',
  'Code postal',
  'Ville',
  'Pays',
  'Date de décision',
  'Date de suppression',
];

/**
 * The CSV export (csv.ts) of the pre-registrations the list shows: every one, or those of `status` and answering
 * `query` (matchesSearch), newest first; logged with its row count (the search's text is not: it may be a name).
 * @throws HttpError 403, 503.
 */
export async function exportPreRegistrations(
  session: StaffSession | undefined,
  { status, query = '' }: { status?: string | undefined; query?: string } = {},
): Promise<{ csv: string; rows: number }> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  const snapshot = await bounded('export', db.collection(COLLECTION).limit(MAX_LISTED).get());
  const entries = snapshot.docs
    .map((document) => readPreRegistration(document.id, document.data()))
    .filter((entry) => (!status || entry.statut === status) && matchesSearch(entry, query))
    .toSorted(newestFirst);
  const scope = `${status ? ` statut ${status}` : ''}${query ? ', après une recherche' : ''}`;
  await bounded('log', recordAccess(db, session, 'export', `${COLLECTION}${scope} (${entries.length} lignes, CSV)`));
  const rows = entries.map((entry) => [
    entry.reference || entry.id,
    shortDay(entry.date),
    STATUS_LABELS[entry.statut],
    entry.enfantPrenom,
    entry.enfantNom,
    entry.parentPrenom,
    entry.parentNom,
    entry.email,
    entry.adresse,
    entry.postal,
    entry.ville,
    entry.pays,
    shortDay(entry.dateDecision),
    shortDay(entry.dateSuppression),
  ]);
  return { csv: toCsv(EXPORT_HEADER, rows), rows: entries.length };
}
