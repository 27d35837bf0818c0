/**
 * The donors' mails (mail feature) as the site builds them: the thank-you with the receipt of a one-off gift (queued
 * in the transaction that records a specimen or a cheque, or once a card gift is numbered after the webhook's commit,
 * receipt-numbering.server.ts), the confirmation of a monthly one, and when a receipt is cancelled (refund, dispute
 * lost) the notice, with the corrected receipt once it has its number. Each is queued once: on the change that gives a
 * gift its receipt number, a subscription its first payment, or cancels a number.
 */
import { isMailAddress, type OutgoingMail } from '../../mail/mail';
import { monthlyDonationMail } from './donor-mails.server';
import { mailIdentity, siteMailSettings } from '../../mail/mail-env.server';
import { formatEuros } from '../checkout/donations';
import { receiptIssuer } from '../../../association';
import type { CancelledReceipt, Gift, ReceiptedGift } from '../ledger/gift.server';
import { numberedGiftMails, receiptChangeMailOf, receiptThanksMail, type ReceiptContext } from './receipt-mails.server';

/**
 * The mails the change of `dons/<id>` from `previous` to `gift` calls for ([] most of the time): `gift` as the ledger
 * writes it (`montant` in cents, `date` and `datePaiement` Timestamps, `recu`), to its `email` when it is one.
 */
export async function giftMails(id: string, gift: Gift, previous: Gift | undefined) {
  const email = typeof gift.email === 'string' ? gift.email : '';
  if (!isMailAddress(email) || gift.statut !== 'paid') return [];
  const identity = await mailIdentity();
  const replyTo = siteMailSettings().staff;
  const donorName = [gift.prenom, gift.nom].filter(Boolean).join(' ');
  const euros = Number(gift.montant ?? 0) / 100;
  const mails: OutgoingMail[] = [];
  if (gift.nature === 'don' && gift.recu && !previous?.recu)
    mails.push(await thanksMail(id, { ...gift, recu: gift.recu }));
  if (gift.nature === 'abonnement' && previous?.statut !== 'paid') {
    mails.push(
      await monthlyDonationMail({
        identity,
        giftId: id,
        email,
        ...(replyTo ? { replyTo } : {}),
        donorName,
        amount: formatEuros(euros),
      }),
    );
  }
  return mails;
}

/** The site's ReceiptContext: the issuer from the content and astro:env, the mails' identity and staff address. */
export async function siteReceiptContext(): Promise<ReceiptContext> {
  return { issuer: await receiptIssuer(), identity: await mailIdentity(), replyTo: siteMailSettings().staff ?? '' };
}

/** The mails of a gift the site numbers (receipt-mails.server.ts numberedGiftMails with siteReceiptContext). */
export const siteNumberedGiftMails = () => numberedGiftMails(siteReceiptContext);

/**
 * The thank-you of the receipted gift `dons/<id>` with its PDF receipt, to the gift's `email` (checked by the outbox:
 * @throws MailInputError for one that is not an address). Outbox id `dons-<logId(id)>-merci`, or `mailId` for a copy
 * sent again from the space (a new id per request: each request sends one mail, the same receipt number). A test-mode
 * gift's says it was a test and attaches the specimen (receipt-pdf.server.ts).
 */
export async function thanksMail(id: string, gift: ReceiptedGift, mailId?: string): Promise<OutgoingMail> {
  return receiptThanksMail(await siteReceiptContext(), id, gift, mailId ? { mailId } : {});
}

/**
 * The donor's notice when the webhook cancelled the receipt `cancelled` of `dons/<id>` ([] when it cancelled none or
 * the gift has no email): `gift` as the ledger writes it, with its corrected receipt (`recu`, attached) after a
 * partial refund, none after a full refund or a dispute lost.
 */
export async function receiptChangeMails(
  id: string,
  gift: Gift,
  cancelled: CancelledReceipt | undefined,
): Promise<OutgoingMail[]> {
  return receiptChangeMailOf(await siteReceiptContext(), id, gift, cancelled);
}
