/**
 * The mails of a monthly donor's yearly receipt, rendered (react-email: HTML and plain text) and ready for
 * enqueueMails: the receipt with its PDF, and the notice that it was corrected or cancelled. Each builder takes plain
 * values (names, amounts as French texts, the PDF) and the outbox id's base; the donations feature decides when each
 * is due (yearly-receipt-mails.server.ts). Which mail goes to whom: docs/mail.md.
 */
import { logId } from '../../../lib/log-id.server';
import { headerText, type OutgoingMail } from '../../mail/mail';
import { renderMail, type MailIdentity } from '../../mail/mails.server';
import { YearlyReceiptChange, YearlyReceiptMail } from './YearlyReceiptMails';

/**
 * The yearly receipt `receiptId` (`recusAnnuels/<id>`) of a monthly donor to `email`, its PDF attached as `fileName`.
 * Outbox id `recus-annuels-<logId(receiptId)>`, or `mailId` (a receipt issued again after a cancellation): queued
 * once, whoever runs the job how often. `company`: a company's monthly gift (60 %, article 238 bis).
 */
export async function yearlyReceiptMail(input: {
  identity: MailIdentity;
  receiptId: string;
  mailId?: string;
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
  /** A company's monthly gift: its name (the mail speaks of its 60 % reduction). */
  company?: string | undefined;
}): Promise<OutgoingMail> {
  return {
    id: input.mailId ?? `recus-annuels-${logId(input.receiptId)}`,
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
        {...(input.company ? { company: headerText(input.company, 200) } : {})}
      />,
    )),
  };
}

/**
 * The donor's notice that the yearly receipt `cancelled` of `receiptId` (`recusAnnuels/<id>`, `year`) is void, after
 * an instalment refunded (`reason` 'remboursement'), a dispute lost ('litige') or an instalment recorded since
 * ('versement'), with the corrected receipt `corrected` attached when the year still has gifts (`pdf` as `fileName`,
 * certifying `amount` for `payments` instalments). Outbox id `recus-annuels-<logId(receiptId)>-annule-<cancelled>`:
 * one mail per cancelled number.
 */
export async function yearlyReceiptChangeMail(input: {
  identity: MailIdentity;
  receiptId: string;
  email: string;
  replyTo?: string;
  donorName: string;
  year: number;
  cancelled: string;
  reason: 'remboursement' | 'litige' | 'versement';
  corrected?: { number: string; amount: string; payments: number; fileName: string; pdf: Uint8Array };
  /** A company's monthly gift: its name (the receipt serves the company's tax return). */
  company?: string | undefined;
}): Promise<OutgoingMail> {
  const { identity, year, cancelled, corrected } = input;
  return {
    id: `recus-annuels-${logId(input.receiptId)}-annule-${cancelled}`,
    kind: corrected ? 'recu-annuel-rectificatif' : 'recu-annuel-annule',
    to: input.email,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    subject: corrected
      ? `Votre reçu fiscal ${year} rectificatif n° ${corrected.number} (remplace le n° ${cancelled})`
      : `Votre reçu fiscal ${year} n° ${cancelled} est annulé`,
    ...(corrected
      ? { attachments: [{ filename: corrected.fileName, contentType: 'application/pdf', content: corrected.pdf }] }
      : {}),
    ...(await renderMail(
      <YearlyReceiptChange
        identity={identity}
        donorName={headerText(input.donorName, 120)}
        year={year}
        cancelled={cancelled}
        reason={input.reason}
        company={Boolean(input.company)}
        {...(corrected
          ? { corrected: { number: corrected.number, amount: corrected.amount, payments: corrected.payments } }
          : {})}
      />,
    )),
  };
}
