/**
 * The treasurer's reads of the ledger (`dons`) with firebase-admin, each after checking the session's role
 * (tresorerie, admin) and logging the access (access-log.server.ts) before any data is returned: a year's gifts and
 * totals, the yearly receipts of monthly gifts, the CSV export, a receipt's PDF. Writes (a cheque or transfer, a
 * receipt sent again, the yearly receipts issued): gift-entry.server.ts.
 */
import type { Firestore } from 'firebase-admin/firestore';
import { receiptIssuer } from '../../../association';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { HttpError } from '../../../lib/http';
import { logId } from '../../../lib/log-id.server';
import { receiptYear } from '../checkout/donations';
import { giftSchema, type Gift, type ReceiptedGift } from './gift.server';
import { receiptFileName, receiptPdf } from '../receipts/receipt-pdf.server';
import {
  YEARLY_RECEIPT_ID_PATTERN,
  YEARLY_RECEIPTS,
  yearlyReceiptAsGift,
  yearlyCancelledMessage,
  yearlyReceiptConverter,
  type YearlyReceipt,
} from '../yearly/stored-receipt.server';
import { recordAccess } from '../../espace/access-log.server';
import { readSignatory } from '../receipts/signatory.server';
import { assertSection, bounded } from '../../espace/server-calls.server';
import type { StaffSession } from '../../espace/auth.server';
import { giftKind, ledgerCsv, methodLabel, newestGiftFirst, yearTotals, type LedgerRow } from './ledger-view';

/** The ledger's collection. */
export const GIFTS = 'dons';

/** Most gifts read at once: far above the association's yearly gifts. */
const MAX_LISTED = 20_000;

/** A gift id as the ledger writes them (`cs_…`, `in_…`, `cheque-…`, `virement-…`). */
export const GIFT_ID_PATTERN = /^[\w-]{1,255}$/;

/** The message when a gift id leads nowhere. */
export const GIFT_NOT_FOUND = 'Ce don n’existe pas dans le registre.';

/** @throws HttpError 403 unless the session's roles open the donations. */
export function assertTreasury(session: StaffSession | undefined): asserts session is StaffSession {
  assertSection(session, 'dons');
}

/** A ledger document as a row. */
export function ledgerRow(id: string, gift: Gift): LedgerRow {
  return {
    id,
    date: gift.datePaiement.toDate(),
    prenom: gift.prenom,
    nom: gift.nom,
    entreprise: gift.entreprise ?? '',
    email: gift.email,
    montant: gift.montant,
    kind: giftKind(gift.nature, gift.moyen),
    moyen: methodLabel(gift.moyen),
    statut: gift.statut,
    recu: gift.recu ?? '',
    numberPending: gift.aNumeroter === true && !gift.recu,
    livemode: gift.livemode,
    rembourse: gift.rembourse ?? 0,
    litige: gift.litige ?? '',
    recusAnnules: (gift.recusAnnules ?? []).map((cancelled) => cancelled.numero),
    abonnementStatut: gift.abonnementStatut ?? '',
    monthlyCents: gift.nature === 'abonnement' ? (gift.abonnementMontant ?? gift.montant) : null,
  };
}

/**
 * Every readable gift of the ledger. A document that does not fit the schema (the former ledger's `don_…` ones) is
 * counted in `unreadable`, never shown half-read, and never takes the page down.
 */
async function readLedger(db: Firestore): Promise<{ rows: LedgerRow[]; unreadable: number }> {
  const snapshot = await bounded('ledger', db.collection(GIFTS).limit(MAX_LISTED).get());
  const rows: LedgerRow[] = [];
  let unreadable = 0;
  for (const document of snapshot.docs) {
    const parsed = giftSchema.safeParse(document.data());
    if (parsed.success) rows.push(ledgerRow(document.id, parsed.data as Gift));
    else unreadable += 1;
  }
  return { rows: rows.toSorted(newestGiftFirst), unreadable };
}

