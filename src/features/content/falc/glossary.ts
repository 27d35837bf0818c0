/**
 * « Facile à lire » (FALC, Inclusion Europe's rules: everyday words, one idea a sentence, short sentences): the
 * glossary of the field's words that parents meet, each explained simply. /facile lists them all; a FALC page shows the
 * ones its text uses (<dfn>, with the <abbr> of an acronym), each first use in its text linked to its explanation.
 */

/**
 * A word of the glossary: its `id` (its entry's fragment, #mot-<id>), the `term` as written, its spelled-out
 * `expansion` (acronyms), its simple `explanation`.
 */
export interface GlossaryEntry {
  id: string;
  term: string;
  expansion?: string;
  explanation: string;
}

/** The glossary, in alphabetical order. */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'aeeh',
    term: 'AEEH',
    expansion: 'allocation d’éducation de l’enfant handicapé',
    explanation: 'De l’argent versé chaque mois aux parents d’un enfant handicapé. La MDPH décide. La CAF paie.',
  },
  {
    id: 'aesh',
    term: 'AESH',
    expansion: 'accompagnant d’élève en situation de handicap',
    explanation: 'Un adulte qui aide un enfant handicapé en classe. Il l’aide à écrire, à bouger ou à comprendre.',
  },
  {
    id: 'caf',
    term: 'CAF',
    expansion: 'caisse d’allocations familiales',
    explanation: 'Le service public qui verse des aides aux familles.',
  },
  {
    id: 'mdph',
    term: 'MDPH',
    expansion: 'maison départementale des personnes handicapées',
    explanation: 'Le service qui étudie les besoins d’une personne handicapée. Il décide des aides.',
  },
  {
    id: 'pps',
    term: 'PPS',
    expansion: 'projet personnalisé de scolarisation',
    explanation: 'Un document écrit pour votre enfant. Il dit ce dont votre enfant a besoin à l’école.',
  },
  {
    id: 'quotient-familial',
    term: 'quotient familial',
    explanation:
      'Un calcul fait avec vos revenus et le nombre de personnes de la famille. Il sert à fixer un prix juste.',
  },
  {
    id: 'reduction-impot',
    term: 'réduction d’impôt',
    explanation: 'Une partie de votre don vient en moins sur vos impôts. Vous payez donc moins d’impôts.',
  },
];

/** The page that lists every glossary word, each entry at #mot-<id> (entryId). */
export const GLOSSARY_PAGE = '/facile';

/** The fragment of `entry` on the glossary page and in a FALC page's « Les mots difficiles »: `mot-<id>`. */
export const entryId = (entry: GlossaryEntry) => `mot-${entry.id}`;

const isAcronym = ({ term }: GlossaryEntry) => term === term.toUpperCase();

/**
 * A regular expression source matching a use of `entry`: an acronym in capitals as written, a word with its first
 * letter in either case (a sentence may start with it) and either apostrophe.
 */
