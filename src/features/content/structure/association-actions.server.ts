/**
 * The forms of /espace/association as Astro Actions (src/actions/index.ts): the name and address (article `adresse`),
 * the receipts' details and page texts (document `association/site`), the history's restore of either.
 */
import * as z from 'zod';
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT } from '../../../content-association';
import { loadContent } from '../editing/content-store.server';
import { FieldsRefused, staffAction, staffText, staffVersion } from '../../espace/staff-action.server';
import { ASSOCIATION_DOCUMENTS, ASSOCIATION_FIELDS, type SiteField } from './association-form';
import { restoreAction, saveOrRefuse } from './structure-forms.server';
import { identityFormSchema, schemaErrors, textLines, type FieldErrors } from './structure';

/** The identity form's field of each of article `adresse`'s fields. */
const IDENTITY_FIELDS: Record<string, string> = { titre: 'nom', intro: 'adresse', contenu: 'contacts' };

/** The texts form's fields: each a text of the association's document. */
const siteInput = z.object({
  ...(Object.fromEntries(ASSOCIATION_FIELDS.map((name) => [name, staffText()])) as Record<
    SiteField,
    ReturnType<typeof staffText>
  >),
  version: staffVersion,
});

export const associationActions = {
  /**
   * Saves `nom`, `adresse` and `contacts` (one line per line) into article `adresse`, its other fields kept.
   * @throws FieldsRefused with the form's and the pull's schema's messages, ActionError 409 if stale.
   */
  identity: staffAction(
    'association',
    z.object({ nom: staffText(), adresse: staffText(), contacts: staffText(), version: staffVersion }),
    async ({ nom, adresse, contacts, version }, { session }) => {
      const article = await loadContent(session, 'articles', ADDRESS_ARTICLE);
      const identity = { nom, adresse: textLines(adresse), contacts: textLines(contacts) };
      const data = {
        slug: ADDRESS_ARTICLE,
        cat: 'divers',
        date: '',
        img: { src: '', alt: '' },
        imgContenu: { src: '' },
        picto: { src: '', alt: '' },
        ...article.data,
        titre: identity.nom,
        intro: identity.adresse,
        contenu: identity.contacts,
      };
      const own = identityFormSchema.safeParse(identity);
      const schema = schemaErrors('articles', data);
      const errors: FieldErrors = {
        ...(schema.titre && { nom: schema.titre }),
        ...(schema.intro && { adresse: schema.intro }),
        ...(schema.contenu && { contacts: schema.contenu }),
        ...(!own.success && Object.fromEntries(own.error.issues.map((issue) => [issue.path.join('.'), issue.message]))),
      };
      if (Object.keys(errors).length > 0) throw new FieldsRefused(errors);
      const request = { collection: 'articles', id: ADDRESS_ARTICLE, data, expectedVersion: version };
      await saveOrRefuse(session, request, (path) => IDENTITY_FIELDS[path] ?? path);
    },
  ),

  /** Saves the texts of ASSOCIATION_FIELDS into `association/site`. @throws FieldsRefused, ActionError 409 if stale. */
  texts: staffAction('association', siteInput, async ({ version, ...typed }, { session }) => {
    const document = await loadContent(session, 'association', ASSOCIATION_DOCUMENT);
    const data = { ...document.data, ...typed };
    const errors = schemaErrors('association', data);
    if (Object.keys(errors).length > 0) throw new FieldsRefused(errors);
    const request = { collection: 'association', id: ASSOCIATION_DOCUMENT, data, expectedVersion: version };
    await saveOrRefuse(session, request);
  }),

  /** Puts back the version before history entry `restaurer`, when it is a change of one of the page's documents. */
  restore: restoreAction('association', () => Object.keys(ASSOCIATION_DOCUMENTS)),
};