/**
 * A yearly receipt of monthly gifts as the space lists it (`recusAnnuels/<id>`): `numero` '' once cancelled without
 * replacement, `montant` in cents.
 */
export type YearlyRow = Pick<YearlyReceipt, 'numero' | 'montant' | 'prenom' | 'nom' | 'email'> & {
  id: string;
  /** How many instalments it sums. */
  versements: number;
  /** The numbers cancelled (a refund or a dispute lost after issuing), oldest first: void, shown struck through. */
  recusAnnules: string[];
};

/**
 * A year's page: its gifts (live and test apart, newest first), the yearly receipts of its monthly gifts (by number),
 * totals of live gifts and receipts (yearly ones included), the years the ledger has.
 */
export interface LedgerYear {
  year: number;
  years: number[];
  live: LedgerRow[];
  test: LedgerRow[];
  yearly: YearlyRow[];
  totals: ReturnType<typeof yearTotals>;
  unreadable: number;
  /** false while the receipts' signatory lacks a name or a quality: no receipt is issued (receipts/signatory.ts). */
  signed: boolean;
}

/**
 * The yearly receipts of `year`, by number (a cancelled one by its last number); a document that does not fit is left
 * out.
 */
async function readYearlyReceipts(db: Firestore, year: number): Promise<YearlyRow[]> {
  const snapshot = await bounded('yearly', db.collection(YEARLY_RECEIPTS).where('annee', '==', year).get());
  return snapshot.docs
    .flatMap((document) => {
      try {
        const receipt = yearlyReceiptConverter.fromFirestore(document);
        const { numero, montant, prenom, nom, email } = receipt;
        const recusAnnules = (receipt.recusAnnules ?? []).map((cancelled) => cancelled.numero);
        const versements = receipt.mensualites.length;
        return [{ id: document.id, numero, montant, prenom, nom, email, versements, recusAnnules }];
      } catch {
        return [];
      }
    })
    .toSorted((a, b) => (a.numero || a.recusAnnules.at(-1)!).localeCompare(b.numero || b.recusAnnules.at(-1)!));
}

/** The gifts paid in `year` (Europe/Paris), logged as one consultation. @throws HttpError 403, 503. */
export async function listGifts(session: StaffSession | undefined, year: number): Promise<LedgerYear> {
  assertTreasury(session);
  const db = adminFirestore();
  await bounded('log', recordAccess(db, session, 'consultation', `${GIFTS} ${year} (liste)`));
  const [{ rows, unreadable }, signatory] = await Promise.all([
    readLedger(db),
    bounded('signatory', readSignatory(db)),
  ]);
  const years = [...new Set([receiptYear(new Date()), year, ...rows.map((row) => receiptYear(row.date))])];
  const ofYear = rows.filter((row) => receiptYear(row.date) === year);
  const yearly = await readYearlyReceipts(db, year);
  const totals = yearTotals(ofYear);
  // Only valid yearly receipts are declared, for the amount they certify; their cancelled numbers are counted apart.
  const validYearly = yearly.filter((row) => row.numero);
  return {
    year,
    years: years.toSorted((a, b) => b - a),
    live: ofYear.filter((row) => row.livemode),
    test: ofYear.filter((row) => !row.livemode),
    yearly,
    totals: {
      ...totals,
      receipts: totals.receipts + validYearly.length,
      receiptsCents: totals.receiptsCents + validYearly.reduce((sum, row) => sum + row.montant, 0),
      cancelledReceipts: totals.cancelledReceipts + yearly.reduce((sum, row) => sum + row.recusAnnules.length, 0),
    },
    unreadable,
    signed: Boolean(signatory),
  };
}

/** Live gifts paid and receipts issued after `since` (all without it), unlogged: counts for /espace. */
export async function giftsSince(
  session: StaffSession | undefined,
  since: Date | undefined,
): Promise<{ gifts: number; receipts: number }> {
  assertTreasury(session);
  const { rows } = await readLedger(adminFirestore());
  const recent = rows.filter((row) => row.livemode && row.statut === 'paid' && (!since || row.date > since));
  return { gifts: recent.length, receipts: recent.filter((row) => row.recu).length };
}

