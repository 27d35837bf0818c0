/**
 * The family's status mail (StatusChangeMail), rendered for the outbox: kind `preinscription-statut`, answers to the
 * team's address. Names go in only when they are names (isPersonName), as in the acknowledgement.
 */
import { isPersonName } from '../../lib/fields';
import { headerText, type OutgoingMail } from '../mail/mail';
import { renderMail, type MailIdentity } from '../mail/mails.server';
import { DECISIONS } from './admissions';
import { StatusChangeMail, STATUS_MAIL_TEXTS, type AnnouncedStatus } from './StatusChangeMail';

/** The outbox kind of the status mails. */
export const STATUS_MAIL_KIND = 'preinscription-statut';

/**
 * The mail telling `parentEmail` that request `requestId` moved to `status`, under outbox id
 * `inscripitions-<requestId>-statut-<status>-<sentAtMs>` (one per announced change).
 */
export async function statusChangeMail(input: {
  identity: MailIdentity;
  requestId: string;
  sentAtMs: number;
  status: AnnouncedStatus;
  reference: string;
  parentFirstName: string;
  childFirstName: string;
  parentEmail: string;
  staffEmail?: string | undefined;
}): Promise<OutgoingMail> {
  const { identity, status, reference, staffEmail } = input;
  const child = isPersonName(input.childFirstName) ? input.childFirstName.trim() : undefined;
  const parent = isPersonName(input.parentFirstName) ? input.parentFirstName.trim() : undefined;
  const { title } = STATUS_MAIL_TEXTS[status](headerText(child ?? 'votre enfant', 60));
  return {
    id: `inscripitions-${input.requestId}-statut-${status}-${input.sentAtMs}`,
    kind: STATUS_MAIL_KIND,
    to: input.parentEmail,
    ...(staffEmail ? { replyTo: staffEmail } : {}),
    subject: `${title} (référence ${reference})`,
    ...(await renderMail(
      <StatusChangeMail
        identity={identity}
        status={status}
        {...(parent && { parentFirstName: parent })}
        {...(child && { childFirstName: child })}
        reference={reference}
        decision={DECISIONS.includes(status)}
      />,
    )),
  };
}
