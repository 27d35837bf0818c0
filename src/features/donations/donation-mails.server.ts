/**
 * The donors' mails (mail feature), queued by the webhook in the ledger's transaction when a gift becomes paid: the
 * thank-you with the receipt of a one-off gift, the confirmation of a monthly one; and when a receipt is cancelled
 * (refund, dispute lost), the notice with the corrected receipt if any. Each is queued once: on the change that gives
 * a gift its receipt number, a subscription its first payment, or cancels a number.
 */
import { formatDate } from '../../lib/dates';
import { isMailAddress, type OutgoingMail } from '../mail/mail';
import { donationThanksMail, monthlyDonationMail, receiptChangeMail } from '../mail/mails.server';
import { mailIdentity, siteMailSettings } from '../mail/mail-env.server';
import { costAfterTaxReduction, formatEuros } from './donations';
import { COMPANY_TAX_REDUCTION_RATE, isCompanyGift } from './company-gifts';
import { receiptIssuer } from '../../association';
import type { CancelledReceipt, Gift, ReceiptedGift } from './gift.server';
import { receiptCents } from './receipt-validity';
import { isSpecimen, receiptFileName, receiptPdf } from './receipt-pdf.server';

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

/**
 * The thank-you of the receipted gift `dons/<id>` with its PDF receipt, to the gift's `email` (checked by the outbox:
 * @throws MailInputError for one that is not an address). Outbox id `dons-<logId(id)>-merci`, or `mailId` for a copy
 * sent again from the space (a new id per request: each request sends one mail, the same receipt number). A test-mode
 * gift's says it was a test and attaches the specimen (receipt-pdf.server.ts).
 */
export async function thanksMail(id: string, gift: ReceiptedGift, mailId?: string): Promise<OutgoingMail> {
  const replyTo = siteMailSettings().staff;
  // What the receipt certifies: a gift refunded in part before its receipt was issued is thanked for the rest.
  const euros = receiptCents(gift) / 100;
  const company = isCompanyGift(gift);
  return donationThanksMail({
    identity: await mailIdentity(),
    giftId: id,
    ...(mailId ? { mailId } : {}),
    email: gift.email,
    ...(replyTo ? { replyTo } : {}),
    donorName: [gift.prenom, gift.nom].filter(Boolean).join(' '),
    amount: formatEuros(euros, true),
    paidOn: formatDate(gift.datePaiement.seconds),
    costAfterReduction: formatEuros(costAfterTaxReduction(euros, company ? COMPANY_TAX_REDUCTION_RATE : undefined)),
    ...(company ? { company: gift.entreprise } : {}),
    receiptNumber: gift.recu,
    specimen: isSpecimen(gift),
    fileName: receiptFileName(gift),
    pdf: await receiptPdf(await receiptIssuer(), gift),
  });
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
  const email = typeof gift.email === 'string' ? gift.email : '';
  if (!cancelled || !isMailAddress(email)) return [];
  const replyTo = siteMailSettings().staff;
  const corrected = gift.recu ? { ...gift, recu: gift.recu } : undefined;
  return [
    await receiptChangeMail({
      identity: await mailIdentity(),
      giftId: id,
      email,
      ...(replyTo ? { replyTo } : {}),
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
              pdf: await receiptPdf(await receiptIssuer(), corrected),
            },
          }
        : {}),
    }),
  ];
}
