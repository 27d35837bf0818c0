/**
 * The controller of /espace/preinscriptions/<id>: after one of its actions (desk-actions.server.ts) succeeded, a 303
 * back to the page with what happened (`?enregistre`, `?prevenu`, `?ajoute`); after a refusal, the page again with the
 * error and what was typed; then the request, read for display.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { getPreRegistration } from './desk.server';
import { isoDay, STATUSES, type PreRegistration, type Status } from './admissions';
import { ESPACE_MESSAGES } from '../espace/messages';
import { failureOf } from '../espace/server-calls.server';
import { formOutcome, typedText, type FormOutcome } from '../espace/staff-action.server';
import { JOURNAL_KINDS, JOURNAL_MESSAGES, readJournal, type JournalEntry, type JournalKind } from './journal';

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

/** The redirect after a save, or what the page of request `Astro.params.id` shows. */
export async function deskPage(Astro: AstroGlobal): Promise<Response | DeskView> {
  const id = Astro.params.id ?? '';
  const followUpResult = Astro.getActionResult(actions.admissions.followUp);
  const followUp = formOutcome(Astro, followUpResult);
  const journal = formOutcome(Astro, Astro.getActionResult(actions.admissions.journal));
  const back = (query: keyof typeof NOTICES, anchor = '') =>
    Astro.redirect(`/espace/preinscriptions/${id}?${query}${anchor}`, 303);
  if (followUp.state === 'done') return back(followUpResult?.data?.mailed ? 'prevenu' : 'enregistre');
  if (journal.state === 'done') return back('ajoute', '#journal');

  const view: DeskView = {
    ...{ entry: undefined, error: undefined, refused: '', notice: undefined, form: undefined },
    ...{ draft: { type: 'appel', texte: '' }, journal: [] },
  };
  let typed: FollowUpForm | undefined;
  if (followUp.state === 'refused' || journal.state === 'refused') {
    const posted = await Astro.request.formData();
    const text = (name: string) => typedText(posted, name);
    if (followUp.state === 'refused') {
      typed = {
        statut: STATUSES.find((key) => key === posted.get('statut')) ?? 'nouvelle',
        dateDecision: text('dateDecision'),
        prevenir: posted.get('prevenir') === 'on',
      };
    } else {
      view.draft = { type: JOURNAL_KINDS.find((kind) => kind === posted.get('type')) ?? 'appel', texte: text('texte') };
    }
    refuse(view, followUp.state === 'refused' ? followUp : journal, followUp.state === 'refused' ? '' : 'journal-');
  }
  try {
    view.entry = await getPreRegistration(Astro.locals.espace, id);
  } catch (failure) {
    if (!view.error)
      ({ status: Astro.response.status, message: view.error } = failureOf(failure, '[espace/preinscription]'));
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

/** Sets the view's error and refused field from a refusal: its first field's message, else its own. */
function refuse(view: DeskView, outcome: FormOutcome, prefix: string): void {
  if (outcome.state !== 'refused') return;
  const [issue] = outcome.issues;
  view.error = issue?.message ?? outcome.message;
  view.refused = issue ? `${prefix}${issue.field}` : '';
}
