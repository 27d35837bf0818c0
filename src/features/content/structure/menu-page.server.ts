/**
 * The controller of /espace/menus/<id> (src/pages/espace/menus/[id].astro): reads the menu, applies a post (order,
 * link, deletion, frame address, restore) through the editing layer, and gives the page what it shows.
 */
import type { AstroGlobal } from 'astro';
import { ContentRejected, loadContent, saveContent } from '../editing/content-store.server';
import { historyOf, restoreOwnVersion, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES } from '../editing/messages';
import { readArticlePost } from '../articles/articles.server';
import { storePicture } from '../articles/media.server';
import { failureOf } from '../../espace/server-calls.server';
import {
  isMenuId,
  linkAt,
  linkFromForm,
  linkList,
  linkPath,
  linkToForm,
  MENUS,
  nameOf,
  parseLinkTarget,
  removeLink,
  reorderMenu,
  writeLink,
  type LinkForm,
  type LinkTarget,
} from './menu-links';
import { errorsUnder, moveId, schemaErrors, STRUCTURE_MESSAGES, type FieldErrors, type RawDocument } from './structure';

/** What the page shows, or the Response (a redirect after a save, a 404) it answers instead. */
export async function menuPage(Astro: AstroGlobal) {
  const id = Astro.params.id ?? '';
  if (!isMenuId(id)) return new Response(null, { status: 404 });
  const session = Astro.locals.espace;
  const base = `/espace/menus/${id}`;
  let menu: RawDocument | undefined;
  let version = 0;
  let error: string | undefined;
  let errors: FieldErrors = {};
  let typed: LinkForm | undefined;
  let typedSchema: string | undefined;
  let moved: { parent: string; keys: string[] } | undefined;
  let loaded = false;
  let history: HistoryEntry[] = [];

  const fail = (failure: unknown) => {
    ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/menus]'));
  };

  try {
    ({ data: menu, version } = await loadContent(session, 'menus', id));
    loaded = true;
  } catch (failure) {
    fail(failure);
  }

  let target: LinkTarget | undefined = parseLinkTarget(Astro.url.searchParams.get('lien'));

  /** Saves `next` (refused when the schema finds a problem), then back to `to`. */
  async function save(next: RawDocument | undefined, expected: number, to: string, errorPrefix?: string) {
    if (!next) {
      Astro.response.status = 409;
      error = STRUCTURE_MESSAGES.linkNotFound;
      return undefined;
    }
    const found = schemaErrors('menus', next);
    if (Object.keys(found).length > 0) {
      Astro.response.status = 400;
      errors = errorPrefix ? errorsUnder(found, errorPrefix) : found;
      error =
        Object.keys(errors).length === 0 || !errorPrefix
          ? `Rien n’a été enregistré : ${Object.entries(found)
              .map(([path, message]) => `${path} : ${message}`)
              .join(' ')}`
          : 'Rien n’a été enregistré : corrigez les champs signalés.';
      return undefined;
    }
    await saveContent(session, { collection: 'menus', id, data: next, expectedVersion: expected });
    return Astro.redirect(to, 303);
  }

  if (loaded && Astro.request.method === 'POST') {
    try {
      // Multipart when the link's form sends a pictogram (the articles' picture upload: bounded, checked, to Blobs).
      const posted = await readArticlePost(Astro.request);
      const upload = posted.get('pictoFichier');
      const entries = [...posted].flatMap(([name, value]) =>
        typeof value === 'string' ? [[name, value] as [string, string]] : [],
      );
      const fields = new Map(entries);
      const expected = Number(fields.get('version') ?? Number.NaN);
      const action = fields.get('action');
      const parentText = fields.get('parent') ?? '';
      const parent = parentText === '' ? undefined : Number(parentText);
      const keys = entries.filter(([name]) => name === 'ordre').map(([, value]) => value);
      const direction = fields.has('monter') ? 'monter' : fields.has('descendre') ? 'descendre' : undefined;
      target = parseLinkTarget(fields.get('lien')) ?? target;
      if (fields.has('restaurer')) {
        await restoreOwnVersion(session, fields.get('restaurer') ?? '', [`menus/${id}`]);
        return Astro.redirect(`${base}?restaure`, 303);
      }
      const back =
        parent === undefined ? `${base}?enregistre=ordre#ordre` : `${base}?lien=${parent}&enregistre=ordre#sous-liens`;
      if (direction) {
        const key = fields.get(direction) ?? '';
        moved = { parent: parentText, keys: moveId(keys, key, direction === 'monter' ? -1 : 1) };
      } else if (action === 'ordre') {
        const response = await save(reorderMenu(menu, parent, keys.map(Number)), expected, back);
        if (response) return response;
      } else if (action === 'lien' && target) {
        let uploadError: string | undefined;
        if (upload instanceof Blob && upload.size > 0) {
          try {
            fields.set('picto', await storePicture(upload, Astro.url.origin));
          } catch (failure) {
            ({ status: Astro.response.status, message: uploadError } = failureOf(failure, '[espace/menus]'));
          }
        }
        const { form, fields: link } = linkFromForm(fields);
        typed = form;
        const next = writeLink(menu, target, link);
        const place =
          'place' in target
            ? target.place
            : target.parent === undefined
              ? { index: linkList(menu?.liens).length }
              : { index: target.parent, child: linkList(linkAt(menu, { index: target.parent })?.children).length };
        const own: FieldErrors = {
          ...(uploadError && { pictoFichier: uploadError }),
          ...(form.picto &&
            !form.pictoAlt &&
            !form.titre && {
              'picto.alt': 'Sans titre, le pictogramme a besoin d’une description : c’est elle qui nomme le lien.',
            }),
        };
        if (Object.keys(own).length > 0) {
          Astro.response.status = 400;
          errors = own;
          error = 'Rien n’a été enregistré : corrigez les champs signalés.';
        } else {
          const response = await save(next, expected, `${base}?enregistre`, linkPath(place));
          if (response) return response;
        }
      } else if (action === 'supprimer' && target && 'place' in target) {
        if (fields.get('confirmer') !== 'oui') {
          Astro.response.status = 400;
          error = STRUCTURE_MESSAGES.deleteUnconfirmed;
        } else {
          const response = await save(removeLink(menu, target.place), expected, `${base}?supprime`);
          if (response) return response;
        }
      } else if (action === 'schema' && id === 'divers') {
        typedSchema = (fields.get('schema') ?? '').trim();
        const next = { ...menu, schema: { src: typedSchema } };
        const response = await save(next, expected, `${base}?enregistre#suivi`, 'schema');
        if (response) return response;
        errors = { schema: errors.src ?? Object.values(errors)[0] ?? '' };
      } else {
        Astro.response.status = 400;
        error = STRUCTURE_MESSAGES.linkNotFound;
      }
    } catch (failure) {
      if (failure instanceof ContentRejected) {
        errors = Object.fromEntries(failure.issues.map((issue) => [issue.field, issue.message]));
      }
      fail(failure);
    }
  }

  try {
    if (menu && !target) history = await historyOf(session, 'menus', id);
  } catch (failure) {
    if (!error) fail(failure);
  }

  const liens = linkList(menu?.liens);
  const place = target && 'place' in target ? target.place : undefined;
  const current = place ? linkAt(menu, place) : undefined;
  if (target && loaded && !error && place && !current) {
    Astro.response.status = 404;
    error = STRUCTURE_MESSAGES.linkNotFound;
  }
  const editing = target && (!place || current);
  const form: LinkForm = typed ?? linkToForm(current ?? { statut: true });

  const menuName = MENUS[id].name;
  const heading = editing
    ? place
      ? `Modifier « ${nameOf(current!)} »`
      : target && 'parent' in target && target.parent !== undefined
        ? `Nouveau sous-lien de « ${nameOf(liens[target.parent] ?? {})} »`
        : 'Nouveau lien'
    : menuName;
  const notice =
    Astro.request.method === 'GET'
      ? Astro.url.searchParams.has('enregistre')
        ? Astro.url.searchParams.get('enregistre') === 'ordre'
          ? STRUCTURE_MESSAGES.orderSaved
          : STRUCTURE_MESSAGES.saved
        : Astro.url.searchParams.has('supprime')
          ? STRUCTURE_MESSAGES.deleted
          : Astro.url.searchParams.has('restaure')
            ? EDITING_MESSAGES.restored
            : undefined
      : moved
        ? STRUCTURE_MESSAGES.orderUnsaved
        : undefined;
  const schemaSrc =
    typedSchema ??
    (typeof (menu?.schema as RawDocument | undefined)?.src === 'string'
      ? ((menu?.schema as RawDocument).src as string)
      : '');

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
