/**
 * What restoring an article's older version would change, field by field (the history's « Voir ce qui reviendrait »):
 * each field that differs between the article now and the version, in words an editor reads (the date in French, the
 * draft mark as oui/non, a text as its first words and its length), so that nobody restores blind.
 */
import type { DocumentData } from 'firebase-admin/firestore';
import { categoryName } from './articles';
import { fieldsOf, type ArticleFields } from './articles.server';

/** One field that a restore would change: its label, what it is now and what it would be. */
export interface RestoreChange {
  label: string;
  now: string;
  then: string;
}

const DAY = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' });

/** `YYYY-MM-DD` → « 20 novembre 2026 »; « aucune » for none. */
function dayInWords(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value || 'aucune';
  return DAY.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))).replace(
    /^1 /,
    '1er ',
  );
}

/** HTML → its words: « Le programme : pique-nique… (42 mots) », « vide » for none. */
export function textSummary(html: string, length = 80): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, '’')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return 'vide';
  const words = text.split(' ').length;
  const start = text.length > length ? `${text.slice(0, length).replace(/\s+\S*$/, '')}…` : text;
  return `« ${start} » (${words} mot${words > 1 ? 's' : ''})`;
}

/** The fields compared, each with its label and how it reads. */
const FIELDS: [label: string, read: (fields: ArticleFields) => string][] = [
  ['Titre', (fields) => (fields.titre ? `« ${fields.titre} »` : 'vide')],
  ['Date de publication', (fields) => dayInWords(fields.date)],
  ['Brouillon', (fields) => (fields.brouillon ? 'oui' : 'non')],
  ['Rubrique', (fields) => categoryName(fields.cat)],
  ['Lien de la page', (fields) => fields.slug || 'celui de son identifiant'],
  ['Introduction', (fields) => textSummary(fields.intro)],
  ['Texte complet', (fields) => textSummary(fields.contenu)],
  ['Photo ou image', (fields) => (fields.imgSrc ? `une image (${fields.imgAlt || 'sans description'})` : 'aucune')],
];

/**
 * The fields a restore of `version` (a history entry's `avant`) would change on the article as it is (`current`), in
 * FIELDS' order; [] when the version is the same. A text that differs beyond its summary says so.
 */
export function restoreChanges(current: ArticleFields, version: DocumentData): RestoreChange[] {
  const then = fieldsOf(version, 0);
  return FIELDS.flatMap(([label, read]) => {
    const [before, after] = [read(current), read(then)];
    if (before !== after) return [{ label, now: before, then: after }];
    // Same first words and length, another text (a word changed further on).
    const raw = label === 'Introduction' ? 'intro' : label === 'Texte complet' ? 'contenu' : undefined;
    return raw && current[raw] !== then[raw] ? [{ label, now: before, then: `${after}, modifié plus loin` }] : [];
  });
}
