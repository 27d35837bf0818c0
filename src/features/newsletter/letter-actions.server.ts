/**
 * The newsletter's staff forms as Astro Actions (src/actions/index.ts): on /espace/lettre/<id> (`nouvelle`: a new
 * letter) saving the letter, its test to oneself and its send to the subscribers; on /espace/lettre removing a
 * subscriber. The letter is the page's own (`context.params.id`), never one the form names. docs/mail.md.
 */
import { ActionError } from 'astro:actions';
import * as z from 'zod';
import { HttpError } from '../../lib/http';
import { ESPACE_MESSAGES } from '../espace/messages';
import { FieldsRefused, staffAction, staffText } from '../espace/staff-action.server';
import { mailIdentity, trySend } from '../mail/mail-env.server';
import { LETTER_MESSAGES } from './letters';
import { LetterRefused, queueLetterTest, saveLetter, sendLetter } from './letters.server';
import { removeSubscriber } from './subscribers.server';

/** Longest field of a letter's form, in characters: room for a body of BODY_MAX (its own refusal, by the field). */
const LETTER_FIELD_MAX = 512 * 1024;

/** A request waits this long (ms) for its first mails to leave; the outbox's drain sends the rest. */
const FIRST_SEND_MS = 3000;

/** A send stops starting batches after this long (ms), within a function's time; « Envoyer » again goes on. */
const SEND_DEADLINE_MS = 5000;

/** The page's letter id (`nouvelle` on a new letter's page). @throws ActionError NOT_FOUND outside one. */
function letterOf(params: Record<string, string | undefined>): string {
  const id = params.id;
  if (!id) throw new ActionError({ code: 'NOT_FOUND', message: LETTER_MESSAGES.notFound });
  return id;
}

export const letterActions = {
  /**
   * Saves the letter's subject and body (saveLetter) and returns its id (a new letter's is made here).
   * @throws FieldsRefused with the letter's French messages; ActionError 404, 409 (already sent), 503.
   */
  save: staffAction(
    'lettre',
    z.object({ objet: staffText(LETTER_FIELD_MAX, true), contenu: staffText(LETTER_FIELD_MAX, true) }),
    async (fields, { session, context }) => {
      try {
        return await saveLetter(session, letterOf(context.params), fields);
      } catch (failure) {
        if (!(failure instanceof LetterRefused)) throw failure;
        const errors: Record<string, string> = {};
        for (const { field, message } of failure.issues) errors[field] ??= message;
        throw new FieldsRefused(errors);
      }
    },
  ),

  /** Queues the saved letter's test to the signed-in person and waits a moment for it to leave. @throws 404, 429. */
  test: staffAction('lettre', z.object({}), async (_input, { session, context }) => {
    const queued = await queueLetterTest(session, letterOf(context.params), {
      identity: await mailIdentity(),
      now: Date.now(),
    });
    await trySend([queued], FIRST_SEND_MS);
  }),

  /**
   * Sends the letter to the confirmed subscribers it has not reached (`confirmer=oui`, the second step), the first
   * mails at once; returns the page's query: `envoyee=<queued>`, and `&suite` when the deadline stopped it.
   * @throws ActionError 400 LETTER_MESSAGES.sendUnconfirmed without the confirmation; 404, 503.
   */
  send: staffAction('lettre', z.object({ confirmer: staffText(10) }), async ({ confirmer }, { session, context }) => {
    if (confirmer !== 'oui') throw new HttpError(400, LETTER_MESSAGES.sendUnconfirmed);
    const report = await sendLetter(session, letterOf(context.params), {
      identity: await mailIdentity(),
      deadlineMs: SEND_DEADLINE_MS,
    });
    await trySend(report.queued.slice(0, 20), FIRST_SEND_MS);
    return `envoyee=${report.queued.length}${report.finished ? '' : '&suite'}`;
  }),

  /**
   * Removes subscriber `id` (`confirmer=oui`, the second step), as their own unsubscribe link would.
   * @throws ActionError 400 ESPACE_MESSAGES.removeUnconfirmed without the confirmation; 404 notSubscribed, 503.
   */
  remove: staffAction(
    'lettre',
    z.object({ id: staffText(200), confirmer: staffText(10) }),
    async ({ id, confirmer }, { session }) => {
      if (confirmer !== 'oui') throw new HttpError(400, ESPACE_MESSAGES.removeUnconfirmed);
      await removeSubscriber(session, id);
    },
  ),
};
