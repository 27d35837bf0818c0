/**
 * A pre-registration as the admissions team handles it: the parent's submission (collection `inscripitions`, spec §3)
 * read tolerantly (the original admin app wrote `''` for none, numbers as strings, dates in seconds), plus the
 * team's follow-up: `statut`, the log `journal` (and the former `notes`), `dateDecision` and the `dateSuppression` it
 * sets (RETENTION_MONTHS later).
 */
import * as z from 'zod';

/** The statuses, in the order of the work; stored as these keys in `statut` (absent: `nouvelle`). */
export const STATUSES = ['nouvelle', 'contactee', 'visite-prevue', 'acceptee', 'liste-attente', 'refusee'] as const;

/** A pre-registration's status. */
export type Status = (typeof STATUSES)[number];

/** Each status's French label. */
export const STATUS_LABELS: Record<Status, string> = {
  nouvelle: 'Nouvelle',
  contactee: 'Contactée',
  'visite-prevue': 'Visite prévue',
  acceptee: 'Acceptée',
  'liste-attente': 'Liste d’attente',
  refusee: 'Refusée',
};

/** The statuses that answer the request: a decision, dated, from which the retention period runs. */
export const DECISIONS: readonly Status[] = ['acceptee', 'liste-attente', 'refusee'];

/**
 * Months a pre-registration is kept after the decision (the privacy page's promise: « un an après notre décision »).
 */
export const RETENTION_MONTHS = 12;

/** The rule as staff read it, under every pre-registration and on the list. */
export const RETENTION_RULE =
  'Une préinscription est supprimée automatiquement 12 mois après la date de décision ' +
  '(acceptée, liste d’attente ou refusée), comme le promet notre politique de confidentialité. ' +
  'Sans décision, elle est conservée.';

/** True for a status key. */
export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/**
 * The deletion date of a decision taken at `decision`: the same day RETENTION_MONTHS later (end of month if shorter).
 */
export function deletionDate(decision: Date): Date {
  const date = new Date(decision);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + RETENTION_MONTHS);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}

/** A stored instant as a Date: a Firestore Timestamp, `{seconds}`, seconds (number or digits), or an ISO text. */
export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (value && typeof value === 'object') {
    if ('toDate' in value && typeof value.toDate === 'function') return toDate(value.toDate());
    if ('seconds' in value) return toDate(Number(value.seconds));
  }
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value * 1000);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return toDate(Number(value));
  if (typeof value === 'string' && value.trim()) return toDate(new Date(value));
  return undefined;
}

/** Any stored value as a trimmed text (`''` for none; numbers written as strings or not). */
const text = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' || typeof value === 'number' ? `${value}`.trim() : ''));
const instant = z.unknown().optional().transform(toDate);

/** A stored pre-registration, normalised; never fails (a broken field reads as empty). */
export const storedPreRegistrationSchema = z.object({
  date: instant,
  enfantPrenom: text,
  enfantNom: text,
  infos: text,
  parentPrenom: text,
  parentNom: text,
  email: text,
  /** E.164 (« +33612345678 »), '' for none: admissions and admin only, never mailed nor exported. */
  telephone: text,
  /** `YYYY-MM-DD`, '' for none. */
  enfantNaissance: text,
  /** A SCHOOL_CLASSES key (admissions/request-fields.ts), '' for none. */
  classeSouhaitee: text,
  adresse: text,
  postal: text,
  ville: text,
  pays: text,
  statut: z
    .unknown()
    .optional()
    .transform((value): Status => (isStatus(value) ? value : 'nouvelle')),
  /** The team's single notes box of before the log: shown as the log's first entry, no longer written. */
  notes: text,
  /** The log of calls and notes (admissions/journal.ts), stored as written; read with readJournal. */
  journal: z.unknown().optional(),
  dateDecision: instant,
  dateSuppression: instant,
  modifieLe: instant,
  modifiePar: text,
  /** The reference the family was mailed (« 4829 1375 »); '' for requests made before the site sent mail. */
  reference: text,
});

/** A pre-registration as the space shows it: its document id and its normalised fields. */
export type PreRegistration = z.infer<typeof storedPreRegistrationSchema> & { id: string };

/** Reads a stored document (`data` as Firestore returns it) as a PreRegistration. */
export function readPreRegistration(id: string, data: Record<string, unknown> | undefined): PreRegistration {
  return { id, ...storedPreRegistrationSchema.parse(data ?? {}) };
}

/** Newest first: by submission date, undated last. */
export function newestFirst(a: PreRegistration, b: PreRegistration): number {
  return (b.date?.getTime() ?? -Infinity) - (a.date?.getTime() ?? -Infinity) || a.id.localeCompare(b.id);
}

const DAY = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });
const DAY_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** "3 octobre 2026" (Europe/Paris), or `fallback` without a date. */
export function frenchDay(date: Date | undefined, fallback = '—'): string {
  return date ? DAY.format(date).replace(/^1 /, '1er ') : fallback;
}

/** "3 octobre 2026 à 14:05" (Europe/Paris), or `fallback` without a date. */
export function frenchDayTime(date: Date | undefined, fallback = '—'): string {
  return date ? DAY_TIME.format(date).replace(/^1 /, '1er ') : fallback;
}

const SHORT_DAY = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' });

/** "03/10/2026" (Europe/Paris; a date French spreadsheets read as one), or `''` without a date. */
export function shortDay(date: Date | undefined): string {
  return date ? SHORT_DAY.format(date) : '';
}

/**
 * The decision date a follow-up saves: none unless `status` is a decision (DECISIONS); `now` when the date field
 * (`typed`, `YYYY-MM-DD`) is empty, or when the status becomes another decision while the field still shows the
 * previous decision's date (the form is pre-filled with it: a waiting list then an acceptance must not keep the
 * waiting list's date, from which the deletion 12 months later counts); else the typed day, at noon UTC (the same
 * calendar day in Europe/Paris, summer or winter). The detail page's help text says the same.
 */
export function decisionDate(
  status: Status,
  typed: string,
  before: { statut: Status; dateDecision?: Date | undefined },
  now: Date,
): Date | undefined {
  if (!DECISIONS.includes(status)) return undefined;
  const unchanged = before.dateDecision !== undefined && typed === isoDay(before.dateDecision);
  if (!typed || (unchanged && status !== before.statut)) return now;
  return unchanged ? before.dateDecision : new Date(`${typed}T12:00:00Z`);
}

/** `YYYY-MM-DD` of `date` in Europe/Paris (an `<input type="date">`'s value). */
export function isoDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}
