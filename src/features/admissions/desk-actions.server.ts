/**
 * The forms of /espace/preinscriptions/<id> as Astro Actions (src/actions/index.ts): the follow-up (status, decision
 * date, « Prévenir la famille par email ») and an entry of the log of calls and notes. The request is the page's own
 * (`context.params.id`): an action posted anywhere else finds none (404). Neither a refusal nor a failure repeats
 * what was typed: the log may hold health data (RGPD art. 9).
 */
import * as z from 'zod';
import { staffAction, staffText } from '../espace/staff-action.server';
import { ESPACE_MESSAGES } from '../espace/messages';
import { isoDay, STATUSES } from './admissions';
import { addJournalEntry, saveFollowUp } from './desk.server';
import { journalEntrySchema } from './journal';

/** The page's request id ('' outside its page: the writes answer 404). */
const requestOf = (params: Record<string, string | undefined>) => params.id ?? '';

/**
 * The follow-up form: `statut`, `dateDecision` (`YYYY-MM-DD`, optional, at most today) and `prevenir` (the checkbox
 * « Prévenir la famille par email »).
 */
const followUpInput = z.object({
  statut: z.enum(STATUSES, { error: ESPACE_MESSAGES.badForm }),
  dateDecision: staffText().pipe(
    z
      .string()
      .regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: ESPACE_MESSAGES.invalidDate })
      .refine((value) => !value || (!Number.isNaN(Date.parse(value)) && value <= isoDay(new Date())), {
        error: ESPACE_MESSAGES.invalidDate,
      }),
  ),
  prevenir: z.boolean(),
});

export const admissionsActions = {
  /** Saves the follow-up (saveFollowUp); `{ mailed }` when the family's mail was queued. @throws as saveFollowUp. */
  followUp: staffAction('preinscriptions', followUpInput, (followUp, { session, context }) =>
    saveFollowUp(session, requestOf(context.params), followUp),
  ),

  /** Appends `type` and `texte` to the request's log (addJournalEntry). @throws as addJournalEntry. */
  journal: staffAction(
    'preinscriptions',
    z.object({ type: journalEntrySchema.shape.type, texte: staffText().pipe(journalEntrySchema.shape.texte) }),
    (entry, { session, context }) => addJournalEntry(session, requestOf(context.params), entry),
  ),
};
