/**
 * The admissions team's reads and writes of `inscripitions` with firebase-admin, each after checking the session's
 * role and logging the access (access-log.server.ts): the list, one pre-registration, its follow-up, the CSV export.
 */
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import * as z from 'zod';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { recordAccess } from '../espace/access-log.server';
import {
  decisionDate,
  deletionDate,
  isoDay,
  newestFirst,
  readPreRegistration,
  shortDay,
  STATUS_LABELS,
  STATUSES,
  type PreRegistration,
} from './admissions';
import type { StaffSession } from '../espace/auth.server';
import { toCsv } from '../../lib/csv';
import { ESPACE_MESSAGES } from '../espace/messages';
import { assertSection, bounded } from '../espace/server-calls.server';

const COLLECTION = 'inscripitions';

/** Most pre-registrations read at once: far above a school's yearly requests. */
const MAX_LISTED = 5000;

/**
 * Every pre-registration (without `infos`), newest first, logged as one consultation of the list.
 * @throws HttpError 403, 503.
 */
export async function listPreRegistrations(session: StaffSession | undefined): Promise<PreRegistration[]> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  await bounded('log', recordAccess(db, session, 'consultation', `${COLLECTION} (liste)`));
  const fields = ['date', 'enfantPrenom', 'enfantNom', 'parentPrenom', 'parentNom', 'email', 'statut'];
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

/** Longest staff notes, in characters. */
export const NOTES_MAX = 5000;

/** The detail page's form: status, notes, and the decision date (`YYYY-MM-DD`, optional, at most today). */
export const followUpSchema = z.object({
  statut: z.enum(STATUSES, { error: ESPACE_MESSAGES.badForm }),
  notes: z
    .string()
    .max(NOTES_MAX, { error: `Les notes sont trop longues (${NOTES_MAX} caractères au plus)` })
    .transform((value) => value.replace(/\r\n?/g, '\n').trim()),
  dateDecision: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: ESPACE_MESSAGES.invalidDate })
    .refine((value) => !value || (!Number.isNaN(Date.parse(value)) && value <= isoDay(new Date())), {
      error: ESPACE_MESSAGES.invalidDate,
    })
    .default(''),
});

/** A valid follow-up. */
export type FollowUp = z.infer<typeof followUpSchema>;

/**
 * Saves a follow-up: a decision status sets `dateDecision` (decisionDate: the date typed, or today for an empty field
 * or a new decision whose field still shows the previous one's date) and `dateSuppression` RETENTION_MONTHS later;
 * any other status sets both to null (no decision, no deletion). Logged as a modification.
 * Returns the saved document.
 * @throws HttpError 403, 404, 503.
 */
export async function saveFollowUp(
  session: StaffSession | undefined,
  id: string,
  followUp: FollowUp,
): Promise<PreRegistration> {
  assertSection(session, 'preinscriptions');
  if (!/^[\w-]{1,128}$/.test(id)) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  const db = adminFirestore();
  const ref = db.collection(COLLECTION).doc(id);
  const current = await bounded('read', ref.get());
  if (!current.exists) throw new HttpError(404, ESPACE_MESSAGES.notFound);
  const before = readPreRegistration(id, current.data());
  const decision = decisionDate(followUp.statut, followUp.dateDecision, before, new Date());
  await bounded(
    'update',
    ref.update({
      statut: followUp.statut,
      notes: followUp.notes,
      // null rather than a field delete: the embedded emulator of `npm start` ignores deletes in an update.
      dateDecision: decision ? Timestamp.fromDate(decision) : null,
      dateSuppression: decision ? Timestamp.fromDate(deletionDate(decision)) : null,
      modifieLe: FieldValue.serverTimestamp(),
      modifiePar: session.email,
    }),
  );
  await bounded('log', recordAccess(db, session, 'modification', `${COLLECTION}/${id}`));
  return readPreRegistration(id, (await bounded('read back', ref.get())).data());
}

/**
 * The export's columns. Not `infos` (what parents say of health and disability) nor the team's `notes` (needs to
 * prepare, which may be health too; RGPD art. 9): they stay in the space.
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
 * The CSV export (csv.ts) of every pre-registration, or those of `status`, newest first; logged with its row count.
 * @throws HttpError 403, 503.
 */
export async function exportPreRegistrations(
  session: StaffSession | undefined,
  status?: string,
): Promise<{ csv: string; rows: number }> {
  assertSection(session, 'preinscriptions');
  const db = adminFirestore();
  const snapshot = await bounded('export', db.collection(COLLECTION).limit(MAX_LISTED).get());
  const entries = snapshot.docs
    .map((document) => readPreRegistration(document.id, document.data()))
    .filter((entry) => !status || entry.statut === status)
    .toSorted(newestFirst);
  const scope = status ? ` statut ${status}` : '';
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
