/**
 * The treasurer's writes to the ledger with firebase-admin, after checking the role (tresorerie, admin) and logged:
 * recording a cheque or a bank transfer, numbered as card gifts are from the same gap-free yearly series
 * (receipt-numbering.server.ts), and queueing a receipt's thank-you mail again through the outbox.
 */
import { Timestamp } from 'firebase-admin/firestore';
import * as z from 'zod';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { PERSON_FIELD_MAX } from '../../../lib/fields';
import { HttpError } from '../../../lib/http';
import { logId } from '../../../lib/log-id.server';
import { siteNumberedGiftMails, siteReceiptContext, thanksMail } from '../receipts/gift-mails.server';
import { receiptYear } from '../checkout/donations';
import { YEARLY_RECEIPTS } from '../yearly/stored-receipt.server';
import { issueYearlyReceipts } from '../yearly/issue-receipts.server';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { giftConverter, type Gift } from './gift.server';
import { numberSoon, queueReceiptMails } from '../receipts/receipt-numbering.server';
import { withDeadline } from '../../../lib/deadline';
import { isMailAddress } from '../../mail/mail';
import { trySend } from '../../mail/mail-env.server';
import { enqueueMails, OUTBOX } from '../../mail/outbox.server';
import { recordAccess } from '../../espace/access-log.server';
import { isoDay } from '../../admissions/admissions';
import type { StaffSession } from '../../espace/auth.server';
import { assertTreasury, GIFTS, receiptedGift } from './ledger-reads.server';
import { bounded } from '../../espace/server-calls.server';
import { SIGNATORY_MESSAGES } from '../receipts/signatory';
import { isSiren } from './company-gifts';

/** The largest gift the form accepts, in euros: a typing error beyond it is far likelier than such a cheque. */
export const OFFLINE_GIFT_MAX_EUROS = 1_000_000;

const required = (message: string, max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, { error: message })
        .max(max, { error: `${message} (${max} caractères au plus)` }),
    );

/** A text that may be empty (a company's contact person, a person's fields on a company's gift). */
const optional = (what: string, max: number) =>
  z
    .string()
    .default('')
    .transform((value) => value.trim())
    .pipe(z.string().max(max, { error: `${what} est trop long (${max} caractères au plus)` }));

/** The texts of the cheque form's refusals that depend on who gives. */
export const GIFT_ENTRY_MESSAGES = {
  prenom: 'Merci de saisir le prénom du donateur',
  nom: 'Merci de saisir le nom du donateur',
  entreprise: 'Merci de saisir la dénomination de l’entreprise',
  sirenDigits: 'Le numéro SIREN compte 9 chiffres, par exemple 732 829 320 (ou laissez le champ vide)',
  sirenKey: 'Ce numéro SIREN n’existe pas : vérifiez ses 9 chiffres (ou laissez le champ vide)',
} as const;

/**
 * The form of a cheque or transfer: `date` (`YYYY-MM-DD`, at most today), `montant` in euros as typed ("150",
 * "150,50"; becomes cents), who gives (`donateur`: `particulier`, the default, whose receipt is under article 200,
 * 66 %, or `entreprise`, article 238 bis, 60 %: company-gifts.ts), a person's `prenom` and `nom` (required for a
 * person, the contact's and optional for a company), a company's `entreprise` (its name, required) and `siren`
 * (optional, 9 digits with a valid key), the address, optional `email`, `moyen`, and `cle`, the key the form was
 * rendered with (a second post of the same form records nothing more).
 */
