/**
 * « Réessayer » on a failed mail of /espace (admin) as an Astro Action (`mails.retry`, src/actions/index.ts): the
 * mail goes back to the outbox's queue for one more attempt (failed-mails.server.ts), then back to /espace with the
 * outcome (`?courriel=remis` or `?courriel=introuvable`).
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import * as z from 'zod';
import { retryMail } from './failed-mails.server';
import { ESPACE_MESSAGES } from './messages';
import { formOutcome, staffAction, staffText } from './staff-action.server';

export const mailActions = {
  /** Puts the failed mail `id` back in the queue. @throws as retryMail (404 when it is no longer failed). */
  retry: staffAction('courriels', z.object({ id: staffText(200) }), ({ id }, { session }) => retryMail(session, id)),
};

/**
 * The redirect after « Réessayer » (to the failed mails, with the outcome in the address), or what /espace says of
 * it: the outcome of that redirect (`notice`), or a refusal or failure (`error`, the page's status set).
 */
export function retryOutcome(Astro: AstroGlobal): Response | { notice?: string; error?: string } {
  const result = Astro.getActionResult(actions.mails.retry);
  if (result && !result.error) return Astro.redirect('/espace?courriel=remis#courriels-echec', 303);
  if (result?.error?.code === 'NOT_FOUND') return Astro.redirect('/espace?courriel=introuvable#courriels-echec', 303);
  const outcome = formOutcome(Astro, result);
  if (outcome.state === 'refused') return { error: outcome.message };
  const retried = Astro.url.searchParams.get('courriel');
  if (retried === 'remis') return { notice: ESPACE_MESSAGES.mailRequeued };
  return retried === 'introuvable' ? { notice: ESPACE_MESSAGES.mailNotFailed } : {};
}
