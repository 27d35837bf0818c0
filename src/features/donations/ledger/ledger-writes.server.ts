/**
 * The ledger's writes (`dons`, docs/donations.md), each one Firestore transaction: a gift as Stripe's session or
 * invoice reports it (recordGift), an event after it (recordPatch: refunds, disputes, subscription changes), and the
 * receipt rule both apply (applyReceiptRule: receipt-validity.ts, the one place a receipt is cancelled or marked for
 * its number). A live gift's number is never taken here: the gift is marked `aNumeroter` and numbered after the commit
 * (receipt-numbering.server.ts), so that recording never waits on the year's counter.
 */
import { Timestamp, type DocumentReference, type Firestore, type Transaction } from 'firebase-admin/firestore';
import { withDeadline } from '../../../lib/deadline';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { unavailable } from '../../../lib/http';
import { logId } from '../../../lib/log-id.server';
import { enqueueMails } from '../../mail/outbox.server';
import { giftMails, receiptChangeMails } from '../receipts/gift-mails.server';
import { giftConverter, type CancelledReceipt, type Gift, type PaidGift } from './gift.server';
import { mergePatch, type LedgerPatch, type LedgerPatchEvent, type PatchTarget } from './ledger-events.server';
import { specimenNumber } from '../receipts/receipt-numbering.server';
import { receiptChange } from '../receipts/receipt-validity';

/**
 * What a ledger write did: `outcome`, the outbox ids of the mails it queued, and `toNumber`, the id of the gift that
 * waits for its receipt number after the commit (absent when none does).
 */
export interface LedgerWrite {
  outcome: 'written' | 'unchanged' | 'ignored';
  mails: string[];
  toNumber?: string | undefined;
}

const FINAL_STATUSES: ReadonlySet<unknown> = new Set(['paid', 'failed', 'no_payment_required']);

/**
 * The gift kept from a document's replay: every field Stripe reports, compared one by one (but the event's type: a
 * session replayed after a refund changes nothing).
 */
function sameGift(current: Gift, gift: PaidGift): boolean {
  return Object.entries(gift).every(([key, value]) => {
    if (key === 'evenement') return true;
    const stored = current[key as keyof Gift];
    return value instanceof Timestamp ? stored instanceof Timestamp && value.isEqual(stored) : stored === value;
  });
}

/**
 * Events after the gift that arrived before it (a refund before its session completed, a monthly instalment's refund
 * or dispute before its `invoice.paid`, a subscription's update before its first session): `dons-en-attente/<pi_…,
 * in_… or sub_…>`, the LedgerPatch merged so far (and, under an invoice, `paiement`: the PaymentIntent that paid it),
 * applied and deleted when the gift is recorded.
 */
const PENDING = 'dons-en-attente';

/** The pending patches' keys of `dons/<id>`: its PaymentIntent, an instalment's invoice, a session's subscription. */
function pendingKeys(id: string, gift: PaidGift): string[] {
  const keys = [
    gift.paiement ?? '',
    gift.nature === 'mensualite' ? id : '',
    gift.nature === 'abonnement' ? gift.abonnement : '',
  ];
  return [...new Set(keys.filter(Boolean))];
}

/** A waiting patch as stored: the LedgerPatch, and the PaymentIntent of an instalment parked under its invoice. */
type PendingPatch = LedgerPatch & { paiement?: unknown };

/**
 * Records `gift` under `dons/<id>` in one transaction: 'unchanged' for an exact replay or a late 'unpaid' over a final
 * status (or a late failed attempt over a paid invoice), else 'written' (`date`, `recu` and what later events recorded
 * kept, and a `moyen` Stripe named over a later 'en-ligne'). Patches that came first (PENDING) are merged in. The
 * receipt follows applyReceiptRule. The donor's mails the change calls for (donation-mails.server.ts) are queued in
 * the same transaction; their outbox ids are returned with the outcome, and `toNumber`, the gift's id when it waits for
 * its number (the caller numbers it after the commit; a replay of a gift still waiting returns it too). Logs name the
 * gift by logId, never its id.
 * @throws HttpError 503 (ledger).
 */
