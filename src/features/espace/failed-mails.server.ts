/**
 * The outbox's failed mails (docs/mail.md) for admins on /espace: when, what, to whom (masked) and the relay's last
 * error, never the content; and « Réessayer », which puts one back in the queue for one more attempt.
 */
import { retryFailedMail } from '../mail/drain.server';
import { maskEmail, maskEmails } from '../mail/mail';
import { failedMails } from '../mail/outbox.server';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { HttpError } from '../../lib/http';
import { recordAccess } from './access-log.server';
import type { StaffSession } from './auth.server';
import { ESPACE_MESSAGES } from './messages';
import { assertSection, bounded } from './server-calls.server';

/** Each mail kind's French name (docs/mail.md); an unknown kind is shown as it is. */
export const MAIL_KIND_LABELS: Record<string, string> = {
  'preinscription-parent': 'Accusé de réception d’une préinscription',
  'preinscription-equipe': 'Avis de préinscription à l’équipe',
  'preinscription-statut': 'Nouvelles d’une préinscription à la famille',
  'newsletter-confirmation': 'Confirmation d’inscription à la lettre',
  lettre: 'Lettre d’information',
  'lettre-test': 'Test d’une lettre d’information',
  'don-merci': 'Remerciement et reçu fiscal',
  'don-mensuel': 'Confirmation de don mensuel',
  'don-recu-annule': 'Reçu fiscal annulé (remboursement ou litige)',
  'don-recu-rectificatif': 'Reçu fiscal rectificatif (remboursement partiel)',
  'recu-annuel': 'Reçu fiscal annuel (dons mensuels)',
  'recu-annuel-annule': 'Reçu fiscal annuel annulé (dons mensuels remboursés ou contestés)',
  'recu-annuel-rectificatif': 'Reçu fiscal annuel rectificatif (dons mensuels)',
};

/** A failed mail as the home page shows it: the recipient and any address in the error masked. */
export interface FailedMailView {
  id: string;
  kind: string;
  to: string;
  lastError: string;
  createdAt: Date | undefined;
}

/** The newest failed mails (50 at most), masked. @throws HttpError 403, 503. */
export async function listFailedMails(session: StaffSession | undefined): Promise<FailedMailView[]> {
  assertSection(session, 'courriels');
  const mails = await bounded('failed', failedMails(adminFirestore()));
  return mails.map(({ id, kind, to, lastError, createdAt }) => ({
    id,
    kind: MAIL_KIND_LABELS[kind] ?? kind,
    to: maskEmail(to),
    lastError: maskEmails(lastError) || '—',
    createdAt,
  }));
}

/**
 * Puts the failed mail `id` back in the queue: the next drain (every 5 minutes) sends it once. Logged as a
 * modification of `outbox/<id>`. @throws HttpError 403, 404 ESPACE_MESSAGES.mailNotFailed, 503.
 */
export async function retryMail(session: StaffSession | undefined, id: string): Promise<void> {
  assertSection(session, 'courriels');
  if (!/^[\w.-]{1,200}$/.test(id)) throw new HttpError(404, ESPACE_MESSAGES.mailNotFailed);
  const db = adminFirestore();
  if (!(await bounded('retry', retryFailedMail(db, id, Date.now())))) {
    throw new HttpError(404, ESPACE_MESSAGES.mailNotFailed);
  }
  await bounded('log', recordAccess(db, session, 'modification', `outbox/${id}`));
}
