/**
 * The content report (src/data/report.json, written by the pull) and the publish page's words:
 * the outcomes of /api/rebuild's form answer (`/publier?publication=…`) and the report as plain
 * French sentences for editors.
 */

import type { ContentReport } from '../../content.config';

export type { ContentReport };
/** A picture the pull left out. */
export type PictureFailure = ContentReport['pictures']['failed'][number];

/** Outcomes of the publish form, as /api/rebuild names them in its 303 redirect. */
export type PublicationOutcome = 'lancee' | 'refusee' | 'attente' | 'erreur';

/** What the publish page says for each outcome (`success` styles it as good news). */
export const PUBLICATION_MESSAGES: Record<PublicationOutcome, { text: string; success: boolean }> = {
  lancee: {
    text: 'La publication est lancée. Le site sera à jour dans quelques minutes : rechargez-le ensuite pour voir vos modifications.',
    success: true,
  },
  refusee: {
    text: 'Mot de passe incorrect : rien n’a été publié. Vérifiez-le, puis réessayez.',
    success: false,
  },
  attente: {
    text: 'Une publication vient déjà d’être lancée. Attendez une minute, puis réessayez si vos dernières modifications n’apparaissent pas.',
    success: false,
  },
  erreur: {
    text: 'La publication n’a pas pu être lancée : le service de publication a répondu par une erreur. Réessayez dans quelques minutes ; si cela dure, prévenez la personne qui s’occupe du site.',
    success: false,
  },
};

/** The outcome named by a `publication` query value, or undefined for none or an unknown one. */
export function publicationOutcome(value: string | null | undefined): PublicationOutcome | undefined {
  return value && Object.hasOwn(PUBLICATION_MESSAGES, value) ? (value as PublicationOutcome) : undefined;
}

/** How a collection's document is named: "L’article" / "de l’article"… */
const DOCUMENT_NAMES: Record<string, { subject: string; of: string }> = {
  articles: { subject: 'L’article', of: 'de l’article' },
  partenaires: { subject: 'Le partenaire', of: 'du partenaire' },
  categories: { subject: 'La catégorie', of: 'de la catégorie' },
  menus: { subject: 'Le menu', of: 'du menu' },
};
const documentName = (collection: string) =>
  DOCUMENT_NAMES[collection] ?? { subject: `Le document de « ${collection} »`, of: `du document de « ${collection} »` };

/** The place of a picture in plain words, and whether the word is feminine (for the agreement). */
function pictureField(field: string): [label: string, feminine: boolean] {
  if (field === 'img.src') return ['L’image principale', true];
  if (field === 'imgContenu.src') return ['L’image du texte complet', true];
  if (field === 'picto.src') return ['Le pictogramme', false];
  if (field.startsWith('intro')) return ['Une image de l’introduction', true];
  if (field.startsWith('contenu')) return ['Une image du texte', true];
  if (/^liens\.\d+(\.children\.\d+)?\.picto\.src$/.test(field)) return ['Le pictogramme d’un lien', false];
  return [`L’image (${field})`, true];
}

const sentence = (text: string) => `${text.trim().replace(/[.\s]+$/, '')}.`;

/** One French sentence per problem (« L’article « Fête » n’est pas publié : sa date est illisible. »); `titles`: `collection/id` → titre. */
export function problemSentences(report: ContentReport, titles: Record<string, string> = {}): string[] {
  return report.problems.map((problem) => {
    const name = titles[`${problem.collection}/${problem.id}`] || problem.titre || problem.id;
    const what = `${documentName(problem.collection).subject} « ${name} »`;
    if (problem.leftOut === 'document') return sentence(`${what} n’est pas publié : ${problem.reason}`);
    if (problem.leftOut === 'link') {
      const link = problem.titre ? ` « ${problem.titre} »` : '';
      return sentence(
        `Un lien${link} ${documentName(problem.collection).of} « ${problem.id} » n’est pas publié : ${problem.reason}`,
      );
    }
    return sentence(`${what} est publié sans son champ ${problem.field} : ${problem.reason}`);
  });
}

/** One French sentence per picture left out (« L’image principale de l’article « Fête » n’est pas publiée : … »); `titles` as above. */
export function pictureSentences(report: ContentReport, titles: Record<string, string> = {}): string[] {
  return report.pictures.failed.map((failure) => {
    const name = titles[`${failure.collection}/${failure.id}`] || failure.id;
    const [label, feminine] = pictureField(failure.field);
    const published = feminine ? 'publiée' : 'publié';
    return sentence(
      `${label} ${documentName(failure.collection).of} « ${name} » n’est pas ${published} : ${failure.reason}`,
    );
  });
}

/** Counts in words: « 23 articles publiés sur 23 », one line per collection. */
export function countSentences(report: ContentReport): string[] {
  const nouns: Record<string, [string, string]> = {
    articles: ['article publié', 'articles publiés'],
    partenaires: ['partenaire publié', 'partenaires publiés'],
    categories: ['catégorie publiée', 'catégories publiées'],
    menus: ['menu publié', 'menus publiés'],
  };
  const lines = Object.entries(report.collections).map(([collection, { read, shown }]) => {
    const [one, many] = nouns[collection] ?? [`document de ${collection} publié`, `documents de ${collection} publiés`];
    return `${shown} ${shown === 1 ? one : many} sur ${read}`;
  });
  const { fetched, failed } = report.pictures;
  const missing = new Set(failed.map((failure) => failure.src)).size;
  lines.push(
    `${fetched} ${fetched === 1 ? 'image publiée' : 'images publiées'}${missing ? `, ${missing} ${missing === 1 ? 'image écartée' : 'images écartées'}` : ''}`,
  );
  return lines;
}
