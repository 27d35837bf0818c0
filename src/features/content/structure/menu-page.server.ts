/**
 * The controller of /espace/menus/<id> (src/pages/espace/menus/[id].astro): reads the menu and gives the page what it
 * shows, with or without `?lien`, after one of its actions (menu-actions.server.ts).
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { loadContent } from '../editing/content-store.server';
import { historyOf, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES } from '../editing/messages';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { isMenuId, linkAt, linkFromForm, linkList, linkToForm, MENUS, nameOf, parseLinkTarget } from './menu-links';
import { refusalOf } from './structure-forms.server';
import { STRUCTURE_MESSAGES, type FieldErrors, type RawDocument } from './structure';

/** What the page shows, or the Response it answers instead: a 404, or the redirect (303) after a save. */
export async function menuPage(Astro: AstroGlobal) {
  const id = Astro.params.id ?? '';
  if (!isMenuId(id)) return new Response(null, { status: 404 });
  const session = Astro.locals.espace;
  const base = `/espace/menus/${id}`;
  const orderResult = Astro.getActionResult(actions.menus.order);
  const outcomes = [
    formOutcome(Astro, orderResult),
    formOutcome(Astro, Astro.getActionResult(actions.menus.link)),
    formOutcome(Astro, Astro.getActionResult(actions.menus.delete)),
    formOutcome(Astro, Astro.getActionResult(actions.menus.frame)),
    formOutcome(Astro, Astro.getActionResult(actions.menus.restore)),
  ] as const;
  const [orderPost, linkPost, deletePost, framePost, restorePost] = outcomes;
  const order = orderResult?.data;
  const moved = order?.moved && { parent: order.parent, keys: order.moved };
  if (orderPost.state === 'done' && !moved) {
    const parent = order?.parent;
    return Astro.redirect(
      parent ? `${base}?lien=${parent}&enregistre=ordre#sous-liens` : `${base}?enregistre=ordre#ordre`,
      303,
    );
  }
  if (linkPost.state === 'done') return Astro.redirect(`${base}?enregistre`, 303);
  if (deletePost.state === 'done') return Astro.redirect(`${base}?supprime`, 303);
  if (framePost.state === 'done') return Astro.redirect(`${base}?enregistre#suivi`, 303);
  if (restorePost.state === 'done') return Astro.redirect(`${base}?restaure`, 303);
  const refusal = await refusalOf(Astro, [...outcomes]);
  let error = refusal?.message;
  const errors: FieldErrors = Object.fromEntries((refusal?.issues ?? []).map(({ field, message }) => [field, message]));

  let loaded = false;
  let menu: RawDocument | undefined;
  let version = 0;
  let history: HistoryEntry[] = [];
  const target = parseLinkTarget(Astro.url.searchParams.get('lien'));
  try {
    ({ data: menu, version } = await loadContent(session, 'menus', id));
    loaded = true;
    if (menu && !target) history = await historyOf(session, 'menus', id);
  } catch (failure) {
    if (!error) ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/menus]'));
  }

  const liens = linkList(menu?.liens);
  const place = target && 'place' in target ? target.place : undefined;
  const current = place ? linkAt(menu, place) : undefined;
  if (target && loaded && !error && place && !current) {
    Astro.response.status = 404;
    error = STRUCTURE_MESSAGES.linkNotFound;
  }
  const editing = target && (!place || current);
  // A refused form shows what was typed, as its action read it.
  const posted = refusal?.posted;
  const typed = (name: string) => (typeof posted?.get(name) === 'string' ? (posted.get(name) as string) : '');
  const names = ['titre', 'href', 'ancre', 'visible', 'exergue', 'nouvelOnglet', 'picto', 'pictoAlt'];
  const form =
    posted && refusal?.outcome === linkPost
      ? linkFromForm(new Map(names.map((name) => [name, typed(name)]))).form
      : linkToForm(current ?? { statut: true });
  const stored = (menu?.schema as RawDocument | undefined)?.src;
  const schemaSrc =
    posted && refusal?.outcome === framePost ? typed('schema').trim() : typeof stored === 'string' ? stored : '';

  const menuName = MENUS[id].name;
  const heading = editing
    ? place
      ? `Modifier « ${nameOf(current!)} »`
      : target && 'parent' in target && target.parent !== undefined
        ? `Nouveau sous-lien de « ${nameOf(liens[target.parent] ?? {})} »`
        : 'Nouveau lien'
    : menuName;
  const query = Astro.url.searchParams;
  const notice =
    Astro.request.method === 'GET'
      ? query.has('enregistre')
        ? query.get('enregistre') === 'ordre'
          ? STRUCTURE_MESSAGES.orderSaved
          : STRUCTURE_MESSAGES.saved
        : query.has('supprime')
          ? STRUCTURE_MESSAGES.deleted
          : query.has('restaure')
            ? EDITING_MESSAGES.restored
            : undefined
      : moved
        ? STRUCTURE_MESSAGES.orderUnsaved
        : undefined;

  return {
    base,
    editing,
    error,
    errors,
    form,
    heading,
    history,
    id,
    loaded,
    menu,
    menuName,
    moved,
    notice,
    schemaSrc,
    version,
  };
}
