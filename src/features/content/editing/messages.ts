/** The editing layer's French messages, and the schemas' issues as French messages per field. */
import type * as z from 'zod';

/** Every French message of the editing layer that is not a schema's own. */
export const EDITING_MESSAGES = {
  invalid: 'Le contenu n’a pas été enregistré : corrigez les champs signalés.',
  badId: 'Cet identifiant de document n’est pas valable.',
  notFound: 'Ce document n’existe pas ou a été supprimé.',
  versionNotFound: 'Cette version n’existe pas dans l’historique.',
  changedMeanwhile:
    'Quelqu’un a modifié ce document pendant que vous le modifiiez : rien n’a été enregistré. Rouvrez-le pour voir ' +
    'sa version actuelle (vos textes sont restés dans le formulaire : copiez-les d’abord).',
  goneMeanwhile: 'Ce document a été supprimé ou créé entre-temps : rien n’a été enregistré. Rouvrez la liste.',
  saved: 'Enregistré.',
  restored: 'La version choisie est rétablie. Le changement est inscrit dans l’historique.',
} as const;

/** One refusal: the schema's dotted path (`titre`, `img.alt`; '' for the whole document) and its French message. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** « son titre est vide » → « Son titre est vide ». */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The issues of a schema's safeParse as French messages, one per field (the first one). The schemas' own messages are
 * the pull's (src/content.config.ts); an issue without one names its field.
 */
export function issuesInFrench(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  const found = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.join('.');
    if (found.has(field)) continue;
    const own = issue.code === 'custom' || !/^(Invalid|Expected|Too|Unrecognized)/.test(issue.message);
    found.set(field, sentence(own ? issue.message : `le champ « ${field || 'document'} » n’a pas la forme attendue`));
  }
  return [...found].map(([field, message]) => ({ field, message }));
}
