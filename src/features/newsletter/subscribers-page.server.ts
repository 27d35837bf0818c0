/**
 * What /espace/lettre shows of the subscribers: the confirmed ones, the one whose removal is asked (`?retirer=<id>`),
 * and after the removal's action (letterActions.remove) the redirection to `?retiree`, or its refusal in French.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { failureOf } from '../espace/server-calls.server';
import { formOutcome } from '../espace/staff-action.server';
import { getSubscriber, listSubscribers, type Subscriber } from './subscribers.server';

/**
 * The page's subscribers, the one asked about, the failure to say and whether a removal was just done; or the
 * redirection (303) that follows a removal. Never throws (failures become `error` and the page's status).
 */
export async function subscribersPage(astro: AstroGlobal) {
  const result = astro.getActionResult(actions.lettre.remove);
  const posted = formOutcome(astro, result);
  if (posted.state === 'done') return astro.redirect('/espace/lettre?retiree', 303);
  const session = astro.locals.espace;
  let error = posted.state === 'refused' ? posted.message : undefined;
  let subscribers: Subscriber[] | undefined;
  let asked: Subscriber | undefined;
  const toRemove = astro.url.searchParams.get('retirer');
  try {
    if (toRemove !== null && !error) asked = await getSubscriber(session, toRemove);
  } catch (failure) {
    ({ status: astro.response.status, message: error } = failureOf(failure, '[espace/lettre]'));
  }
  // An address no longer subscribed still shows the list.
  try {
    subscribers = await listSubscribers(session);
  } catch (failure) {
    if (!error) ({ status: astro.response.status, message: error } = failureOf(failure, '[espace/lettre]'));
  }
  return { subscribers, asked, error, removed: astro.url.searchParams.has('retiree') && !error };
}
