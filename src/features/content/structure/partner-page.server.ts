/**
 * The controller of /espace/partenaires/<id> and /nouveau (src/pages/espace/partenaires/[id].astro): reads the partner
 * and gives the page what it shows after one of its actions (partner-actions.server.ts).
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { loadContent } from '../editing/content-store.server';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { refusalOf } from './structure-forms.server';
import {
  partnerFromForm,
  secondsToDateInput,
  STRUCTURE_MESSAGES,
  type PartnerForm,
  type RawDocument,
} from './structure';
import { toSeconds } from '../../../content.config';
import { EDITING_MESSAGES } from '../editing/messages';
import { historyOf, type HistoryEntry } from '../editing/history.server';

/** What the page shows, or the redirect (303) after one of its actions succeeded. */
export async function partnerPage(Astro: AstroGlobal) {
  const session = Astro.locals.espace;
  // `nouveau` is the new partner's form: no partner can take that identifier.
  const fresh = Astro.params.id === 'nouveau';
  const id = fresh ? '' : (Astro.params.id ?? '');
  const saveResult = Astro.getActionResult(actions.partners.save);
  const savePost = formOutcome(Astro, saveResult);
  const deletePost = formOutcome(Astro, Astro.getActionResult(actions.partners.delete));
  const restorePost = formOutcome(Astro, Astro.getActionResult(actions.partners.restore));
  if (saveResult?.data) return Astro.redirect(`/espace/partenaires/${saveResult.data.id}?enregistre`, 303);
  if (deletePost.state === 'done') return Astro.redirect('/espace/partenaires?supprime', 303);
  if (restorePost.state === 'done') return Astro.redirect(`/espace/partenaires/${id}?restaure`, 303);
  const refusal = await refusalOf(Astro, [savePost, deletePost, restorePost]);
  let error = refusal?.message;
  const issues = refusal?.issues ?? [];

  let stored: RawDocument | undefined;
  let version = 0;
  let history: HistoryEntry[] = [];
  try {
    if (!fresh) {
      ({ data: stored, version } = await loadContent(session, 'partenaires', id));
      if (stored) history = await historyOf(session, 'partenaires', id);
      else if (!error) [Astro.response.status, error] = [404, STRUCTURE_MESSAGES.notFound];
    }
  } catch (failure) {
    if (!error) ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/partenaires]'));
  }

  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const img = (stored?.img ?? {}) as RawDocument;
  const date = toSeconds(stored?.date);
  // A refused save shows what was typed, as its action read it.
  const posted = refusal?.outcome === savePost ? refusal.posted : undefined;
  const typed =
    posted && new Map([...posted].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
  const form: PartnerForm = typed
    ? partnerFromForm(typed, stored).form
    : {
        id,
        titre: text(stored?.titre),
        intro: text(stored?.intro),
        date: typeof date === 'number' ? secondsToDateInput(date) : '',
        logo: typeof stored?.img === 'string' ? stored.img : text(img.src),
        logoAlt: text(img.alt),
      };
  const done = Astro.request.method === 'GET' ? Astro.url.searchParams : new URLSearchParams();
  const saved = done.has('enregistre') ? STRUCTURE_MESSAGES.saved : done.has('restaure') && EDITING_MESSAGES.restored;
  const heading = fresh ? 'Nouveau partenaire' : `Partenaire : ${form.titre || id}`;
  const errors = Object.fromEntries(issues.map(({ field, message }) => [field, message]));
  const loaded = fresh || stored !== undefined;

  return { error, errors, form, fresh, heading, history, id, loaded, saved, stored, version };
}
