/** French dates (spec: the interface is in French). */

const LONG = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });

/** Formats seconds since the epoch as "3 octobre 2026" (Europe/Paris), the first of a month as "1er septembre 2026". */
export function formatDate(seconds: number): string {
  return LONG.format(new Date(seconds * 1000)).replace(/^1 /, '1er ');
}

/** ISO 8601 for `<time datetime>`, from seconds since the epoch. */
export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
