/**
 * The receipts' mails without astro:env or astro:content, so that the scheduled functions and terminal scripts can
 * queue them as the site does: what rendering a receipt needs (ReceiptContext: the issuer, the mails' sender and
 * reply address), the thank-you of a numbered gift, and the context read from Firestore and the environment for the
 * jobs. The site builds its context from its content (donation-mails.server.ts siteReceiptContext).
 */
import type { Firestore } from 'firebase-admin/firestore';
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT, receiptLines, UNNAMED } from '../../../content-association';
import { formatDate } from '../../../lib/dates';
import { htmlToLines } from '../../../lib/html.server';
import { contactLineText, parseContactLines, revealAt } from '../../../lib/obfuscation';
import { isMailAddress, type OutgoingMail } from '../../mail/mail';
import { donationThanksMail, receiptChangeMail } from './donor-mails.server';
import type { MailIdentity } from '../../mail/mails.server';
import { mailSettings, type MailVariables } from '../../mail/transport.server';
import { costAfterTaxReduction, formatEuros } from '../checkout/donations';
import { COMPANY_TAX_REDUCTION_RATE, isCompanyGift } from '../ledger/company-gifts';
import type { CancelledReceipt, Gift, ReceiptedGift } from '../ledger/gift.server';
import { receiptCents } from './receipt-validity';
import type { NumberableGift, NumberedGiftMails } from './receipt-numbering.server';
import { isSpecimen, receiptFileName, receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';
import { readSignatory } from './signatory.server';
import { signatoryLine } from './signatory';

/** What a receipt's PDF and mail need: who issues it, who the mail comes from, where answers go ('' nowhere). */
export interface ReceiptContext {
  issuer: ReceiptIssuer;
  identity: MailIdentity;
  replyTo: string;
}

/**
 * The thank-you of the receipted gift `dons/<id>` with its PDF receipt, to the gift's `email` (checked by the outbox:
 * @throws MailInputError for one that is not an address). Outbox id `dons-<logId(id)>-merci`, or `mailId`. A test-mode
 * gift's says it was a test and attaches the specimen (receipt-pdf.server.ts); a company's speaks of its 60 %.
 */
export async function receiptThanksMail(
  context: ReceiptContext,
  id: string,
  gift: ReceiptedGift,
  { mailId }: { mailId?: string } = {},
): Promise<OutgoingMail> {
  // What the receipt certifies: a gift refunded in part before its receipt was issued is thanked for the rest.
  const euros = receiptCents(gift) / 100;
  const company = isCompanyGift(gift);
  return donationThanksMail({
    identity: context.identity,
    giftId: id,
    ...(mailId ? { mailId } : {}),
    email: gift.email,
    ...(context.replyTo ? { replyTo: context.replyTo } : {}),
    donorName: [gift.prenom, gift.nom].filter(Boolean).join(' '),
    amount: formatEuros(euros, true),
    paidOn: formatDate(gift.datePaiement.seconds),
    costAfterReduction: formatEuros(costAfterTaxReduction(euros, company ? COMPANY_TAX_REDUCTION_RATE : undefined)),
    ...(company ? { company: gift.entreprise } : {}),
    receiptNumber: gift.recu,
    specimen: isSpecimen(gift),
    fileName: receiptFileName(gift),
    pdf: await receiptPdf(context.issuer, gift),
  });
}

/**
 * The donor's notice that the receipt `cancelled` of `dons/<id>` is void ([] when none was cancelled or the gift has
 * no email): `gift` as the ledger writes it, with its corrected receipt (`recu`, attached) after a partial refund, none
 * after a full refund or a dispute lost. Outbox id `dons-<logId(id)>-annule-<number>` (donor-mails.server.tsx
 * receiptChangeMail).
 */
export async function receiptChangeMailOf(
  context: ReceiptContext,
  id: string,
  gift: Gift,
  cancelled: CancelledReceipt | undefined,
): Promise<OutgoingMail[]> {
  const email = typeof gift.email === 'string' ? gift.email : '';
  if (!cancelled || !isMailAddress(email)) return [];
  const corrected = gift.recu ? { ...gift, recu: gift.recu } : undefined;
  return [
    await receiptChangeMail({
      identity: context.identity,
      giftId: id,
      email,
      ...(context.replyTo ? { replyTo: context.replyTo } : {}),
      donorName: [gift.prenom, gift.nom].filter(Boolean).join(' '),
      cancelled: cancelled.numero,
      reason: cancelled.motif,
      refunded: formatEuros((gift.rembourse ?? 0) / 100, true),
      specimen: isSpecimen(gift),
      ...(corrected
        ? {
            corrected: {
              number: corrected.recu,
              amount: formatEuros(receiptCents(corrected) / 100, true),
              fileName: receiptFileName(corrected),
              pdf: await receiptPdf(context.issuer, corrected),
            },
          }
        : {}),
    }),
  ];
}

/**
 * The mails of a gift just numbered (receipt-numbering.server.ts), none without a valid `email`: the thank-you with its
 * receipt (outbox `dons-<logId>-merci`), or, for a gift whose receipt a refund cancelled (`recusAnnules`), the notice
 * of the cancelled receipt with the corrected one attached (receiptChangeMailOf). `context` is read once, on the first
 * mail.
 */
export function numberedGiftMails(context: () => Promise<ReceiptContext>): NumberedGiftMails {
  let read: Promise<ReceiptContext> | undefined;
  return async (id: string, gift: NumberableGift & ReceiptedGift) => {
    if (!isMailAddress(gift.email)) return [];
    read ??= context();
    const cancelled = gift.recusAnnules?.at(-1);
    if (!cancelled) return [await receiptThanksMail(await read, id, gift)];
    return receiptChangeMailOf(await read, id, gift, cancelled);
  };
}

/** The variables a job's ReceiptContext reads (process.env's names). */
export type ReceiptVariables = MailVariables &
  Partial<
    Record<'ASSOCIATION_OBJECT' | 'ASSOCIATION_REGISTRATION' | 'ASSOCIATION_SIGNATORY' | 'SITE_URL' | 'URL', string>
  >;

/**
 * The ReceiptContext of a scheduled function or terminal script, read as the site reads it (src/association.ts
 * receiptIssuer) but from Firestore as it is now: the association's name and postal lines from article `adresse`
 * (titre, intro), the object and registration numbers from document `association/site` (each field the pull's
 * schema would accept), each else from ASSOCIATION_OBJECT, ASSOCIATION_REGISTRATION; the signatory and its signature
 * (receipts/signatory.server.ts readSignatory, ASSOCIATION_SIGNATORY its last fallback);
 * the site's address from SITE_URL or Netlify's URL, the reply address from ASSOCIATION_EMAIL.
 * @throws what Firestore throws.
 */
export async function jobReceiptContext(firestore: Firestore, env: ReceiptVariables): Promise<ReceiptContext> {
  const read = async (path: string) => (await firestore.doc(path).get()).data() ?? {};
  const [article, site, signatory] = await Promise.all([
    read(`articles/${ADDRESS_ARTICLE}`),
    read(`association/${ASSOCIATION_DOCUMENT}`),
    readSignatory(firestore, env.ASSOCIATION_SIGNATORY ?? ''),
  ]);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const name = revealAt(text(article.titre)).trim() || UNNAMED;
  const addressLines = parseContactLines(htmlToLines(text(article.intro))).map(contactLineText);
  const siteUrl = new URL(env.SITE_URL?.trim() || env.URL?.trim() || 'http://localhost:4321').origin;
  return {
    issuer: {
      name,
      addressLines,
      ...receiptLines(site, { object: env.ASSOCIATION_OBJECT, registration: env.ASSOCIATION_REGISTRATION }),
      signatory: signatory ? signatoryLine(signatory) : '',
      ...(signatory?.image ? { signature: signatory.image } : {}),
    },
    identity: { name, addressLines, siteUrl },
    replyTo: mailSettings(env).staff ?? '',
  };
}
