/**
 * The forms of /espace/partenaires/<id> and /espace/partenaires/nouveau as Astro Actions (src/actions/index.ts): the
 * partner (with its logo sent from the computer), its deletion, the history's restore. The partner is the page's own
 * (`context.params.id`; `nouveau`: a new one, whose id the form gives).
 */
import { ActionError } from 'astro:actions';
import * as z from 'zod';
import { HttpError } from '../../../lib/http';
import { deleteContent, loadContent } from '../editing/content-store.server';
import { EDITING_MESSAGES } from '../editing/messages';
import { CONTENT_TEXT_MAX } from '../editing/text-bounds';
import { FieldsRefused, staffAction, staffText, staffVersion } from '../../espace/staff-action.server';
import {
  chosenPicture,
  PENDING_PICTURE,
  restoreAction,
  saveOrRefuse,
  storeChosenPicture,
} from './structure-forms.server';
import { partnerFromForm, STRUCTURE_MESSAGES } from './structure';

/** The net under the partner's texts: as the articles' form (each field's own bound is the layer's, by the field). */
const partnerText = () => staffText(CONTENT_TEXT_MAX.contenu);

/** The page's partner: its id, or undefined for `nouveau`. @throws ActionError NOT_FOUND for no id. */
function partnerOf(params: Record<string, string | undefined>): string | undefined {
  if (!params.id) throw new ActionError({ code: 'NOT_FOUND', message: STRUCTURE_MESSAGES.notFound });
  return params.id === 'nouveau' ? undefined : params.id;
}

/** The page's partner, one that exists already. @throws ActionError NOT_FOUND on `nouveau` or for no id. */
function existingPartnerOf(params: Record<string, string | undefined>): string {
  const id = partnerOf(params);
  if (id === undefined) throw new ActionError({ code: 'NOT_FOUND', message: STRUCTURE_MESSAGES.notFound });
  return id;
}

export const partnerActions = {
  /**
   * Saves the partner (a new one under `id`, else the form's name made an id), its logo sent as `logoFichier` (stored
   * once every other field passes) or typed as `logo`; returns the saved id.
   * @throws FieldsRefused by field (the form's rules, the pull's schema, an id taken: 409), ActionError 404 for a
   *   partner deleted, 409 EDITING_MESSAGES.changedMeanwhile when stale.
   */
  save: staffAction(
    'partenaires',
    z.object({
      titre: partnerText(),
      id: partnerText(),
      intro: partnerText(),
      date: partnerText(),
      logo: partnerText(),
      logoAlt: partnerText(),
      logoFichier: z.instanceof(File).optional(),
      version: staffVersion,
    }),
    async ({ logoFichier, version, ...typed }, { session, context }) => {
      const id = partnerOf(context.params);
      const stored = id === undefined ? undefined : (await loadContent(session, 'partenaires', id)).data;
      if (id !== undefined && !stored)
        throw new ActionError({ code: 'NOT_FOUND', message: STRUCTURE_MESSAGES.notFound });
      const picture = chosenPicture(logoFichier);
      const fieldsWith = (logo: string) => new Map(Object.entries({ ...typed, logo }));
      const checked = partnerFromForm(fieldsWith(picture ? PENDING_PICTURE : typed.logo), stored);
      const errors = {
        ...checked.errors,
        ...(id === undefined && checked.form.id === 'nouveau' && { id: STRUCTURE_MESSAGES.takenSlug }),
      };
      if (Object.keys(errors).length > 0) {
        throw new FieldsRefused({ ...errors, ...(picture && { logoFichier: STRUCTURE_MESSAGES.pictureNotKept }) });
      }
      const logo = picture
        ? await storeChosenPicture(picture, context.url.origin, 'logoFichier', '[espace/partenaires]')
        : typed.logo;
      const { document, form } = partnerFromForm(fieldsWith(logo), stored);
      const saveId = id ?? form.id;
      try {
        await saveOrRefuse(session, {
          collection: 'partenaires',
          id: saveId,
          data: document,
          expectedVersion: id === undefined ? 0 : version,
        });
      } catch (failure) {
        if (!(failure instanceof HttpError) || failure.status !== 409) throw failure;
        // A new partner whose id exists: the layer says « créé entre-temps »; the form says why in its words.
        if (id === undefined) throw new FieldsRefused({ id: STRUCTURE_MESSAGES.takenSlug }, 'CONFLICT');
        throw new ActionError({ code: 'CONFLICT', message: EDITING_MESSAGES.changedMeanwhile });
      }
      return { id: saveId };
    },
  ),

  /** Deletes the partner once `confirmer` is `oui`. @throws ActionError 400 STRUCTURE_MESSAGES.deleteUnconfirmed, 404. */
  delete: staffAction(
    'partenaires',
    z.object({ confirmer: staffText(10) }),
    async ({ confirmer }, { session, context }) => {
      const id = existingPartnerOf(context.params);
      if (confirmer !== 'oui')
        throw new ActionError({ code: 'BAD_REQUEST', message: STRUCTURE_MESSAGES.deleteUnconfirmed });
      await deleteContent(session, 'partenaires', id);
    },
  ),

  /** Puts back the version before history entry `restaurer`, when it is a change of this partner. */
  restore: restoreAction('partenaires', (params) => [`partenaires/${existingPartnerOf(params)}`]),
};
