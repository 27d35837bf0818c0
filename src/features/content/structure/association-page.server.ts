/**
 * The controller of /espace/association (src/pages/espace/association.astro): reads article `adresse` and document
 * `association/site`, applies a post (identity, page texts, restore) through the editing layer, and gives the page
 * what it shows.
 */
import type { AstroGlobal } from 'astro';
import { SITE_TEXT_DEFAULTS, type SiteTextName } from '../../../association';
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT } from '../../../content-association';
import { ContentRejected, loadContent, saveContent } from '../editing/content-store.server';
import { readFormPost } from '../../espace/form-post.server';
import { failureOf } from '../../espace/server-calls.server';
import { ASSOCIATION_DOCUMENTS, ASSOCIATION_FIELDS, type SiteField } from './association-form';
import { historyOfAll, restoreOwnVersion, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES } from '../editing/messages';
import {
  htmlToTextLines,
  identityFormSchema,
  schemaErrors,
  STRUCTURE_MESSAGES,
  textLines,
  type FieldErrors,
} from './structure';

/** What the page shows, or the Response (a redirect after a save, a 404) it answers instead. */
export async function associationPage(Astro: AstroGlobal) {
  const session = Astro.locals.espace;

  let identity = { nom: '', adresse: '', contacts: '', version: 0 };
  let site: Record<SiteField, string> & { version: number } = {
    ...(Object.fromEntries(ASSOCIATION_FIELDS.map((name) => [name, ''])) as Record<SiteField, string>),
    version: 0,
  };
  let identityErrors: FieldErrors = {};
  let siteErrors: FieldErrors = {};
  let error: string | undefined;
  let which: 'identite' | 'textes' | undefined;
  let loaded = false;
  let adresse: Record<string, unknown> | undefined;
  let siteDocument: Record<string, unknown> | undefined;
  let history: HistoryEntry[] = [];

  const fail = (failure: unknown) => {
    ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/association]'));
  };

  try {
    const [article, document] = await Promise.all([
      loadContent(session, 'articles', ADDRESS_ARTICLE),
      loadContent(session, 'association', ASSOCIATION_DOCUMENT),
    ]);
    adresse = article.data;
    siteDocument = document.data;
    identity = {
      nom: typeof adresse?.titre === 'string' ? adresse.titre : '',
      adresse: htmlToTextLines(adresse?.intro),
      contacts: htmlToTextLines(adresse?.contenu),
      version: article.version,
    };
    site = {
      ...(Object.fromEntries(
        ASSOCIATION_FIELDS.map((name) => [name, typeof siteDocument?.[name] === 'string' ? siteDocument[name] : '']),
      ) as Record<SiteField, string>),
      version: document.version,
    };
    loaded = true;
  } catch (failure) {
    fail(failure);
  }

  if (loaded && Astro.request.method === 'POST') {
    try {
      const fields = await readFormPost(Astro.request);
      if (fields.has('restaurer')) {
        await restoreOwnVersion(session, fields.get('restaurer') ?? '', Object.keys(ASSOCIATION_DOCUMENTS));
        return Astro.redirect('/espace/association?restaure', 303);
      }
      which = fields.get('formulaire') === 'textes' ? 'textes' : 'identite';
      const expectedVersion = Number(fields.get('version') ?? Number.NaN);
      if (which === 'identite') {
        identity = {
          nom: (fields.get('nom') ?? '').trim(),
          adresse: textLines(fields.get('adresse') ?? ''),
          contacts: textLines(fields.get('contacts') ?? ''),
          version: identity.version,
        };
        const data = {
          slug: ADDRESS_ARTICLE,
          cat: 'divers',
          date: '',
          img: { src: '', alt: '' },
          imgContenu: { src: '' },
          picto: { src: '', alt: '' },
          ...adresse,
          titre: identity.nom,
          intro: identity.adresse,
          contenu: identity.contacts,
        };
        const own = identityFormSchema.safeParse(identity);
        const schema = schemaErrors('articles', data);
        identityErrors = {
          ...(schema.titre && { nom: schema.titre }),
          ...(schema.intro && { adresse: schema.intro }),
          ...(schema.contenu && { contacts: schema.contenu }),
          ...(own.success
            ? {}
            : Object.fromEntries(own.error.issues.map((issue) => [issue.path.join('.'), issue.message]))),
        };
        if (Object.keys(identityErrors).length === 0) {
          await saveContent(session, { collection: 'articles', id: ADDRESS_ARTICLE, data, expectedVersion });
          return Astro.redirect('/espace/association?enregistre=identite', 303);
        }
      } else {
        const typed = Object.fromEntries(
          ASSOCIATION_FIELDS.map((name) => [name, (fields.get(name) ?? '').trim()]),
        ) as Record<SiteField, string>;
        site = { ...typed, version: site.version };
        const data = { ...siteDocument, ...typed };
        siteErrors = schemaErrors('association', data);
        if (Object.keys(siteErrors).length === 0) {
          await saveContent(session, { collection: 'association', id: ASSOCIATION_DOCUMENT, data, expectedVersion });
          return Astro.redirect('/espace/association?enregistre=textes', 303);
        }
      }
      Astro.response.status = 400;
      error = 'Rien n’a été enregistré : corrigez les champs signalés.';
    } catch (failure) {
      if (failure instanceof ContentRejected) {
        const rejected = Object.fromEntries(failure.issues.map((issue) => [issue.field, issue.message]));
        if (which === 'textes') siteErrors = rejected;
        else identityErrors = rejected;
      }
      fail(failure);
    }
  }

  try {
    const documents = [['articles', ADDRESS_ARTICLE] as const, ['association', ASSOCIATION_DOCUMENT] as const];
    if (loaded) history = await historyOfAll(session, documents);
  } catch (failure) {
    if (!error) fail(failure);
  }

  const query = Astro.request.method === 'GET' ? Astro.url.searchParams : new URLSearchParams();
  const saved = query.has('enregistre') ? STRUCTURE_MESSAGES.saved : query.has('restaure') && EDITING_MESSAGES.restored;
  const defaultOf = (name: SiteField) =>
    (SITE_TEXT_DEFAULTS as Partial<Record<SiteField, string>>)[name as SiteTextName] ?? '';

  return { defaultOf, error, history, identity, identityErrors, loaded, saved, site, siteErrors };
}
