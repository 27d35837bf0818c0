/**
 * The dated log of a pre-registration's calls and notes (`journal`, an array field of its `inscripitions` document,
 * so it goes with the request when the retention deletes it): entries are only ever appended, each with its date, its
 * author (the staff member's email) and its kind. The team's former single `notes` box reads as the first entry.
 */
import { z } from 'zod';
import { toDate } from './admissions';

/** The kinds of entry, stored as these keys in `type`. */
export const JOURNAL_KINDS = ['appel', 'note'] as const;

/** An entry's kind. */
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/** Each kind's French label. */
export const JOURNAL_KIND_LABELS: Record<JournalKind, string> = { appel: 'Appel', note: 'Note' };

/** Longest entry, in characters. */
export const JOURNAL_TEXT_MAX = 2000;

/** Most entries a request keeps: far above a family's follow-up, and well within a Firestore document's 1 MiB. */
export const JOURNAL_MAX_ENTRIES = 300;

/** The French messages of the log's form. */
export const JOURNAL_MESSAGES = {
  empty: 'Merci d’écrire ce qui a été dit ou fait avant d’ajouter l’entrée.',
  tooLong: `L’entrée est trop longue (${JOURNAL_TEXT_MAX} caractères au plus).`,
  kind: 'Merci de choisir « Appel » ou « Note ».',
  full: `Ce suivi a atteint ${JOURNAL_MAX_ENTRIES} entrées : résumez-les dans une note, puis demandez au bureau.`,
  added: 'Entrée ajoutée au suivi.',
} as const;

/**
 * One entry as shown: `date` (undefined when unknown), `author` (an email, or '' for the former notes without one),
 * `kind`, `text`; `former` for the team's notes written before the log.
 */
export interface JournalEntry {
  date: Date | undefined;
  author: string;
  kind: JournalKind;
  text: string;
  former?: boolean;
}

const storedText = z.unknown().transform((value) => (typeof value === 'string' ? value.trim() : ''));

/** A stored entry, read tolerantly (a broken one is left out). */
const storedEntry = z.object({
  date: z.unknown().transform(toDate),
  auteur: storedText,
  type: z.unknown().transform((value): JournalKind => (value === 'appel' ? 'appel' : 'note')),
  texte: storedText,
});

/**
 * The entries of a stored `journal` (oldest first, as written), preceded by the team's `notes` of before the log when
 * there are some (undated: the box kept no date of its own).
 */
export function readJournal(journal: unknown, notes: string): JournalEntry[] {
  const entries = (Array.isArray(journal) ? journal : []).flatMap((value): JournalEntry[] => {
    const parsed = storedEntry.safeParse(value);
    if (!parsed.success || !parsed.data.texte) return [];
    const { date, auteur, type, texte } = parsed.data;
    return [{ date, author: auteur, kind: type, text: texte }];
  });
  if (!notes) return entries;
  return [{ date: undefined, author: '', kind: 'note', text: notes, former: true }, ...entries];
}

/** The log's form: the kind and the text (line breaks kept, trimmed, bounded). */
export const journalEntrySchema = z.object({
  type: z.enum(JOURNAL_KINDS, { error: JOURNAL_MESSAGES.kind }),
  texte: z
    .string({ error: JOURNAL_MESSAGES.empty })
    .transform((value) => value.replace(/\r\n?/g, '\n').trim())
    .pipe(
      z.string().min(1, { error: JOURNAL_MESSAGES.empty }).max(JOURNAL_TEXT_MAX, { error: JOURNAL_MESSAGES.tooLong }),
    ),
});

/** A valid new entry. */
export type NewJournalEntry = z.infer<typeof journalEntrySchema>;
