/**
 * The controller of /espace/categories/<id> (src/pages/espace/categories/[id].astro): reads the category, applies a
 * post (texts, order, restore) through the editing layer, and gives the page what it shows.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { historyOf, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES } from '../editing/messages';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { loadCategory, type CategoryState, type CategoryText } from './structure.server';
import { isOrderedCategory, secondsToDateInput, STRUCTURE_MESSAGES } from './structure';

/**
 * What the page shows, or the Response it answers instead: a 404, or the redirect after one of its actions
 * (category-actions.server.ts) succeeded.
 */
export async function categoryPage(Astro: AstroGlobal) {
  const id = Astro.params.id ?? '';
  if (!isOrderedCategory(id)) return new Response(null, { status: 404 });
  const session = Astro.locals.espace;
  const base = `/espace/categories/${id}`;
  const textPost = formOutcome(Astro, Astro.getActionResult(actions.categories.text));
  const orderResult = Astro.getActionResult(actions.categories.order);
  const orderPost = formOutcome(Astro, orderResult);
  const restorePost = formOutcome(Astro, Astro.getActionResult(actions.categories.restore));
  const shown = orderResult?.data?.moved;
  if (textPost.state === 'done') return Astro.redirect(`${base}?texte`, 303);
  if (orderPost.state === 'done' && !shown) return Astro.redirect(`${base}?enregistre`, 303);
  if (restorePost.state === 'done') return Astro.redirect(`${base}?restaure`, 303);

  const refusal = [textPost, orderPost, restorePost].find((post) => post.state === 'refused');
  let error = refusal && refusal.issues.length === 0 ? refusal.message : undefined;
  const issues = textPost.state === 'refused' ? textPost.issues : [];
  const notice = shown ? STRUCTURE_MESSAGES.orderUnsaved : undefined;
  let typed: CategoryText | undefined;
  if (textPost.state === 'refused') {
    // A copy: an island's renderer reads the request again after the page.
    const posted = await Astro.request.clone().formData();
    typed = { titre: String(posted.get('titre') ?? ''), descr: String(posted.get('descr') ?? '') };
  }

  let state: CategoryState | undefined;
  let history: HistoryEntry[] = [];
  try {
    state = await loadCategory(session, id);
    history = await historyOf(session, 'categories', id);
  } catch (failure) {
    if (!error) ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/categories]'));
  }

  const query = Astro.url.searchParams;
  const done = !error && Astro.request.method === 'GET';
  const saved =
    done &&
    (query.has('enregistre')
      ? STRUCTURE_MESSAGES.orderSaved
      : query.has('texte')
        ? STRUCTURE_MESSAGES.saved
        : query.has('restaure')
          ? EDITING_MESSAGES.restored
          : undefined);
  const byId = new Map(state?.items.map((item) => [item.id, item]));
  const items = (shown ?? state?.items.map((item) => item.id) ?? []).flatMap((key) => {
    const item = byId.get(key);
    if (!item) return [];
    const day = secondsToDateInput(item.date);
    return [{ key, label: item.titre, detail: day ? `${key} · ${day.split('-').reverse().join('/')}` : key }];
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const form: CategoryText = typed ?? {
    titre: text(state?.document?.titre),
    descr: text(state?.document?.descr),
  };
  const errorOf = (field: string) => issues.find((issue) => issue.field === field)?.message;
  const titre = state ? `Rubrique : ${state.titre}` : 'Rubrique';

  return { error, errorOf, form, history, id, issues, items, notice, saved, state, titre };
}
