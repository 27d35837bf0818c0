/**
 * « Facile à lire » (FALC, Inclusion Europe's rules: everyday words, one idea a sentence, short sentences): the
 * glossary of the field's words that parents meet, each explained simply; the FALC pages show the ones their text
 * uses, as <dfn> with the <abbr> of an acronym.
 */

/** A word of the glossary: the `term` as written, its spelled-out `expansion` (acronyms), its simple `explanation`. */
export interface GlossaryEntry {
  term: string;
  expansion?: string;
  explanation: string;
}

/** The glossary, in alphabetical order. */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: 'AEEH',
    expansion: 'allocation d’éducation de l’enfant handicapé',
    explanation: 'De l’argent versé chaque mois aux parents d’un enfant handicapé. La MDPH décide. La CAF paie.',
  },
  {
    term: 'AESH',
    expansion: 'accompagnant d’élève en situation de handicap',
    explanation: 'Un adulte qui aide un enfant handicapé en classe. Il l’aide à écrire, à bouger ou à comprendre.',
  },
  {
    term: 'CAF',
    expansion: 'caisse d’allocations familiales',
    explanation: 'Le service public qui verse des aides aux familles.',
  },
  {
    term: 'MDPH',
    expansion: 'maison départementale des personnes handicapées',
    explanation: 'Le service qui étudie les besoins d’une personne handicapée. Il décide des aides.',
  },
  {
    term: 'PPS',
    expansion: 'projet personnalisé de scolarisation',
    explanation: 'Un document écrit pour votre enfant. Il dit ce dont votre enfant a besoin à l’école.',
  },
  {
    term: 'quotient familial',
    explanation:
      'Un calcul fait avec vos revenus et le nombre de personnes de la famille. Il sert à fixer un prix juste.',
  },
  {
    term: 'réduction d’impôt',
    explanation: 'Une partie de votre don vient en moins sur vos impôts. Vous payez donc moins d’impôts.',
  },
];

/** The glossary's words that `text` uses (an acronym in capitals as a whole word, others in any case). */
export function termsIn(text: string): GlossaryEntry[] {
  return GLOSSARY.filter(({ term }) =>
    term === term.toUpperCase()
      ? new RegExp(`(^|[^\\p{L}])${term}([^\\p{L}]|$)`, 'u').test(text)
      : text.toLowerCase().includes(term.toLowerCase()),
  );
}

/** An acronym's explanation as an <abbr>'s title: « expansion : explanation ». */
export const abbrTitle = (entry: GlossaryEntry) => `${entry.expansion} : ${entry.explanation}`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * Sanitised HTML (sanitizeContentHtml's output: well-formed, `<` escaped in text and attributes) with the first use
 * of each glossary acronym in its text wrapped in an <abbr> that explains it, so that a parent meets « MDPH » with its
 * meaning in every article; text already inside an <abbr> is left alone.
 */
export function explainTerms(html: string): string {
  const acronyms = new Map(GLOSSARY.filter((entry) => entry.expansion).map((entry) => [entry.term, entry]));
  // One pass over each text: an inserted title (« … La CAF paie. ») is never searched again.
  const use = new RegExp(`(^|[^\\p{L}])(${[...acronyms.keys()].join('|')})(?![\\p{L}])`, 'gu');
  const explained = new Set<string>();
  let insideAbbr = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        if (/^<abbr\b/i.test(part)) insideAbbr += 1;
        else if (/^<\/abbr>/i.test(part)) insideAbbr = Math.max(0, insideAbbr - 1);
        return part;
      }
      if (insideAbbr > 0) return part;
      return part.replace(use, (match, before: string, term: string) => {
        if (explained.has(term)) return match;
        explained.add(term);
        const title = abbrTitle(acronyms.get(term)!).replace(/[&"<>]/g, (character) => ESCAPES[character]!);
        return `${before}<abbr title="${title}">${term}</abbr>`;
      });
    })
    .join('');
}

/** The FALC article of each parent journey: its id in the articles (category `facile`), by journey. */
export const FALC_ARTICLES = {
  ecole: 'facile-ecole',
  preinscription: 'facile-preinscription',
  don: 'facile-don',
} as const;