export const offlineGiftSchema = z
  .object({
    cle: z.uuid({ error: 'La demande est illisible. Merci de réessayer depuis la page.' }),
    moyen: z.enum(['cheque', 'virement'], { error: 'Merci de choisir le moyen de paiement : chèque ou virement' }),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Merci de saisir la date du versement (jj/mm/aaaa)' })
      .refine((value) => !Number.isNaN(Date.parse(value)) && value <= isoDay(new Date()), {
        error: 'La date du versement doit être valide et au plus tard aujourd’hui',
      }),
    montant: z
      .string()
      .transform((value) => value.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.'))
      .pipe(
        z.string().regex(/^\d{1,7}(\.\d{1,2})?$/, { error: 'Merci de saisir le montant en euros, par exemple 150,00' }),
      )
      .transform((value) => Math.round(Number(value) * 100))
      .refine((cents) => cents > 0 && cents <= OFFLINE_GIFT_MAX_EUROS * 100, {
        error: 'Le montant doit être compris entre 0,01 € et 1 000 000 €',
      }),
    donateur: z
      .enum(['particulier', 'entreprise'], { error: 'Merci d’indiquer qui donne : un particulier ou une entreprise' })
      .default('particulier'),
    prenom: optional('Le prénom', PERSON_FIELD_MAX.prenom),
    nom: optional('Le nom', PERSON_FIELD_MAX.nom),
    entreprise: optional('La dénomination', PERSON_FIELD_MAX.nom + PERSON_FIELD_MAX.prenom),
    siren: z
      .string()
      .default('')
      .transform((value) => value.replace(/[\s\u00a0\u202f.-]/g, ''))
      .refine((value) => !value || /^\d{9}$/.test(value), { error: GIFT_ENTRY_MESSAGES.sirenDigits })
      .refine((value) => !value || isSiren(value), { error: GIFT_ENTRY_MESSAGES.sirenKey }),
    adresse: required('Merci de saisir l’adresse du donateur', PERSON_FIELD_MAX.adresse),
    postal: required('Merci de saisir le code postal', PERSON_FIELD_MAX.postal),
    ville: required('Merci de saisir la ville', PERSON_FIELD_MAX.ville),
    email: z
      .string()
      .transform((value) => value.trim())
      .refine((value) => !value || isMailAddress(value), { error: 'Merci de saisir une adresse email valide, ou rien' })
      .default(''),
  })
  .superRefine((gift, context) => {
    const missing = (field: 'prenom' | 'nom' | 'entreprise') =>
      context.addIssue({ code: 'custom', path: [field], message: GIFT_ENTRY_MESSAGES[field] });
    if (gift.donateur === 'entreprise') {
      if (!gift.entreprise) missing('entreprise');
      return;
    }
    if (!gift.prenom) missing('prenom');
    if (!gift.nom) missing('nom');
  });

/** A valid cheque or transfer, `montant` in cents. */
export type OfflineGift = z.infer<typeof offlineGiftSchema>;

/**
 * Records `entry` as `dons/<moyen>-<cle>` (paid, live, nature `don`, `aNumeroter`), then numbers it like a card gift
 * (receipt-numbering.server.ts: the next number of its payment's year, in the same gap-free series, and, when an email
 * is given, the donor's thank-you with the PDF through the outbox), within a few seconds. The same `cle` again returns
 * the gift already recorded: no second gift or number. Logged. Returns the id and number ('' when the counter stayed
 * busy or no signatory is named yet: the scheduled sweep numbers it within minutes of either).
 * @throws HttpError 403, 503 (nothing written).
 */
export async function recordOfflineGift(
  session: StaffSession | undefined,
  entry: OfflineGift,
): Promise<{ id: string; recu: string }> {
  assertTreasury(session);
  const db = adminFirestore();
  const id = `${entry.moyen}-${entry.cle}`;
  const reference = db.collection(GIFTS).withConverter(giftConverter).doc(id);
  // A typed day at noon UTC: the same calendar day in Europe/Paris, summer or winter.
  const paidAt = new Date(`${entry.date}T12:00:00Z`);
  const gift: Gift = {
    montant: entry.montant,
    devise: 'eur',
    prenom: entry.prenom,
    nom: entry.nom,
    email: entry.email,
    adresse: entry.adresse,
    postal: entry.postal,
    ville: entry.ville,
    pays: 'FR',
    statut: 'paid',
    nature: 'don',
    livemode: true,
    evenement: 'espace',
    session: '',
    abonnement: '',
    datePaiement: Timestamp.fromDate(paidAt),
    date: Timestamp.now(),
    moyen: entry.moyen,
    enregistrePar: session.email,
    aNumeroter: true,
    // A company's gift: its receipt is under article 238 bis (60 %), CERFA n° 16216 (company-gifts.ts).
    ...(entry.donateur === 'entreprise'
      ? { entreprise: entry.entreprise, ...(entry.siren ? { siren: entry.siren } : {}) }
      : {}),
  };
  // `create` fails on a second post of the same form: the gift recorded the first time stays as it is.
  const created = await bounded(
    'record',
    reference.create(gift).then(
      () => true,
      (error: { code?: number }) => {
        if (error.code === 6) return false; // ALREADY_EXISTS
        throw error;
      },
    ),
  );
  if (created) await bounded('log', recordAccess(db, session, 'creation', `${GIFTS}/${id}`));
  const mails = await withDeadline(
    numberSoon(db, id).then(() => queueReceiptMails(db, [id], siteNumberedGiftMails())),
    6000,
  ).catch((error: unknown) => {
    console.warn(`[espace/dons] ${GIFTS}/${id} left for the scheduled numbering: ${String(error)}`);
    return [];
  });
  await trySend(mails, 3000);
  const recu = (await bounded('read', reference.get())).data()?.recu ?? '';
  return { id, recu };
}

/**
 * Queues the thank-you mail of `dons/<id>` with its receipt PDF again, then tries to send it. `key` is the one the
 * page's form was rendered with (a UUID): the outbox id `dons-<logId>-renvoi-<key>` is created once, so a double
 * click or a reposted form queues nothing more and sends one mail (docs/espace.md). Logged. Returns the address.
 * @throws HttpError 400 (no key), 403, 404 (no such gift or receipt), 409 (no email known), 503.
 */
export async function resendReceipt(session: StaffSession | undefined, id: string, key: string): Promise<string> {
  assertTreasury(session);
  if (!z.uuid().safeParse(key).success) {
    throw new HttpError(400, 'La demande est illisible. Merci de réessayer depuis la page.');
  }
  const db = adminFirestore();
  const gift = await receiptedGift(db, id);
  if (!isMailAddress(gift.email)) {
    throw new HttpError(409, 'Aucune adresse email n’est connue pour ce don : téléchargez le reçu et envoyez-le.');
  }
  const mailId = `dons-${logId(id)}-renvoi-${key}`;
  if ((await bounded('read', db.collection(OUTBOX).doc(mailId).get())).exists) return gift.email;
  const mail = await thanksMail(id, gift, mailId);
  const batch = db.batch();
  const [queued] = enqueueMails(db, batch, [mail]);
  // Two posts of one form at once: the other one queued it (ALREADY_EXISTS, gRPC code 6) and sends it.
  const alreadyQueued = (error: { code?: unknown }) => (error?.code === 6 ? false : Promise.reject(error));
  if (
    !(await bounded(
      'resend',
      batch.commit().then(() => true, alreadyQueued),
    ))
  )
    return gift.email;
  await bounded('log', recordAccess(db, session, 'envoi', `${GIFTS}/${logId(id)} (reçu ${gift.recu}, email)`));
  await trySend([queued!], 3000);
  return gift.email;
}

/**
 * Issues now the yearly receipts of the monthly gifts of `year` (yearly-receipts.server.ts, as the daily job does) and
 * corrects those whose total changed since (a refund, a dispute lost), queues their mails, logged; a receipt that is
 * right is neither changed nor sent again. Returns how many were issued, corrected (or cancelled), and left for another
 * click (the request stops starting new ones after 15 s).
 * @throws HttpError 403, 400 (the current or a future year: not over yet), 409 (no signatory yet), 503.
 */
export async function issueYearlyReceiptsNow(
  session: StaffSession | undefined,
  year: number,
): Promise<{ issued: number; corrected: number; left: number }> {
  assertTreasury(session);
  const thisYear = receiptYear(new Date());
  if (!Number.isInteger(year) || year >= thisYear || year < 2000) {
    throw new HttpError(
      400,
      `Les reçus annuels de ${year} s’émettent une fois l’année finie, à partir du 1er janvier ${year + 1}.`,
    );
  }
  const db = adminFirestore();
  const report = await withDeadline(
    issueYearlyReceipts(db, year, siteReceiptContext, { deadlineMs: 15_000 }),
    25_000,
  ).catch((error: unknown) => {
    throw new HttpError(503, ESPACE_MESSAGES.unavailable, { cause: error });
  });
  if (report.unsigned) throw new HttpError(409, SIGNATORY_MESSAGES.yearlyWaiting);
  const numbers = report.issued.map(([, numero]) => numero);
  const what = numbers.length ? `${numbers[0]} à ${numbers.at(-1)}` : 'aucun nouveau';
  const corrections = report.corrected.map(([, cancelled, numero]) => `${cancelled} → ${numero || 'annulé'}`);
  const changed = corrections.length ? `, rectifiés : ${corrections.join(', ')}` : '';
  await bounded('log', recordAccess(db, session, 'creation', `${YEARLY_RECEIPTS} ${year} (${what}${changed})`));
  await trySend(report.mails, 3000);
  return { issued: report.issued.length, corrected: report.corrected.length, left: report.left };
}
