/**
 * The forms of /espace/menus/<id> as Astro Actions (src/actions/index.ts): the order of its links or of a link's
 * sub-links (« Monter » / « Descendre » without JavaScript re-order without saving), a link (with its pictogram sent
 * from the computer), a link's deletion, the address of the « Suivi des démarches » frame (`divers` only), the
 * history's restore. The menu is the page's own (`context.params.id`); a link is found by its place (`lien`: `3`,
 * `3.1`, `nouveau`, `3.nouveau`).
 */
import { ActionError } from 'astro:actions';
import * as z from 'zod';
import type { StaffSession } from '../../espace/auth.server';
import { FieldsRefused, staffAction, staffText, staffVersion } from '../../espace/staff-action.server';
import { loadContent } from '../editing/content-store.server';
import { CONTENT_TEXT_MAX } from '../editing/text-bounds';
import {
  isMenuId,
  linkAt,
  linkFromForm,
  linkList,
  linkPath,
  parseLinkTarget,
  removeLink,
  reorderMenu,
  writeLink,
  type LinkTarget,
  type MenuId,
} from './menu-links';
import {
  chosenPicture,
  errorsOf,
  PENDING_PICTURE,
  restoreAction,
  saveOrRefuse,
  storeChosenPicture,
} from './structure-forms.server';
import { errorsUnder, moveId, schemaErrors, STRUCTURE_MESSAGES, type RawDocument } from './structure';

/** The page's menu. @throws ActionError NOT_FOUND for an address that is not one of the four. */
function menuOf(params: Record<string, string | undefined>): MenuId {
  const id = params.id;
  if (!isMenuId(id)) throw new ActionError({ code: 'NOT_FOUND', message: STRUCTURE_MESSAGES.notFound });
  return id;
}

/** The link a form is about (its `lien`, else the page's `?lien`). @throws ActionError 400 linkNotFound when none. */
function targetOf(lien: string, url: URL): LinkTarget {
  const target = parseLinkTarget(lien) ?? parseLinkTarget(url.searchParams.get('lien'));
  if (!target) throw new ActionError({ code: 'BAD_REQUEST', message: STRUCTURE_MESSAGES.linkNotFound });
  return target;
}

/**
 * `next` (the menu after a change) as the pull's schema would publish it. With `prefix` (the changed link's path,
 * `liens.3`, or `schema`), its problems are said by field (`href`, `picto.alt`); others in one sentence.
 * @throws ActionError 409 linkNotFound when the change found no link (the menu changed meanwhile), FieldsRefused, 400.
 */
function checkedMenu(next: RawDocument | undefined, prefix?: string): RawDocument {
  if (!next) throw new ActionError({ code: 'CONFLICT', message: STRUCTURE_MESSAGES.linkNotFound });
  const found = schemaErrors('menus', next);
  if (Object.keys(found).length === 0) return next;
  const errors = prefix ? errorsUnder(found, prefix) : {};
  if (Object.keys(errors).length > 0) throw new FieldsRefused(errors);
  const problems = Object.entries(found).map(([path, message]) => `${path} : ${message}`);
  throw new ActionError({ code: 'BAD_REQUEST', message: `Rien n’a été enregistré : ${problems.join(' ')}` });
}

/** Saves menu `id` as `data` (checkedMenu's), refusals by field under `prefix`. @throws as saveOrRefuse. */
async function saveMenu(session: StaffSession, id: MenuId, data: RawDocument, version: number, prefix = '') {
  const fieldOf = (path: string) => (prefix && path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : path);
  await saveOrRefuse(session, { collection: 'menus', id, data, expectedVersion: version }, fieldOf);
}

/** The menu as stored (undefined when absent) and its version. @throws HttpError 403, 503. */
const loadMenu = (session: StaffSession, id: MenuId) => loadContent(session, 'menus', id);

/** A text of a link's form: bounded as the articles' form (each field's own bound is the layer's, by the field). */
const linkText = () => staffText(CONTENT_TEXT_MAX.contenu);