export function recordGift({ id, gift: reported }: { id: string; gift: PaidGift }) {
  return ledger(`record dons/${logId(id)}`, (firestore) => {
    const reference = firestore.collection('dons').withConverter(giftConverter).doc(id);
    const pendingReferences = pendingKeys(id, reported).map((key) => firestore.collection(PENDING).doc(key));
    return firestore.runTransaction(async (transaction): Promise<LedgerWrite> => {
      const current = (await transaction.get(reference)).data();
      // A method Stripe named (payment-lookup.server.ts) is never undone by a replay it could not answer.
      const vague = reported.moyen === 'en-ligne' && current?.moyen && current.moyen !== 'en-ligne';
      const gift: PaidGift = vague ? { ...reported, moyen: current.moyen } : reported;
      const pending = (
        await Promise.all(pendingReferences.map((pendingReference) => transaction.get(pendingReference)))
      )
        .filter((snapshot) => snapshot.exists)
        .map((snapshot) => ({ reference: snapshot.ref, patch: snapshot.data() as PendingPatch }));
      const late =
        (FINAL_STATUSES.has(current?.statut) && !FINAL_STATUSES.has(gift.statut)) ||
        (current?.statut === 'paid' && gift.statut === 'failed');
      if (current && pending.length === 0 && (late || sameGift(current, gift))) {
        // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back.
        transaction.set(reference, current);
        return { outcome: 'unchanged', mails: [], toNumber: numberLater(id, current) };
      }
      // The time of the first record, not the server's: the mailed receipt and the downloaded one say the same.
      let next: Gift = { ...current, ...(late ? {} : gift), date: current?.date ?? Timestamp.now() } as Gift;
      for (const { patch } of pending) {
        next = mergePatch(next, patch);
        // An instalment's event that came first names its PaymentIntent: later ones then find it without Stripe.
        if (!next.paiement && typeof patch.paiement === 'string' && patch.paiement) next.paiement = patch.paiement;
      }
      const cancelled = applyReceiptRule(id, current, next);
      const mails = [...(await giftMails(id, next, current)), ...(await changeMails(id, next, cancelled))];
      replaceGift(transaction, reference, current, next);
      for (const { reference: pendingReference } of pending) transaction.delete(pendingReference);
      const queued = enqueueMails(firestore, transaction, mails);
      return { outcome: 'written', mails: queued, toNumber: numberLater(id, next) };
    });
  });
}

/**
 * The receipt rule (receipt-validity.ts receiptChange) applied to `next`, the gift `dons/<id>` is about to become
 * (`previous` before): a number to cancel moves to `recusAnnules` (`recu` removed); a live gift that needs a number
 * is marked `aNumeroter` (numbered after the commit: receipt-numbering.server.ts numberReceipts, or its sweep), a
 * test-mode one (`livemode` false) gets a specimen's at once (the counter untouched; a corrected specimen gets
 * another). No counter is read in the ledger's transactions. Returns the cancelled receipt, if any.
 */
function applyReceiptRule(id: string, previous: Gift | undefined, next: Gift): CancelledReceipt | undefined {
  const { cancel, needsNumber } = receiptChange(previous, next);
  let cancelled: CancelledReceipt | undefined;
  if (cancel) {
    cancelled = { ...cancel, date: Timestamp.now() };
    next.recusAnnules = [...(next.recusAnnules ?? []), cancelled];
    delete next.recu;
  }
  if (needsNumber && next.livemode) next.aNumeroter = true;
  else if (needsNumber) {
    const corrections = next.recusAnnules?.length ?? 0;
    next.recu = specimenNumber(corrections ? `${id}#${corrections}` : id, next.datePaiement.toDate());
  }
  return cancelled;
}

/** `id` when `gift` waits for its number after the commit (`aNumeroter`), else undefined. */
const numberLater = (id: string, gift: Gift | undefined) => (gift?.aNumeroter === true ? id : undefined);

/**
 * The donor's notice of the cancelled receipt `cancelled` of `dons/<id>` (receiptChangeMails), but for a live gift
 * that waits for its corrected receipt's number: that notice, with the corrected receipt attached, is queued once the
 * number exists (receipt-mails.server.ts numberedGiftMails), one mail rather than two.
 */
async function changeMails(id: string, gift: Gift, cancelled: CancelledReceipt | undefined) {
  return gift.aNumeroter ? [] : receiptChangeMails(id, gift, cancelled);
}

/**
 * Writes `next` over `current` in `transaction`, fields `next` drops (a cancelled `recu`) removed. Firestore's set
 * replaces a document, but the embedded emulator (`npm start`, tests) merges: deleting first, in the same commit,
 * gives the same document on both.
 */
