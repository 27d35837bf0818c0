/**
 * The controller of /espace/categories/<id> (src/pages/espace/categories/[id].astro): reads the category, applies a
 * post (texts, order, restore) through the editing layer, and gives the page what it shows.
 */
import type { AstroGlobal } from 'astro';
import { historyOf, restoreOwnVersion, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES, type FieldIssue } from '../editing/messages';
import { readFormEntries } from '../../espace/form-post.server';
import { failureOf } from '../../espace/server-calls.server';
import {
  loadCategory,
  saveCategoryOrder,
  saveCategoryText,
  type CategoryState,
  type CategoryText,
} from './structure.server';
import { isOrderedCategory, moveId, postedOrder, secondsToDateInput, STRUCTURE_MESSAGES } from './structure';

/** What the page shows, or the Response (a redirect after a save, a 404) it answers instead. */
export async function categoryPage(Astro: AstroGlobal) {
  const id = Astro.params.id ?? '';
  if (!isOrderedCategory(id)) return new Response(null, { status: 404 });
  const session = Astro.locals.espace;
  let state: CategoryState | undefined;
  let error: string | undefined;
  let shown: string[] | undefined;
  let notice: string | undefined;
  let typed: CategoryText | undefined;
  let issues: FieldIssue[] = [];
  let history: HistoryEntry[] = [];

  const fail = (failure: unknown) => {
    ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/categories]'));
  };

  try {
    state = await loadCategory(session, id);
  } catch (failure) {
    fail(failure);
  }

  if (state && Astro.request.method === 'POST') {
    try {
      const entries = await readFormEntries(Astro.request);
      const fields = new Map(entries);
      const current = state.items.map((item) => item.id);
      const order = postedOrder(
        entries.filter(([name]) => name === 'ordre').map(([, value]) => value),
        current,
      );
      const version = Number(fields.get('version') ?? Number.NaN);
      if (fields.has('restaurer')) {
        await restoreOwnVersion(session, fields.get('restaurer') ?? '', [`categories/${id}`]);
        return Astro.redirect(`/espace/categories/${id}?restaure`, 303);
      } else if (fields.get('action') === 'texte') {
        typed = { titre: (fields.get('titre') ?? '').trim(), descr: (fields.get('descr') ?? '').trim() };
        const errors = await saveCategoryText(session, id, state, typed, version);
        issues = Object.entries(errors).map(([field, message]) => ({ field, message }));
        if (issues.length === 0) return Astro.redirect(`/espace/categories/${id}?texte`, 303);
        Astro.response.status = 400;
      } else if (!order) {
        Astro.response.status = 409;
        error = STRUCTURE_MESSAGES.staleOrder;
      } else if (fields.has('monter') || fields.has('descendre')) {
        const direction = fields.has('monter') ? 'monter' : 'descendre';
        shown = moveId(order, fields.get(direction) ?? '', direction === 'monter' ? -1 : 1);
        notice = STRUCTURE_MESSAGES.orderUnsaved;
      } else {
        await saveCategoryOrder(session, id, state, order, version);
        return Astro.redirect(`/espace/categories/${id}?enregistre`, 303);
      }
    } catch (failure) {
      fail(failure);
    }
  }
  try {
    if (state) history = await historyOf(session, 'categories', id);
  } catch (failure) {
    if (!error) fail(failure);
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