/** The CSV export (donations.ts) of the year's live gifts, logged with its row count. @throws HttpError 403, 503. */
export async function exportGifts(session: StaffSession | undefined, year: number): Promise<string> {
  assertTreasury(session);
  const db = adminFirestore();
  const { rows } = await readLedger(db);
  const ofYear = rows.filter((row) => row.livemode && receiptYear(row.date) === year);
  await bounded('log', recordAccess(db, session, 'export', `${GIFTS} ${year} (${ofYear.length} lignes, CSV)`));
  return ledgerCsv(ofYear);
}

/** The receipted gift `dons/<id>`. @throws HttpError 404 GIFT_NOT_FOUND (or no receipt), 503. */
export async function receiptedGift(db: Firestore, id: string): Promise<ReceiptedGift> {
  if (!GIFT_ID_PATTERN.test(id)) throw new HttpError(404, GIFT_NOT_FOUND);
  const snapshot = await bounded('gift', db.collection(GIFTS).doc(id).get());
  const parsed = giftSchema.safeParse(snapshot.data());
  if (!parsed.success) throw new HttpError(404, GIFT_NOT_FOUND);
  const gift = parsed.data as Gift;
  if (!gift.recu) throw new HttpError(404, 'Ce don n’a pas de reçu fiscal.');
  return { ...gift, recu: gift.recu };
}

/**
 * The receipt PDF of `dons/<id>`, its number and file name (a specimen's for a test gift), logged as an export.
 * @throws HttpError 403, 404, 503.
 */
export async function receiptOf(
  session: StaffSession | undefined,
  id: string,
): Promise<{ pdf: Uint8Array; recu: string; fileName: string }> {
  assertTreasury(session);
  const db = adminFirestore();
  const gift = await receiptedGift(db, id);
  // logId, not the id: a Checkout Session id opens the receipt, and never reaches a log.
  await bounded('log', recordAccess(db, session, 'export', `${GIFTS}/${logId(id)} (reçu ${gift.recu}, PDF)`));
  return { pdf: await receiptPdf(await receiptIssuer(), gift), recu: gift.recu, fileName: receiptFileName(gift) };
}

/**
 * The yearly receipt `recusAnnuels/<id>` as PDF, its number and file name, logged as an export; a corrected receipt's
 * current version (the one that replaced the cancelled numbers). Never a cancelled one: 410 with the cancelled number.
 * @throws HttpError 403, 404, 410, 503.
 */
export async function yearlyReceiptOf(
  session: StaffSession | undefined,
  id: string,
): Promise<{ pdf: Uint8Array; recu: string; fileName: string }> {
  assertTreasury(session);
  const db = adminFirestore();
  const missing = new HttpError(404, 'Ce reçu annuel n’existe pas.');
  if (!YEARLY_RECEIPT_ID_PATTERN.test(id)) throw missing;
  const reference = db.collection(YEARLY_RECEIPTS).withConverter(yearlyReceiptConverter).doc(id);
  const snapshot = await bounded('yearly', reference.get());
  // A document that does not fit the schema is as good as none.
  const receipt = (() => {
    try {
      return snapshot.data();
    } catch {
      return undefined;
    }
  })();
  if (!receipt) throw missing;
  if (!receipt.numero) throw new HttpError(410, yearlyCancelledMessage(receipt));
  await bounded('log', recordAccess(db, session, 'export', `${YEARLY_RECEIPTS}/${id} (reçu ${receipt.numero}, PDF)`));
  const gift = yearlyReceiptAsGift(receipt);
  return { pdf: await receiptPdf(await receiptIssuer(), gift), recu: receipt.numero, fileName: receiptFileName(gift) };
}
