/**
 * The donors' mails, rendered (react-email: HTML and plain text) and ready for enqueueMails: the thank-you with a
 * receipt, a receipt cancelled or corrected, a monthly gift's confirmation, the link to Stripe's customer portal (the
 * yearly receipt of monthly gifts: yearly-mails.server.tsx). Each builder takes plain values (names, amounts as French
 * texts, the PDF) and the outbox id's base; the donations feature decides when each is due. Which mail goes to whom:
 * docs/mail.md.
 */
import { logId } from '../../../lib/log-id.server';
import { headerText, type MailAttachment, type OutgoingMail } from '../../mail/mail';
import { renderMail, type MailIdentity } from '../../mail/mails.server';
import { DonationThanks, MonthlyDonationConfirmation, ReceiptChange } from './DonationMails';
import { PortalLink } from '../portal/PortalLink';

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
