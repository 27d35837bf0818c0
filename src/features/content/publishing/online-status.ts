/**
 * Whether an article's last saved version is on the site: the build records when it pulled the content
 * (report.json's `generatedAt`, shipped with the functions of that very build), the space records each change
 * (history) and each publish request (`publications`); comparing the three gives the article's state, said in French
 * under its form and its preview.
 */
import { frenchDayTime } from '../../admissions/admissions';

/** A publish request as the status reads it: when, and what came of it (PublicationRequest's). */
export interface PublishRequestSeen {
  date: Date | undefined;
  resultat: 'lancee' | 'attente' | 'erreur' | 'en-cours';
}

/** What the status compares: the draft mark, the last change (history), the online version's time, the last request. */
export interface OnlineFacts {
  draft: boolean;
  /** The article's last change in the space; undefined when it has none (written in the console before). */
  changedAt: Date | undefined;
  /** When the content online was pulled (report.json `generatedAt`); undefined without a report. */
  onlineAt: Date | undefined;
  lastRequest: PublishRequestSeen | undefined;
  /** The time of the reading (ms), a parameter so that tests need no clock. */
  now: number;
}

/**
 * The article's state: `brouillon` (never published); `en-ligne` (the online version was pulled after the last change,
 * `since` that pull); `en-cours` (a publish was launched after the change and its build is not online yet; `late` past
 * LATE_MS); `a-publier` (changed since the online version, and no publish launched since).
 */
export type OnlineStatus =
  | { state: 'brouillon' }
  | { state: 'en-ligne'; since: Date }
  | { state: 'en-cours'; askedAt: Date; late: boolean }
  | { state: 'a-publier'; changedAt: Date | undefined };

/** A build usually takes a few minutes: past ten (the guide's words), the status says it may have failed (ms). */
export const LATE_MS = 10 * 60_000;

/** The article's state from OnlineFacts (see OnlineStatus). */
export function onlineStatus({ draft, changedAt, onlineAt, lastRequest, now }: OnlineFacts): OnlineStatus {
  if (draft) return { state: 'brouillon' };
  if (onlineAt && (!changedAt || changedAt <= onlineAt)) return { state: 'en-ligne', since: onlineAt };
  const askedAt = lastRequest?.date;
  const launched = lastRequest?.resultat === 'lancee' || lastRequest?.resultat === 'en-cours';
  if (askedAt && launched && (!changedAt || askedAt >= changedAt) && (!onlineAt || askedAt > onlineAt)) {
    return { state: 'en-cours', askedAt, late: now - askedAt.getTime() > LATE_MS };
  }
  return { state: 'a-publier', changedAt };
}

/** The status in French: a short headline (« En ligne depuis … », « Publication en cours… ») and what to do. */
export function onlineStatusText(status: OnlineStatus): { headline: string; detail: string } {
  switch (status.state) {
    case 'brouillon':
      return {
        headline: 'Brouillon : pas sur le site.',
        detail: '« Publier » le sort du brouillon et le met en ligne.',
      };
    case 'en-ligne':
      return {
        headline: `En ligne depuis le ${frenchDayTime(status.since)}.`,
        detail: 'Le site montre la dernière version enregistrée.',
      };
    case 'en-cours':
      return status.late
        ? {
            headline: `Publication demandée le ${frenchDayTime(status.askedAt)}, toujours pas en ligne.`,
            detail:
              'Elle a peut-être échoué : publiez à nouveau, et prévenez la personne qui s’occupe du site si cela ' +
              'dure.',
          }
        : {
            headline: 'Publication en cours…',
            detail:
              `Demandée le ${frenchDayTime(status.askedAt)}. Le site sera à jour dans quelques minutes : rechargez ` +
              'cette page pour le vérifier.',
          };
    case 'a-publier':
      return {
        headline: 'Pas encore en ligne.',
        detail: status.changedAt
          ? `La version enregistrée le ${frenchDayTime(status.changedAt)} sera sur le site après « Publier ».`
          : 'La version enregistrée sera sur le site après « Publier ».',
      };
  }
}
