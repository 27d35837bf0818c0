/**
 * The work of /espace/publication (the page only renders): after its action (publication-actions.server.ts) the
 * redirect to its outcome, else the outcome in French, the last request, the mail settings and the report of the
 * version online (report.json, built with the function) in sentences naming documents by their titre.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { getEntry } from 'astro:content';
import type { ContentReport } from '../../../content.config';
import { frenchDayTime } from '../../admissions/admissions';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { siteMailSettings } from '../../mail/mail-env.server';
import { lastPublication, type PublicationRequest } from './publish.server';
import {
  countSentences,
  legalSentences,
  pictureSentences,
  problemSentences,
  publicationMessage,
  publicationOfQuery,
} from './report';

const reports = import.meta.glob<ContentReport>('../../../data/report.json', { eager: true, import: 'default' });

/** What each recorded request's outcome reads as in « Dernière demande de publication ». */
const RESULTS = {
  'en-cours': 'en cours…',
  lancee: 'lancée',
  attente: 'pas de nouvelle publication (une par minute au plus)',
  erreur: 'échec, rien n’a été publié',
};

/** The last request in a sentence: « Le 3 octobre 2026 à 14:05, par x@y.fr : lancée. » (without its « par » part). */
export const requestResult = (last: PublicationRequest) => RESULTS[last.resultat];

/**
 * What the page shows, or the redirect (303) to `?publication=…` after « Publier le site ». Never throws (failures
 * become `error` and the page's status).
 */
export async function publicationPage(context: AstroGlobal) {
  const result = context.getActionResult(actions.publication.publish);
  if (result?.data) return context.redirect(`/espace/publication?${result.data}`, 303);
  const posted = formOutcome(context, result);
  let error = posted.state === 'refused' ? posted.message : undefined;
  let last: PublicationRequest | undefined;
  try {
    last = await lastPublication(context.locals.espace);
  } catch (failure) {
    if (!error) ({ status: context.response.status, message: error } = failureOf(failure, '[espace/publication]'));
  }
  const report = Object.values(reports)[0];
  const { outcome, next } = publicationOfQuery(context.url.searchParams);
  // Titles of the published documents the report names, so that sentences say « Fête de l'école », not an id (a
  // document left out is not among them: its problem carries its titre).
  const titles: Record<string, string> = {};
  const published = report ? report.problems.filter((problem) => problem.leftOut !== 'document') : [];
  for (const { collection, id } of report ? [...published, ...report.pictures.failed] : []) {
    const entry = (collection === 'articles' || collection === 'partenaires') && (await getEntry(collection, id));
    if (entry) titles[`${collection}/${id}`] = entry.data.titre;
  }
  return {
    error,
    last,
    outcome,
    message: outcome && publicationMessage(outcome, next),
    report,
    problems: report ? problemSentences(report, titles) : [],
    pictures: report ? pictureSentences(report, titles) : [],
    legal: report ? legalSentences(report) : [],
    counts: report ? countSentences(report) : [],
    generatedAt: report && frenchDayTime(new Date(report.generatedAt * 1000)),
    mail: siteMailSettings(),
  };
}
