/**
 * The forms of /espace/categories/<id> as Astro Actions (src/actions/index.ts): the title and description, the order
 * of the articles (« Monter » / « Descendre » without JavaScript re-order without saving), the history's restore.
 * The category is the page's own (`context.params.id`).
 */
import { ActionError } from 'astro:actions';
import * as z from 'zod';
import { restoreAction } from './structure-forms.server';
import { FieldsRefused, staffAction, staffText, staffVersion } from '../../espace/staff-action.server';
import { loadCategory, saveCategoryOrder, saveCategoryText } from './structure.server';
import { isOrderedCategory, moveId, postedOrder, STRUCTURE_MESSAGES, type OrderedCategory } from './structure';

/** The page's category. @throws ActionError NOT_FOUND for an address that is not one. */
function categoryOf(params: Record<string, string | undefined>): OrderedCategory {
  const id = params.id;
  if (!isOrderedCategory(id)) throw new ActionError({ code: 'NOT_FOUND', message: STRUCTURE_MESSAGES.notFound });
  return id;
}

export const categoryActions = {
  /** Saves `titre` and `descr`. @throws FieldsRefused with the pull's schema's messages, ActionError 409 if stale. */
  text: staffAction(
    'categories',
    z.object({ titre: staffText(), descr: staffText(), version: staffVersion }),
    async ({ titre, descr, version }, { session, context }) => {
      const id = categoryOf(context.params);
      const state = await loadCategory(session, id);
      const errors = await saveCategoryText(session, id, state, { titre, descr }, version);
      if (Object.keys(errors).length > 0) throw new FieldsRefused(errors);
    },
  ),

  /**
   * The articles' order (`ordre`, one per article): saved, or after « Monter » / « Descendre » (`monter` or
   * `descendre` holds the moved article) given back moved and unsaved (`{ moved }`).
   * @throws ActionError 409 STRUCTURE_MESSAGES.staleOrder when articles came or went since the page was shown.
   */
  order: staffAction(
    'categories',
    z.object({
      ordre: z.array(z.string()).default([]),
      monter: z.string().optional(),
      descendre: z.string().optional(),
      version: staffVersion,
    }),
    async ({ ordre, monter, descendre, version }, { session, context }) => {
      const id = categoryOf(context.params);
      const state = await loadCategory(session, id);
      const order = postedOrder(
        ordre,
        state.items.map((item) => item.id),
      );
      if (!order) throw new ActionError({ code: 'CONFLICT', message: STRUCTURE_MESSAGES.staleOrder });
      if (monter !== undefined) return { moved: moveId(order, monter, -1) };
      if (descendre !== undefined) return { moved: moveId(order, descendre, 1) };
      await saveCategoryOrder(session, id, state, order, version);
      return { moved: undefined };
    },
  ),

  /** Puts back the version before history entry `restaurer`, when it is a change of this category. */
  restore: restoreAction('categories', (params) => [`categories/${categoryOf(params)}`]),
};