export const menuActions = {
  /**
   * The order of the menu's links (`parent` empty) or of link `parent`'s sub-links (`ordre`, their stored indexes):
   * saved, or after « Monter » / « Descendre » (`monter` or `descendre` holds the moved key) given back moved and
   * unsaved (`moved`). @throws ActionError 409 linkNotFound when the list changed meanwhile.
   */
  order: staffAction(
    'menus',
    z.object({
      ordre: z.array(staffText(10)).default([]),
      parent: staffText(10),
      monter: z.string().optional(),
      descendre: z.string().optional(),
      version: staffVersion,
    }),
    async ({ ordre, parent, monter, descendre, version }, { session, context }) => {
      const id = menuOf(context.params);
      if (monter !== undefined) return { parent, moved: moveId(ordre, monter, -1) };
      if (descendre !== undefined) return { parent, moved: moveId(ordre, descendre, 1) };
      const { data: menu } = await loadMenu(session, id);
      const next = checkedMenu(reorderMenu(menu, parent === '' ? undefined : Number(parent), ordre.map(Number)));
      await saveMenu(session, id, next, version);
      return { parent, moved: undefined };
    },
  ),

  /**
   * Saves link `lien` (a new one last of its list) from its form; a pictogram sent as `pictoFichier` is stored once
   * every other field passes and replaces `picto`. @throws FieldsRefused by field, ActionError 409 linkNotFound.
   */
  link: staffAction(
    'menus',
    z.object({
      lien: staffText(20),
      titre: linkText(),
      href: linkText(),
      ancre: linkText(),
      visible: staffText(10),
      exergue: staffText(10),
      nouvelOnglet: staffText(10),
      picto: linkText(),
      pictoAlt: linkText(),
      pictoFichier: z.instanceof(File).optional(),
      version: staffVersion,
    }),
    async ({ lien, pictoFichier, version, ...typed }, { session, context }) => {
      const id = menuOf(context.params);
      const target = targetOf(lien, context.url);
      const { data: menu } = await loadMenu(session, id);
      const place =
        'place' in target
          ? target.place
          : target.parent === undefined
            ? { index: linkList(menu?.liens).length }
            : { index: target.parent, child: linkList(linkAt(menu, { index: target.parent })?.children).length };
      const prefix = linkPath(place);
      const picture = chosenPicture(pictoFichier);
      const linkWith = (picto: string) => linkFromForm(new Map(Object.entries({ ...typed, picto })));
      const { form } = linkWith(picture ? PENDING_PICTURE : typed.picto);
      if (form.picto && !form.pictoAlt && !form.titre) {
        throw new FieldsRefused({
          'picto.alt': 'Sans titre, le pictogramme a besoin d’une description : c’est elle qui nomme le lien.',
          ...(picture && { pictoFichier: STRUCTURE_MESSAGES.pictureNotKept }),
        });
      }
      let next: RawDocument;
      try {
        next = checkedMenu(writeLink(menu, target, linkWith(form.picto).fields), prefix);
      } catch (refusal) {
        if (!(refusal instanceof FieldsRefused) || !picture) throw refusal;
        throw new FieldsRefused({ ...errorsOf(refusal), pictoFichier: STRUCTURE_MESSAGES.pictureNotKept });
      }
      if (picture) {
        const picto = await storeChosenPicture(picture, context.url.origin, 'pictoFichier', '[espace/menus]');
        next = checkedMenu(writeLink(menu, target, linkWith(picto).fields), prefix);
      }
      await saveMenu(session, id, next, version, prefix);
    },
  ),

  /** Deletes link `lien` (with its sub-links) once `confirmer` is `oui`. @throws ActionError 400, 409 linkNotFound. */
  delete: staffAction(
    'menus',
    z.object({ lien: staffText(20), confirmer: staffText(10), version: staffVersion }),
    async ({ lien, confirmer, version }, { session, context }) => {
      const id = menuOf(context.params);
      const target = targetOf(lien, context.url);
      if (!('place' in target)) {
        throw new ActionError({ code: 'BAD_REQUEST', message: STRUCTURE_MESSAGES.linkNotFound });
      }
      if (confirmer !== 'oui') {
        throw new ActionError({ code: 'BAD_REQUEST', message: STRUCTURE_MESSAGES.deleteUnconfirmed });
      }
      const { data: menu } = await loadMenu(session, id);
      await saveMenu(session, id, checkedMenu(removeLink(menu, target.place)), version);
    },
  ),

  /** Saves `schema.src` of menu `divers`, the « Suivi des démarches » frame's address. @throws FieldsRefused `schema`. */
  frame: staffAction(
    'menus',
    z.object({ schema: staffText(CONTENT_TEXT_MAX.src), version: staffVersion }),
    async ({ schema, version }, { session, context }) => {
      const id = menuOf(context.params);
      if (id !== 'divers') throw new ActionError({ code: 'BAD_REQUEST', message: STRUCTURE_MESSAGES.linkNotFound });
      const { data: menu } = await loadMenu(session, id);
      const next = { ...menu, schema: { src: schema } };
      try {
        await saveMenu(session, id, checkedMenu(next, 'schema'), version, 'schema');
      } catch (refusal) {
        if (!(refusal instanceof FieldsRefused)) throw refusal;
        const [message = ''] = Object.values(errorsOf(refusal));
        throw new FieldsRefused({ schema: errorsOf(refusal).src ?? message });
      }
    },
  ),

  /** Puts back the version before history entry `restaurer`, when it is a change of this menu. */
  restore: restoreAction('menus', (params) => [`menus/${menuOf(params)}`]),
};
