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
import { DonationThanks, MonthlyDonationConfirmation, YearlyReceiptMail } from './templates/DonationMails';

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
  /** The cancelled receipt's number, for a corrected receipt (after a partial refund). */
  replaces?: string;
}): Promise<OutgoingMail> {
  const { identity, receiptNumber, specimen, replaces } = input;
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
      : replaces
        ? `Votre reçu fiscal corrigé n° ${receiptNumber} (remplace le n° ${replaces})`
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
        {...(replaces ? { replaces } : {})}
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
 * The yearly receipt `receiptId` (`recusAnnuels/<id>`) of a monthly donor to `email`, its PDF attached as `fileName`.
 * Outbox id `recus-annuels-<logId(receiptId)>`: queued once, whoever runs the job how often.
 */
export async function yearlyReceiptMail(input: {
  identity: MailIdentity;
  receiptId: string;
  email: string;
  replyTo?: string;
  donorName: string;
  year: number;
  amount: string;
  payments: number;
  receiptNumber: string;
  costAfterReduction: string;
  fileName: string;
  pdf: Uint8Array;
}): Promise<OutgoingMail> {
  return {
    id: `recus-annuels-${logId(input.receiptId)}`,
    kind: 'recu-annuel',
    to: input.email,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: `Votre reçu fiscal ${input.year} pour vos dons mensuels : n° ${input.receiptNumber}`,
    attachments: [{ filename: input.fileName, contentType: 'application/pdf', content: input.pdf }],
    ...(await renderMail(
      <YearlyReceiptMail
        identity={input.identity}
        donorName={headerText(input.donorName, 120)}
        year={input.year}
        amount={input.amount}
        payments={input.payments}
        receiptNumber={input.receiptNumber}
        costAfterReduction={input.costAfterReduction}
      />,
    )),
  };
}
