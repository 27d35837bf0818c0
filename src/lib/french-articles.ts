/**
 * A proper name after « de » or « à », with the French contractions of its leading article: « Les Colibris »
 * gives « des Colibris » and « aux Colibris », « Le Chemin » « du Chemin » and « au Chemin », « La Ruche »
 * « de la Ruche » and « à la Ruche », « L’Envol » « de l’Envol » and « à l’Envol »; a name without an article
 * gives « d’Arc-en-ciel » before a vowel, else « de Pas à Pas », and « à » followed by the name. The article is
 * lowercased, as a contracted one is (« des », « du » cannot keep a capital); the rest is kept as written.
 * Source: the contraction of « de » and « à » with « le » and « les » (Grevisse, Le Bon Usage, § 580).
 */

type Preposition = 'de' | 'à';

// A leading article as written in a name: « Les », « Le », « La », « L’ » or « L' », then the rest of the name.
const LEADING_ARTICLE = /^(les|le|la)\s+(.+)$|^l['’]\s*(.+)$/isu;

// « de » elides before a vowel (accented ones included) and a mute h cannot be told from an aspirated one by
// spelling: « de » is kept before h, which reads right for most names (« de Handi’Chiens »).
const STARTS_WITH_VOWEL = /^[aeiouyàâäéèêëîïôöùûüÿœæ]/iu;

/** The contracted or plain « de »/« à » before `name` (trimmed); an empty name gives the bare preposition. */
function withPreposition(preposition: Preposition, name: string): string {
  const trimmed = name.trim();
  const match = LEADING_ARTICLE.exec(trimmed);
  if (match) {
    const [, article, rest, elided] = match;
    if (elided !== undefined) return `${preposition} l’${elided}`;
    switch (article!.toLowerCase()) {
      case 'les':
        return `${preposition === 'de' ? 'des' : 'aux'} ${rest}`;
      case 'le':
        return `${preposition === 'de' ? 'du' : 'au'} ${rest}`;
      default:
        return `${preposition} la ${rest}`;
    }
  }
  if (preposition === 'de' && STARTS_WITH_VOWEL.test(trimmed)) return `d’${trimmed}`;
  return `${preposition} ${trimmed}`.trim();
}

/** `name` after « de »: « des Colibris », « du Chemin », « de la Ruche », « de l’Envol », « d’Arc ». */
export function withDe(name: string): string {
  return withPreposition('de', name);
}

/** `name` after « à »: « aux Colibris », « au Chemin », « à la Ruche », « à l’Envol », « à Arc ». */
export function withA(name: string): string {
  return withPreposition('à', name);
}
