/**
 * What /espace tells each role since the person's previous visit: one block per section the session opens (the
 * pre-registrations, the newsletter, the donations, the site's content), each a title, French sentences and a link.
 * A block whose data cannot be read is left out and `unavailable` says so; the others still show.
 */
import { editsSince } from '../content/editing/history.server';
import { lastPublication } from '../content/publishing/publish.server';
import { frenchDayTime } from '../admissions/admissions';
import { preRegistrationsSince } from '../admissions/desk.server';
import type { StaffSession } from './auth.server';
import { giftsSince } from '../donations/ledger/ledger-reads.server';
import { subscribersSince } from '../newsletter/subscribers.server';
import { canOpen, type SectionName } from './roles';

/** One block of news: a title, sentences, a link to the section. */
export interface News {
  title: string;
  lines: string[];
  link: { href: string; text: string };
}

/** « 1 nouvelle préinscription » / « 3 nouvelles préinscriptions »: `one` or `many` by `count`, the count first. */
const counted = (count: number, one: string, many: string) => `${count} ${count > 1 ? many : one}`;

/** Each section's block: what it reads and says. */
const BLOCKS: [SectionName, (session: StaffSession, since: Date | undefined) => Promise<News>][] = [
  [
    'preinscriptions',
    async (session, since) => {
      const { count, expiringSoon, undecided } = await preRegistrationsSince(session, since);
      const lines = [
        count === 0
          ? 'Aucune nouvelle préinscription.'
          : `${counted(count, 'nouvelle préinscription', 'nouvelles préinscriptions')}.`,
      ];
      if (expiringSoon > 0) {
        lines.push(
          `${counted(expiringSoon, 'préinscription sera supprimée', 'préinscriptions seront supprimées')} ` +
            'dans les 30 jours (12 mois après la décision).',
        );
      }
      if (undecided > 0) {
        lines.push(
          `${counted(undecided, 'demande reçue', 'demandes reçues')} il y a plus de six mois ` +
            `${undecided > 1 ? 'attendent' : 'attend'} une décision : sans décision, rien n’est jamais supprimé.`,
        );
      }
      return {
        title: 'Préinscriptions',
        lines,
        link: { href: '/espace/preinscriptions', text: 'Voir les préinscriptions' },
      };
    },
  ],
  [
    'lettre',
    async (session, since) => {
      const { count, total } = await subscribersSince(session, since);
      return {
        title: 'Lettre d’information',
        lines: [
          count === 0
            ? 'Aucune nouvelle inscription confirmée.'
            : `${counted(count, 'nouvelle inscription confirmée', 'nouvelles inscriptions confirmées')}.`,
          `${counted(total, 'abonné', 'abonnés')} en tout.`,
        ],
        link: { href: '/espace/lettre', text: 'Voir les abonnés' },
      };
    },
  ],
  [
    'dons',
    async (session, since) => {
      const { gifts, receipts } = await giftsSince(session, since);
      return {
        title: 'Dons',
        lines: [
          gifts === 0
            ? 'Aucun nouveau don payé.'
            : `${counted(gifts, 'nouveau don payé', 'nouveaux dons payés')}, ` +
              `${counted(receipts, 'reçu fiscal', 'reçus fiscaux')} émis.`,
        ],
        link: { href: '/espace/dons', text: 'Voir les dons' },
      };
    },
  ],
  [
    'publication',
    async (session, since) => {
      const last = await lastPublication(session);
      const [edits, waiting] = await Promise.all([
        since && editsSince(session, since),
        editsSince(session, last?.date),
      ]);
      const lines: string[] = [];
      if (edits !== undefined) {
        lines.push(
          edits === 0
            ? 'Aucune modification du contenu.'
            : `${counted(edits, 'modification', 'modifications')} du contenu.`,
        );
      }
      lines.push(
        last
          ? `Dernière publication demandée le ${frenchDayTime(last.date)} par ${last.qui}.`
          : 'Le site n’a pas encore été publié depuis l’espace.',
      );
      const them = waiting > 1 ? 'les' : 'la';
      const saved = counted(waiting, 'modification enregistrée', 'modifications enregistrées');
      if (waiting === 0)
        lines.push(last ? 'Rien n’a été modifié depuis.' : 'Aucune modification enregistrée dans l’espace.');
      else lines.push(`${saved}${last ? ' depuis' : ''} : publiez le site pour ${them} mettre en ligne.`);
      return {
        title: 'Contenu du site',
        lines,
        link: { href: '/espace/publication', text: 'Publier le site' },
      };
    },
  ],
];

/**
 * The blocks of news for `session` since `since` (its previous visit; undefined on a first visit), in menu order.
 * Never throws: a block that fails is logged and left out, `unavailable` true.
 */
export async function homeNews(
  session: StaffSession,
  since: Date | undefined,
): Promise<{ news: News[]; unavailable: boolean }> {
  const opened = BLOCKS.filter(([section]) => canOpen(session.roles, section));
  const settled = await Promise.allSettled(opened.map(([, block]) => block(session, since)));
  for (const result of settled) if (result.status === 'rejected') console.error('[espace] news', result.reason);
  return {
    news: settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])),
    unavailable: settled.some((result) => result.status === 'rejected'),
  };
}
