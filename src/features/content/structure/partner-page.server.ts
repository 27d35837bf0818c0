/**
 * The controller of /espace/partenaires/<id> and /nouveau (src/pages/espace/partenaires/[id].astro): reads the partner,
 * applies a post (save with its logo upload, deletion, restore) through the editing layer, and gives the page what it
 * shows.
 */
import type { AstroGlobal } from 'astro';
import { ContentRejected, deleteContent, loadContent, saveContent } from '../editing/content-store.server';
import { readArticlePost } from '../articles/articles.server';
import { storePicture } from '../articles/media.server';
import { failureOf } from '../../espace/server-calls.server';
import {
  partnerFromForm,
  secondsToDateInput,
  STRUCTURE_MESSAGES,
  type FieldErrors,
  type PartnerForm,
  type RawDocument,
} from './structure';
import { toSeconds } from '../../../content.config';
import { EDITING_MESSAGES } from '../editing/messages';
import { historyOf, restoreOwnVersion, type HistoryEntry } from '../editing/history.server';

/** What the page shows, or the Response (a redirect after a save, a 404) it answers instead. */
export async function partnerPage(Astro: AstroGlobal) {
  const session = Astro.locals.espace;
  // `nouveau` is the new partner's form: no partner can take that identifier.
  const fresh = Astro.params.id === 'nouveau';
  const id = fresh ? '' : (Astro.params.id ?? '');
  let stored: RawDocument | undefined;
  let version = 0;
  let error: string | undefined;
  let errors: FieldErrors = {};
  let typed: PartnerForm | undefined;
  let loaded = false;
  let history: HistoryEntry[] = [];

  const fail = (failure: unknown) => {
    ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/partenaires]'));
  };

  try {
    if (!fresh) {
      ({ data: stored, version } = await loadContent(session, 'partenaires', id));
      if (!stored) {
        Astro.response.status = 404;
        error = STRUCTURE_MESSAGES.notFound;
      }
    }
    loaded = fresh || stored !== undefined;
  } catch (failure) {
    fail(failure);
  }

  if (loaded && Astro.request.method === 'POST') {
    try {
      // The picture upload of the articles' forms: multipart, bounded, checked and stored in Blobs (docs/pictures.md).
      const posted = await readArticlePost(Astro.request);
      const file = posted.get('logoFichier');
      const fields = new Map(
        [...posted].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as const] : [])),
      );
      const expectedVersion = fresh ? 0 : Number(fields.get('version') ?? Number.NaN);
      if (!fresh && fields.has('restaurer')) {
        await restoreOwnVersion(session, fields.get('restaurer') ?? '', [`partenaires/${id}`]);
        return Astro.redirect(`/espace/partenaires/${id}?restaure`, 303);
      } else if (fields.get('action') === 'supprimer') {
        if (fields.get('confirmer') !== 'oui') {
          Astro.response.status = 400;
          error = STRUCTURE_MESSAGES.deleteUnconfirmed;
        } else {
          await deleteContent(session, 'partenaires', id);
          return Astro.redirect('/espace/partenaires?supprime', 303);
        }
      } else {
        if (file instanceof Blob && file.size > 0) {
          try {
            fields.set('logo', await storePicture(file, Astro.url.origin));
          } catch (failure) {
            ({ status: Astro.response.status, message: errors.logoFichier } = failureOf(
              failure,
              '[espace/partenaires]',
            ));
          }
        }
        const result = partnerFromForm(fields, stored);
        typed = result.form;
        errors = { ...result.errors, ...(errors.logoFichier && { logoFichier: errors.logoFichier }) };
        if (fresh && result.form.id === 'nouveau') errors.id = STRUCTURE_MESSAGES.takenSlug;
        if (Object.keys(errors).length === 0) {
          const saveId = fresh ? result.form.id : id;
          await saveContent(session, { collection: 'partenaires', id: saveId, data: result.document, expectedVersion });
          return Astro.redirect(`/espace/partenaires/${saveId}?enregistre`, 303);
        }
        Astro.response.status = 400;
        error = 'Rien n’a été enregistré : corrigez les champs signalés.';
      }
    } catch (failure) {
      if (failure instanceof ContentRejected) {
        errors = Object.fromEntries(failure.issues.map((issue) => [issue.field, issue.message]));
      }
      fail(failure);
      // A new partner whose id exists: the layer's 409 says « créé entre-temps »; the form says why in its words.
      if (fresh && Astro.response.status === 409) {
        errors = { id: STRUCTURE_MESSAGES.takenSlug };
        error = `Rien n’a été enregistré : ${STRUCTURE_MESSAGES.takenSlug}`;
      } else if (Astro.response.status === 409) {
        error = EDITING_MESSAGES.changedMeanwhile;
      }
    }
  }

  try {
    if (stored) history = await historyOf(session, 'partenaires', id);
  } catch (failure) {
    if (!error) fail(failure);
  }

  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const img = (stored?.img ?? {}) as RawDocument;
  const date = toSeconds(stored?.date);
  const form: PartnerForm = typed ?? {
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

  return { error, errors, form, fresh, heading, history, id, loaded, saved, stored, version };
}
