/**
 * The publish page's French words: the outcomes of a publish asked from the space (`/espace/publication?publication=…`)
 * and the pull's content report as sentences.
 */
import { LEGAL_PAGES, type CollectionName, type ContentReport } from '../../../content.config';

/** What the publish page says of each outcome (only `lancee` is good news). */
export const PUBLICATION_MESSAGES = {
  lancee:
    'La publication est lancée. Le site sera à jour dans quelques minutes : rechargez-le ensuite pour voir vos ' +
    'modifications.',
  attente:
    'Une publication vient déjà d’être lancée. Attendez une minute, puis réessayez si vos dernières modifications ' +
    'n’apparaissent pas.',
  erreur:
    'La publication n’a pas pu être lancée : le service de publication a répondu par une erreur. Réessayez dans ' +
    'quelques minutes ; si cela dure, prévenez la personne qui s’occupe du site.',
};

/** The outcome named by a `publication` query value, or undefined for none or an unknown one. */
export function publicationOutcome(value: string | null | undefined): keyof typeof PUBLICATION_MESSAGES | undefined {
  return value && Object.hasOwn(PUBLICATION_MESSAGES, value) ? (value as keyof typeof PUBLICATION_MESSAGES) : undefined;
}

/** A collection's document in French: subject, « of … », and « published » in the singular and plural. */
const NAMES: Record<CollectionName, [subject: string, of: string, one: string, many: string]> = {
  articles: ['L’article', 'de l’article', 'article publié', 'articles publiés'],
  partenaires: ['Le partenaire', 'du partenaire', 'partenaire publié', 'partenaires publiés'],
  categories: ['La catégorie', 'de la catégorie', 'catégorie publiée', 'catégories publiées'],
  menus: ['Le menu', 'du menu', 'menu publié', 'menus publiés'],
  association: ['Le document', 'du document', 'document de l’association publié', 'documents de l’association publiés'],
};
const names = (collection: string) => NAMES[collection as CollectionName];
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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

/**
 * One French sentence per problem (« L’article « Fête » n’est pas publié : sa date est illisible. »); `titles`:
 * `collection/id` → titre.
 */
export function problemSentences(report: ContentReport, titles: Record<string, string> = {}): string[] {
  return report.problems.map((problem) => {
    const name = titles[`${problem.collection}/${problem.id}`] || problem.titre || problem.id;
    const [subject, of] = names(problem.collection);
    const what = `${subject} « ${name} »`;
    if (problem.leftOut === 'document') return sentence(`${what} n’est pas publié : ${problem.reason}`);
    const link = `Un lien${problem.titre ? ` « ${problem.titre} »` : ''} ${of} « ${problem.id} »`;
    if (problem.leftOut === 'link') return sentence(`${link} n’est pas publié : ${problem.reason}`);
    return sentence(`${what} est publié sans son champ ${problem.field} : ${problem.reason}`);
  });
}

/**
 * One French sentence per picture left out (« L’image principale de l’article « Fête » n’est pas publiée : … »);
 * `titles` as above.
 */
export function pictureSentences(report: ContentReport, titles: Record<string, string> = {}): string[] {
  return report.pictures.failed.map((failure) => {
    const name = titles[`${failure.collection}/${failure.id}`] || failure.id;
    const [label, feminine] = pictureField(failure.field);
    const published = feminine ? 'publiée' : 'publié';
    return sentence(`${label} ${names(failure.collection)[1]} « ${name} » n’est pas ${published} : ${failure.reason}`);
  });
}

/** Counts in words: « 23 articles publiés sur 23 », one line per collection, then the pictures. */
export function countSentences({ collections, pictures }: ContentReport): string[] {
  const missing = new Set(pictures.failed.map((failure) => failure.src)).size;
  return [
    ...Object.entries(collections).map(([name, { read, shown, drafts }]) => {
      const [, , one, many] = names(name);
      return (
        `${count(shown, one, many)} sur ${read}` + (drafts ? ` (${count(drafts, 'brouillon', 'brouillons')})` : '')
      );
    }),
    count(pictures.fetched, 'image publiée', 'images publiées') +
      (missing ? `, ${count(missing, 'image écartée', 'images écartées')}` : ''),
  ];
}

/**
 * One French sentence per legal page generated for want of its article, saying what it lacks that the law asks for
 * (« La page « Mentions légales » est écrite par le site, faute d’article « mentions » publié ; il y manque le nom du
 * directeur ou de la directrice de la publication, que la loi exige (LCEN, article 6) : à écrire dans l’espace… »).
 */
export function legalSentences({ legal = [] }: ContentReport): string[] {
  return legal.map(({ page, missing }) => {
    const name = LEGAL_PAGES[page as keyof typeof LEGAL_PAGES] ?? page;
    const generated = `La page « ${name} » est écrite par le site, faute d’article « ${page} » publié`;
    return sentence(missing.length > 0 ? `${generated} ; il y manque ${missing.join(' ; ')}` : generated);
  });
}
