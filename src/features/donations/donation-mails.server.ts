/**
 * The donors' mails (mail feature), queued by the webhook in the ledger's transaction when a gift becomes paid: the
 * thank-you with the receipt of a one-off gift, the confirmation of a monthly one. Each is queued once: on the
 * change that gives a gift its receipt number, or a subscription its first payment.
 */
import { ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY } from 'astro:env/server';
import type { DocumentData } from 'firebase-admin/firestore';
import { formatDate } from '../../lib/dates';
import { isMailAddress, type OutgoingMail } from '../mail/mail';
import { donationThanksMail, monthlyDonationMail } from '../mail/mails.server';
import { mailIdentity, siteMailSettings } from '../mail/mail-env.server';
import { costAfterTaxReduction, formatEuros } from './donations';
import { receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';

/**
 * The receipt's object (ASSOCIATION_OBJECT, else the demo association's) and signatory (ASSOCIATION_SIGNATORY, or '').
 */
export function receiptIssuerDetails(): Pick<ReceiptIssuer, 'object' | 'signatory'> {
  const object =
    ASSOCIATION_OBJECT?.trim() ||
    'Gérer l’École des Petits Pas, école primaire inclusive qui accueille ensemble des enfants avec et sans handicap, et soutenir leurs familles.';
  return { object, signatory: ASSOCIATION_SIGNATORY?.trim() ?? '' };
}

/**
 * The mails the change of `dons/<id>` from `previous` to `gift` calls for ([] most of the time): `gift` as the ledger
 * writes it (`montant` in cents, `date` and `datePaiement` Timestamps, `recu`), to its `email` when it is one.
 */
export async function giftMails(id: string, gift: DocumentData, previous: DocumentData | undefined) {
  const email = typeof gift.email === 'string' ? gift.email : '';
  if (!isMailAddress(email) || gift.statut !== 'paid') return [];
  const identity = await mailIdentity();
  const replyTo = siteMailSettings().staff;
  const donorName = [gift.prenom, gift.nom].filter(Boolean).join(' ');
  const euros = Number(gift.montant ?? 0) / 100;
  const mails: OutgoingMail[] = [];
  if (gift.nature === 'don' && gift.recu && !previous?.recu) {
    const pdf = await receiptPdf({ ...identity, ...receiptIssuerDetails() }, gift);
    mails.push(
      await donationThanksMail({
        identity,
        giftId: id,
        email,
        ...(replyTo ? { replyTo } : {}),
        donorName,
        amount: formatEuros(euros, true),
        paidOn: formatDate(gift.datePaiement.seconds),
        costAfterReduction: formatEuros(costAfterTaxReduction(euros)),
        receiptNumber: gift.recu,
        pdf,
      }),
    );
  }
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
