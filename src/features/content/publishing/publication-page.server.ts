/**
 * The work of /espace/publication (the page only renders): its post (publish), then the outcome in French, the last
 * request, the mail settings and the report of the version online (report.json, built with the function) in
 * sentences naming documents by their titre.
 */
import type { PageContext } from '../page-context';
import { getEntry } from 'astro:content';
import type { ContentReport } from '../../../content.config';
import { frenchDayTime } from '../../admissions/admissions';
import { readFormPost } from '../../espace/form-post.server';
import { failureOf } from '../../espace/server-calls.server';
import { siteMailSettings } from '../../mail/mail-env.server';
import { lastPublication, publicationQuery, publish, type PublicationRequest } from './publish.server';
import {
  countSentences,
  legalSentences,
  pictureSentences,
  problemSentences,
  publicationMessage,
  publicationOfQuery,
} from './report';
import { publishSettings } from './article-publishing.server';

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
 * The page's post, when it is one: where to go next (`?publication=…`), or the failure in French (its status set).
 * Never throws.
 */
export async function publicationPost(context: PageContext): Promise<{ redirect?: string; error?: string }> {
  if (context.request.method !== 'POST') return {};
  try {
    await readFormPost(context.request);
    return {
      redirect: `/espace/publication?${publicationQuery(await publish(context.locals.espace, publishSettings()))}`,
    };
  } catch (failure) {
    const { status, message } = failureOf(failure, '[espace/publication]');
    context.response.status = status;
    return { error: message };
  }
}

/** What the page shows, after a failed post's `error` if any. Never throws (failures become `error`). */
export async function publicationPage(context: PageContext, postError?: string) {
  const session = context.locals.espace;
  let error = postError;
  const fail = (failure: unknown) => {
    if (!error) ({ status: context.response.status, message: error } = failureOf(failure, '[espace/publication]'));
  };
  let last: PublicationRequest | undefined;
  try {
    last = await lastPublication(session);
  } catch (failure) {
    fail(failure);
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