function termPattern(entry: GlossaryEntry): string {
  if (isAcronym(entry)) return entry.term;
  const [first = '', ...rest] = [...entry.term];
  const letters = rest.map((character) => (/['’]/.test(character) ? "[’']" : character)).join('');
  return `[${first.toLowerCase()}${first.toUpperCase()}]${letters}`;
}

/** A use of `entry` as a whole word (no letter on either side). */
const wholeWord = (entry: GlossaryEntry) => new RegExp(`(^|[^\\p{L}])${termPattern(entry)}(?![\\p{L}])`, 'u');

/** The glossary's words that `text` uses (an acronym in capitals, others with either case for their first letter). */
export function termsIn(text: string): GlossaryEntry[] {
  return GLOSSARY.filter((entry) => wholeWord(entry).test(text));
}

/** An acronym's explanation as an <abbr>'s title: « expansion : explanation ». */
export const abbrTitle = (entry: GlossaryEntry) => `${entry.expansion} : ${entry.explanation}`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const escape = (text: string) => text.replace(/[&"<>]/g, (character) => ESCAPES[character]!);

const defaultHref = (entry: GlossaryEntry) => `${GLOSSARY_PAGE}#${entryId(entry)}`;

/** How explainTerms explains: `every` word of the glossary (else its acronyms only), linked to `href`. */
export interface ExplainOptions {
  every?: boolean;
  href?: (entry: GlossaryEntry) => string;
}

/**
 * Sanitised HTML (sanitizeContentHtml's output: well-formed, `<` escaped in text and attributes) with the first use
 * of each glossary acronym in its text (each glossary word with `every`) linked to its entry — by default on the
 * glossary page, /facile#mot-<id> — an acronym inside an <abbr> that spells it out: the explanation is one tap or one
 * Enter away, where a tooltip opens for neither touch nor keyboard. Inside a link the editor wrote, an acronym only
 * gets its <abbr> (no link in a link); text inside an <abbr> is left alone.
 */
export function explainTerms(html: string, { every = false, href = defaultHref }: ExplainOptions = {}): string {
  const entries = GLOSSARY.filter((entry) => every || isAcronym(entry));
  // One pass over each text: an inserted title (« … La CAF paie. ») is never searched again.
  const use = new RegExp(`(^|[^\\p{L}])(${entries.map(termPattern).join('|')})(?![\\p{L}])`, 'gu');
  const entryOf = (found: string) => entries.find((entry) => new RegExp(`^${termPattern(entry)}$`, 'u').test(found))!;
  const explained = new Set<GlossaryEntry>();
  let insideAbbr = 0;
  let insideLink = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        if (/^<abbr\b/i.test(part)) insideAbbr += 1;
        else if (/^<\/abbr>/i.test(part)) insideAbbr = Math.max(0, insideAbbr - 1);
        else if (/^<a\b/i.test(part)) insideLink += 1;
        else if (/^<\/a>/i.test(part)) insideLink = Math.max(0, insideLink - 1);
        return part;
      }
      if (insideAbbr > 0) return part;
      return part.replace(use, (match, before: string, found: string) => {
        const entry = entryOf(found);
        if (explained.has(entry) || (insideLink > 0 && !entry.expansion)) return match;
        explained.add(entry);
        const word = entry.expansion ? `<abbr title="${escape(abbrTitle(entry))}">${found}</abbr>` : found;
        return `${before}${insideLink > 0 ? word : `<a class="term" href="${escape(href(entry))}">${word}</a>`}`;
      });
    })
    .join('');
}

/**
 * explainTerms' output with its glossary links taken out (each <abbr> kept): for a card whose whole item is one link,
 * as the home's news carousel, where a word's link would be a second stop in a card that leads to the article anyway.
 */
export function withoutTermLinks(html: string): string {
  return html.replace(/<a class="term" href="[^"]*">(.*?)<\/a>/g, '$1');
}

/** The FALC article of each parent journey: its id in the articles (category `facile`), by journey. */
export const FALC_ARTICLES = {
  ecole: 'facile-ecole',
  preinscription: 'facile-preinscription',
  don: 'facile-don',
} as const;

/** A link of a FALC page to what it explains: where it goes, what it says (a verb: what the reader will do). */
export interface FalcAction {
  href: string;
  text: string;
}

/** The actions each parent journey's FALC article leads to, by article id (FALC_ARTICLES). */
export const FALC_ACTIONS: Readonly<Record<string, readonly FalcAction[]>> = {
  [FALC_ARTICLES.ecole]: [
    { href: '/ecole', text: 'Lire la page de l’école' },
    { href: '/ecole#preinscription', text: 'Remplir la pré-inscription' },
  ],
  [FALC_ARTICLES.preinscription]: [{ href: '/ecole#preinscription', text: 'Remplir la pré-inscription' }],
  [FALC_ARTICLES.don]: [{ href: '/soutenir', text: 'Faire un don' }],
};
