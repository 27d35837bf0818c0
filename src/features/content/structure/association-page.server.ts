/**
 * The controller of /espace/association (src/pages/espace/association.astro): reads article `adresse` and document
 * `association/site`, and gives the page what it shows after one of its actions (association-actions.server.ts).
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { SITE_TEXT_DEFAULTS, type SiteTextName } from '../../../association';
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT } from '../../../content-association';
import { loadContent } from '../editing/content-store.server';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { ASSOCIATION_FIELDS, type SiteField } from './association-form';
import { historyOfAll, type HistoryEntry } from '../editing/history.server';
import { EDITING_MESSAGES } from '../editing/messages';
import { refusalOf } from './structure-forms.server';
import { htmlToTextLines, STRUCTURE_MESSAGES, textLines, type FieldErrors } from './structure';

/** Each field of `fields` as a text (absent: ''). */
const textsOf = <Name extends string>(fields: readonly Name[], read: (name: Name) => unknown) =>
  Object.fromEntries(fields.map((name) => [name, typeof read(name) === 'string' ? read(name) : ''])) as Record<
    Name,
    string
  >;

/** What the page shows, or the redirect (303) after one of its actions succeeded. */
export async function associationPage(Astro: AstroGlobal) {
  const session = Astro.locals.espace;
  const identityPost = formOutcome(Astro, Astro.getActionResult(actions.association.identity));
  const textsPost = formOutcome(Astro, Astro.getActionResult(actions.association.texts));
  const restorePost = formOutcome(Astro, Astro.getActionResult(actions.association.restore));
  if (identityPost.state === 'done') return Astro.redirect('/espace/association?enregistre=identite', 303);
  if (textsPost.state === 'done') return Astro.redirect('/espace/association?enregistre=textes', 303);
  if (restorePost.state === 'done') return Astro.redirect('/espace/association?restaure', 303);
  const refusal = await refusalOf(Astro, [identityPost, textsPost, restorePost]);
  let error = refusal?.message;
  const byField = (issues = refusal?.issues ?? []): FieldErrors =>
    Object.fromEntries(issues.map(({ field, message }) => [field, message]));
  const identityErrors = refusal?.outcome === identityPost ? byField() : {};
  const siteErrors = refusal?.outcome === textsPost ? byField() : {};

  let loaded = false;
  let identity = { nom: '', adresse: '', contacts: '', version: 0 };
  let site: Record<SiteField, string> & { version: number } = { ...textsOf(ASSOCIATION_FIELDS, () => ''), version: 0 };
  let history: HistoryEntry[] = [];
  try {
    const [article, document] = await Promise.all([
      loadContent(session, 'articles', ADDRESS_ARTICLE),
      loadContent(session, 'association', ASSOCIATION_DOCUMENT),
    ]);
    const adresse = article.data;
    identity = {
      nom: typeof adresse?.titre === 'string' ? adresse.titre : '',
      adresse: htmlToTextLines(adresse?.intro),
      contacts: htmlToTextLines(adresse?.contenu),
      version: article.version,
    };
    site = { ...textsOf(ASSOCIATION_FIELDS, (name) => document.data?.[name]), version: document.version };
    loaded = true;
    history = await historyOfAll(session, [
      ['articles', ADDRESS_ARTICLE],
      ['association', ASSOCIATION_DOCUMENT],
    ]);
  } catch (failure) {
    if (!error) ({ status: Astro.response.status, message: error } = failureOf(failure, '[espace/association]'));
  }

  // A refused form shows what was typed, as its action read it.
  const posted = refusal?.posted;
  const typed = (name: string) => String(posted?.get(name) ?? '');
  if (posted && refusal?.outcome === identityPost) {
    identity = {
      nom: typed('nom').trim(),
      adresse: textLines(typed('adresse')),
      contacts: textLines(typed('contacts')),
      version: identity.version,
    };
  }
  if (posted && refusal?.outcome === textsPost) {
    site = { ...textsOf(ASSOCIATION_FIELDS, (name) => typed(name).trim()), version: site.version };
  }

  const query = Astro.request.method === 'GET' ? Astro.url.searchParams : new URLSearchParams();
  const saved = query.has('enregistre') ? STRUCTURE_MESSAGES.saved : query.has('restaure') && EDITING_MESSAGES.restored;
  const defaultOf = (name: SiteField) =>
    (SITE_TEXT_DEFAULTS as Partial<Record<SiteField, string>>)[name as SiteTextName] ?? '';

  const issues = refusal?.issues ?? [];
  return { defaultOf, error, history, identity, identityErrors, issues, loaded, saved, site, siteErrors };
}
