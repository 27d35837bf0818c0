/**
 * The site's mails, rendered (react-email: HTML and plain text) and ready for enqueueMails. What other features
 * call: each builder takes plain values (names, French texts, addresses) and the outbox id's base, and knows nothing
 * of forms or donations. Which mail goes to whom: docs/mail.md.
 */
import { render, toPlainText } from '@react-email/components';
import type { ReactElement } from 'react';
import { logId } from '../../lib/log-id.server';
import { headerText, type MailAttachment, type OutgoingMail } from './mail';
import type { MailIdentity } from './templates/MailLayout';
import { PreRegistrationAck, PreRegistrationNotice } from './templates/PreRegistrationMails';
import { NewsletterConfirmation } from './templates/NewsletterConfirmation';
import { DonationThanks, MonthlyDonationConfirmation, ReceiptChange } from './templates/DonationMails';
import { SignInLink } from './templates/SignInLink';
import { PortalLink } from './templates/PortalLink';

export type { MailIdentity } from './templates/MailLayout';

/** The HTML and plain text of a mail template (the text from the HTML: one React render, not two). */
export async function renderMail(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}

/** A first name fit for a subject line: headerText, at most 60 characters. */
const nameInSubject = (name: string) => headerText(name, 60);

/**
 * The two mails of a pre-registration stored as `inscripitions/<submissionId>`: the acknowledgement to `parentEmail`
 * (answers go to `staffEmail`) and, when `staffEmail` is set, the notice to it (the reference only). `receivedAt` is
 * French text (« 12 mars 2026 à 14 h 05 »).
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
  const ack: OutgoingMail = {
    id: `inscripitions-${submissionId}-parent`,
    kind: 'preinscription-parent',
    to: input.parentEmail,
    ...(staffEmail ? { replyTo: staffEmail } : {}),
    subject: `Pré-inscription de ${nameInSubject(input.childFirstName)} : demande reçue (référence ${reference})`,
    ...(await renderMail(
      <PreRegistrationAck
        identity={identity}
        parentFirstName={input.parentFirstName}
        childFirstName={input.childFirstName}
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
    kind: 'newsletter-confirmation',
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

/**
 * The thank-you of the paid one-off gift `giftId` to `email`, its receipt `pdf` attached as `fileName` (answers to
 * `replyTo`); `specimen`: a payment with Stripe's test keys, whose mail says so and carries no tax claim. Its outbox id
 * is `dons-<logId(giftId)>-merci` (queued once; the outbox's log names it, and a session id opens a receipt), or
 * `mailId` for a copy the treasurer sends again.
 */
export async function donationThanksMail(input: {
  identity: MailIdentity;
  giftId: string;
  mailId?: string;
  email: string;
  replyTo?: string;
  donorName: string;
  amount: string;
  paidOn: string;
  costAfterReduction: string;
  receiptNumber: string;
  specimen: boolean;
  fileName: string;
  pdf: Uint8Array;
  /** A company's gift: its name (the mail speaks of its 60 % reduction). */
  company?: string | undefined;
}): Promise<OutgoingMail> {
  const { identity, receiptNumber, specimen } = input;
  const attachment: MailAttachment = {
    filename: input.fileName,
    contentType: 'application/pdf',
    content: input.pdf,
  };
  return {
    id: input.mailId ?? `dons-${logId(input.giftId)}-merci`,
    kind: 'don-merci',
    to: input.email,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: specimen
      ? `Paiement de test : spécimen n° ${receiptNumber}, sans valeur fiscale`
      : `Merci pour votre don : votre reçu fiscal n° ${receiptNumber}`,
    attachments: [attachment],
    ...(await renderMail(
      <DonationThanks
        identity={identity}
        donorName={headerText(input.donorName, 120)}
        amount={input.amount}
        paidOn={input.paidOn}
        receiptNumber={receiptNumber}
        specimen={specimen}
        costAfterReduction={input.costAfterReduction}
        {...(input.company ? { company: headerText(input.company, 200) } : {})}
      />,
    )),
  };
}

/**
 * The donor's notice that the receipt `cancelled` of the gift `giftId` is void (refunded: `reason` 'remboursement', or
 * a dispute lost: 'litige'), with, for a partial refund, the corrected receipt `corrected` attached (`pdf` as
 * `fileName`, certifying `amount`). Outbox id `dons-<logId(giftId)>-annule-<cancelled>`: one mail per cancelled number.
 */
export async function receiptChangeMail(input: {
  identity: MailIdentity;
  giftId: string;
  email: string;
  replyTo?: string;
  donorName: string;
  cancelled: string;
  reason: 'remboursement' | 'litige';
  refunded: string;
  specimen: boolean;
  corrected?: { number: string; amount: string; fileName: string; pdf: Uint8Array };
}): Promise<OutgoingMail> {
  const { identity, cancelled, corrected, specimen } = input;
  const document = specimen ? 'spécimen' : 'reçu fiscal';
  return {
    id: `dons-${logId(input.giftId)}-annule-${cancelled}`,
    kind: corrected ? 'don-recu-rectificatif' : 'don-recu-annule',
    to: input.email,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: corrected
      ? `Votre ${document} rectificatif n° ${corrected.number} (remplace le n° ${cancelled})`
      : `Votre ${document} n° ${cancelled} est annulé`,
    ...(corrected
      ? { attachments: [{ filename: corrected.fileName, contentType: 'application/pdf', content: corrected.pdf }] }
      : {}),
    ...(await renderMail(
      <ReceiptChange
        identity={identity}
        donorName={headerText(input.donorName, 120)}
        cancelled={cancelled}
        reason={input.reason}
        refunded={input.refunded}
        specimen={specimen}
        {...(corrected ? { corrected: corrected.number, amount: corrected.amount } : {})}
      />,
    )),
  };
}

/**
 * The confirmation of the monthly gift `giftId` to `email`: how to stop it (write to `replyTo`). Outbox id
 * `dons-<logId(giftId)>-mensuel`.
 */
export async function monthlyDonationMail(input: {
  identity: MailIdentity;
  giftId: string;
  email: string;
  replyTo?: string;
  donorName: string;
  amount: string;
}): Promise<OutgoingMail> {
  return {
    id: `dons-${logId(input.giftId)}-mensuel`,
    kind: 'don-mensuel',
    to: input.email,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: `Merci pour votre don mensuel de ${input.amount}`,
    ...(await renderMail(
      <MonthlyDonationConfirmation
        identity={input.identity}
        donorName={headerText(input.donorName, 120)}
        amount={input.amount}
        contact={input.replyTo ?? ''}
      />,
    )),
  };
}

/**
 * The link to manage a monthly gift, to `email` (a monthly donor's address, asked for on /soutenir/gerer): `linkUrl`
 * opens the page whose button opens Stripe's customer portal; answers go to `replyTo`. Outbox id `portail-<requestId>`
 * (the address's hash and the request's time: one per request mailed).
 */
export async function portalLinkMail(input: {
  identity: MailIdentity;
  requestId: string;
  email: string;
  replyTo?: string | undefined;
  linkUrl: string;
}): Promise<OutgoingMail> {
  const { replyTo } = input;
  return {
    id: `portail-${input.requestId}`,
    kind: 'don-gestion',
    to: input.email,
    ...(replyTo ? { replyTo } : {}),
    subject: 'Votre lien pour gérer votre don mensuel',
    ...(await renderMail(<PortalLink identity={input.identity} linkUrl={input.linkUrl} />)),
  };
}
