/**
 * The logic of /espace/preinscriptions/<id>: its two forms posted to the page (`formulaire=suivi`: status, decision
 * date and the family's mail; `formulaire=journal`: an entry of the log), each answered by a 303 back to the page with
 * what happened (`?enregistre`, `?prevenu`, `?ajoute`), or by the page again with the error and what was typed; then
 * the request, read for display. The page only renders this view.
 */
import type { AstroGlobal } from 'astro';
import { addJournalEntry, followUpSchema, getPreRegistration, saveFollowUp } from './desk.server';
import { isoDay, STATUSES, type PreRegistration, type Status } from './admissions';
import { readFormPost } from '../espace/form-post.server';
import { ESPACE_MESSAGES } from '../espace/messages';
import { failureOf } from '../espace/server-calls.server';
import { JOURNAL_KINDS, JOURNAL_MESSAGES, journalEntrySchema, readJournal, type JournalEntry } from './journal';
import type { JournalKind } from './journal';

/** What the follow-up form shows: the status, the decision date (`YYYY-MM-DD`) and the mail box. */
export interface FollowUpForm {
  statut: Status;
  dateDecision: string;
  prevenir: boolean;
}

/** What the page renders. */
export interface DeskView {
  entry: PreRegistration | undefined;
  /** The refusal or failure, in French (undefined when none). */
  error: string | undefined;
  /** The field the error is about ('' when none), for aria-invalid and aria-describedby. */
  refused: string;
  /** The success of the last post, in French. */
  notice: string | undefined;
  form: FollowUpForm | undefined;
  /** The log's form as typed (kept after a refusal). */
  draft: { type: JournalKind; texte: string };
  journal: JournalEntry[];
}

/** The success message of each redirect's query. */
const NOTICES = {
  prevenu: 'Modifications enregistrées. La famille est prévenue par email.',
  enregistre: ESPACE_MESSAGES.saved,
  ajoute: JOURNAL_MESSAGES.added,
} as const;

/** Handles a post to the page of request `id` (a Response: the redirect), or reads it: the DeskView. */
export async function deskPage(Astro: AstroGlobal, id: string): Promise<Response | DeskView> {
  const session = Astro.locals.espace;
  const view: DeskView = {
    entry: undefined,
    error: undefined,
    refused: '',
    notice: undefined,
    form: undefined,
    draft: { type: 'appel', texte: '' },
    journal: [],
  };
  let typed: FollowUpForm | undefined;
  const fail = (failure: unknown) => {
    ({ status: Astro.response.status, message: view.error } = failureOf(failure, '[espace/preinscription]'));
  };
  const back = (query: keyof typeof NOTICES, anchor = '') =>
    Astro.redirect(`/espace/preinscriptions/${id}?${query}${anchor}`, 303);

  if (Astro.request.method === 'POST') {
    try {
      const fields = Object.fromEntries(await readFormPost(Astro.request));
      if (fields.formulaire === 'journal') {
        const parsed = journalEntrySchema.safeParse(fields);
        if (parsed.success) {
          await addJournalEntry(session, id, parsed.data);
          return back('ajoute', '#journal');
        }
        view.draft = {
          type: JOURNAL_KINDS.find((kind) => kind === fields.type) ?? 'appel',
          texte: fields.texte ?? '',
        };
        refuse(view, parsed.error.issues[0], 'journal-');
      } else {
        const parsed = followUpSchema.safeParse(fields);
        if (parsed.success) {
          const { mailed } = await saveFollowUp(session, id, parsed.data);
          return back(mailed ? 'prevenu' : 'enregistre');
        }
        typed = {
          statut: STATUSES.find((key) => key === fields.statut) ?? 'nouvelle',
          dateDecision: fields.dateDecision ?? '',
          prevenir: fields.prevenir === 'on',
        };
        refuse(view, parsed.error.issues[0]);
      }
      Astro.response.status = 400;
    } catch (failure) {
      fail(failure);
    }
  }
  try {
    view.entry = await getPreRegistration(session, id);
  } catch (failure) {
    if (!view.error) fail(failure);
  }
  const shown = Object.keys(NOTICES).find((key) => Astro.url.searchParams.has(key)) as keyof typeof NOTICES | undefined;
  if (shown && !view.error) view.notice = NOTICES[shown];
  if (view.entry) {
    const { entry } = view;
    view.form = typed ?? {
      statut: entry.statut,
      dateDecision: entry.dateDecision ? isoDay(entry.dateDecision) : '',
      prevenir: false,
    };
    view.journal = readJournal(entry.journal, entry.notes);
  }
  return view;
}

/** Sets the view's error and refused field from a zod issue (`prefix` before the field's id). */
function refuse(view: DeskView, issue: { message: string; path: PropertyKey[] } | undefined, prefix = ''): void {
  view.error = issue?.message ?? ESPACE_MESSAGES.badForm;
  view.refused = issue?.path[0] === undefined ? '' : `${prefix}${String(issue.path[0])}`;
}