function replaceGift(
  transaction: Transaction,
  reference: DocumentReference<Gift>,
  current: Gift | undefined,
  next: Gift,
): void {
  if (current && Object.keys(current).some((key) => !(key in next))) transaction.delete(reference);
  transaction.set(reference, next);
}

/** The unchanged test of a patched gift: the fields events after the gift change. */
const patchedFields = (gift: LedgerPatch) =>
  JSON.stringify([gift.rembourse, gift.litige, gift.abonnementStatut, gift.abonnementMontant]);

/**
 * The `dons` document `target` names, read in `transaction`: the gift whose `paiement` is the PaymentIntent (else a
 * legacy event's invoice, `dons/<in_…>`), or the session (`nature` 'abonnement') of the subscription. Undefined when
 * the ledger has none (yet).
 */
async function findTarget(firestore: Firestore, transaction: Transaction, target: PatchTarget) {
  const gifts = firestore.collection('dons').withConverter(giftConverter);
  const query =
    target.kind === 'abonnement'
      ? gifts.where('abonnement', '==', target.subscription).where('nature', '==', 'abonnement')
      : gifts.where('paiement', '==', target.paymentIntent || '-');
  const [found] = (await transaction.get(query.limit(1))).docs;
  if (found) return { reference: found.ref, id: found.id, gift: found.data() };
  const invoice =
    target.kind === 'paiement' && target.invoice ? await transaction.get(gifts.doc(target.invoice)) : null;
  const gift = invoice?.data();
  return invoice && gift ? { reference: invoice.ref, id: invoice.id, gift } : undefined;
}

/**
 * Records an event after the gift (ledger-events.server.ts) in one transaction: on the gift it names, merged
 * (mergePatch), the receipt rule applied and the donor's mail queued; 'unchanged' for a replay. `toNumber` as
 * recordGift's: the gift's id when a partial refund left it waiting for its corrected receipt's number. When the ledger
 * has no such gift yet, a subscription's patch or one of this site's charges (`ours`: the marker on the charge, or
 * on the subscription of the invoice it paid) waits in PENDING ('written'), under the invoice for an instalment;
 * another site's is 'ignored'. @throws HttpError 503 (ledger).
 */
export function recordPatch({ target, patch, evenement }: LedgerPatchEvent) {
  // An instalment's event waits under its invoice: its `invoice.paid` may not name the PaymentIntent.
  const key = target.kind === 'abonnement' ? target.subscription : target.invoice || target.paymentIntent;
  const paid = target.kind === 'paiement' && target.invoice && target.paymentIntent ? target.paymentIntent : '';
  return ledger(`record ${evenement} for ${logId(key)}`, (firestore) =>
    firestore.runTransaction(async (transaction): Promise<LedgerWrite> => {
      const found = await findTarget(firestore, transaction, target);
      if (!found) {
        if (target.kind === 'paiement' && !target.ours) return { outcome: 'ignored', mails: [] };
        const reference = firestore.collection(PENDING).doc(key);
        const waiting = ((await transaction.get(reference)).data() ?? {}) as LedgerPatch;
        const merged = mergePatch(waiting, patch);
        if (patchedFields(merged) === patchedFields(waiting)) {
          transaction.set(reference, waiting);
          return { outcome: 'unchanged', mails: [] };
        }
        transaction.set(reference, {
          ...merged,
          evenement,
          date: Timestamp.now(),
          ...(paid ? { paiement: paid } : {}),
        });
        return { outcome: 'written', mails: [] };
      }
      const { reference, id, gift: current } = found;
      const next: Gift = { ...mergePatch(current, patch), evenement };
      if (patchedFields(next) === patchedFields(current)) {
        transaction.set(reference, current);
        return { outcome: 'unchanged', mails: [], toNumber: numberLater(id, current) };
      }
      const cancelled = applyReceiptRule(id, current, next);
      const mails = await changeMails(id, next, cancelled);
      replaceGift(transaction, reference, current, next);
      const queued = enqueueMails(firestore, transaction, mails);
      return { outcome: 'written', mails: queued, toNumber: numberLater(id, next) };
    }),
  );
}

/**
 * Runs `work` within 8 s (the webhook answers within 10 s). @throws HttpError 503: unreachable, slow, misconfigured.
 */
export async function ledger<T>(what: string, work: (firestore: Firestore) => Promise<T>): Promise<T> {
  try {
    return await withDeadline(work(adminFirestore()), 8000);
  } catch (error) {
    throw unavailable(`could not ${what}`, error, { retryAfterSeconds: 60 });
  }
}
