/**
 * The site's mails, rendered (react-email: HTML and plain text) and ready for enqueueMails. What other features
 * call: each builder takes plain values (names, French texts, addresses) and the outbox id's base, and knows nothing
 * of forms or donations (the donors' mails: donor-mails.server.tsx). Which mail goes to whom: docs/mail.md.
 */
import { render, toPlainText } from '@react-email/components';
import type { ReactElement } from 'react';
import { isPersonName } from '../../lib/fields';
import { headerText, NEWSLETTER_MAIL_KIND, type OutgoingMail } from './mail';
import type { MailIdentity } from './templates/MailLayout';
import { PreRegistrationAck, PreRegistrationNotice } from '../admissions/PreRegistrationMails';
import { NewsletterConfirmation } from '../newsletter/NewsletterConfirmation';
import { SignInLink } from '../espace/SignInLink';

export type { MailIdentity } from './templates/MailLayout';

// html-to-text capitalises headings by default: a screen reader may spell words in capitals letter by letter.
const PLAIN_TEXT_HEADINGS = {
  selectors: ['h1', 'h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
};

/** The HTML and plain text of a mail template (the text from the HTML: one React render, not two). */
export async function renderMail(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html, PLAIN_TEXT_HEADINGS) };
}

/**
 * `name` when it is only a person's name (isPersonName), else undefined: a mail to an address nobody has verified
 * carries no free text its sender typed, whatever a stored document or a future form holds.
 */
const onlyAName = (name: string) => (isPersonName(name) ? name.trim() : undefined);

/**
 * The two mails of a pre-registration stored as `inscripitions/<submissionId>`: the acknowledgement to `parentEmail`
 * (answers go to `staffEmail`; the first names only when they are names, else « votre enfant » and « Bonjour, ») and,
 * when `staffEmail` is set, the notice to it (the reference only). `receivedAt` is French text (« 12 mars 2026 à
 * 14 h 05 »).
 */
export async function preRegistrationMails(input: {
  identity: MailIdentity;
  submissionId: string;
  reference: string;
  parentFirstName: string;
  childFirstName: string;
  parentEmail: string;
  staffEmail?: string;
  receivedAt: string;
}): Promise<OutgoingMail[]> {
  const { identity, submissionId, reference, staffEmail } = input;
  const child = onlyAName(input.childFirstName);
  const parent = onlyAName(input.parentFirstName);
  const ack: OutgoingMail = {
    id: `inscripitions-${submissionId}-parent`,
    kind: 'preinscription-parent',
    to: input.parentEmail,
    ...(staffEmail ? { replyTo: staffEmail } : {}),
    subject: `Pré-inscription de ${headerText(child ?? 'votre enfant', 60)} : demande reçue (référence ${reference})`,
    ...(await renderMail(
      <PreRegistrationAck
        identity={identity}
        {...(parent && { parentFirstName: parent })}
        {...(child && { childFirstName: child })}
        reference={reference}
        {...(staffEmail ? { replyTo: staffEmail } : {})}
      />,
    )),
  };
  if (!staffEmail) return [ack];
  const notice: OutgoingMail = {
    id: `inscripitions-${submissionId}-equipe`,
    kind: 'preinscription-equipe',
    to: staffEmail,
    subject: `Nouvelle pré-inscription (référence ${reference})`,
    ...(await renderMail(
      <PreRegistrationNotice identity={identity} reference={reference} receivedAt={input.receivedAt} />,
    )),
  };
  return [ack, notice];
}

/**
 * The newsletter's confirmation to `email`, outbox id `newsletter-<subscriptionId>-<sentAtMs>`, with `List-Unsubscribe`
 * (an https link) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
 */
export async function newsletterConfirmationMail(input: {
  identity: MailIdentity;
  subscriptionId: string;
  sentAtMs: number;
  email: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): Promise<OutgoingMail> {
  const { identity, confirmUrl, unsubscribeUrl } = input;
  return {
    id: `newsletter-${input.subscriptionId}-${input.sentAtMs}`,
    kind: NEWSLETTER_MAIL_KIND,
    to: input.email,
    subject: 'Confirmez votre inscription à la lettre d’information',
    headers: newsletterHeaders(unsubscribeUrl),
    ...(await renderMail(
      <NewsletterConfirmation identity={identity} confirmUrl={confirmUrl} unsubscribeUrl={unsubscribeUrl} />,
    )),
  };
}

/**
 * The space's sign-in link to the staff member `email`, under the outbox id `mailId` (the caller's: one per address
 * and interval). `validity` is French text (« une heure »). The link is a credential: the mail says not to forward it.
 */
export async function signInLinkMail(input: {
  identity: MailIdentity;
  mailId: string;
  email: string;
  signInUrl: string;
  validity: string;
}): Promise<OutgoingMail> {
  const { identity, signInUrl, validity } = input;
  return {
    id: input.mailId,
    kind: 'espace-lien',
    to: input.email,
    subject: 'Votre lien de connexion à l’espace de l’association',
    ...(await renderMail(<SignInLink identity={identity} signInUrl={signInUrl} validity={validity} />)),
  };
}

/** The headers of every newsletter mail: one-click unsubscription (RFC 2369 and RFC 8058) at `unsubscribeUrl`. */
export function newsletterHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
