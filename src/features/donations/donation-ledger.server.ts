/**
 * The ledger: Stripe's webhook writes this site's gifts to `dons` (gift.server.ts), one per Checkout Session (`cs_…`)
 * and paid invoice (`in_…`); GET /api/recu reads them.
 */
import { STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import { withDeadline } from '../../lib/deadline';
import {
  errorResponse,
  jsonResponse,
  readBoundedBody,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { badRequest, unavailable } from '../../lib/http';
import { SESSION_ID_PATTERN } from './donations';
import { logId } from '../../lib/log-id.server';
import { needsReceiptNumber, numberSoon, queueReceiptMails, specimenNumber } from './receipt-numbering.server';
import {
  giftConverter,
  giftFromInvoice,
  giftFromSession,
  type Gift,
  type PaidGift,
  type ReceiptedGift,
} from './gift.server';
import { isSpecimen, receiptFileName, receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';
import type { ReceiptState } from './receipt-state';
import { notConfigured, SITE_MARKER } from './stripe.server';
import { giftMails, siteNumberedGiftMails } from './donation-mails.server';
import { enqueueMails } from '../mail/outbox.server';
import { trySend } from '../mail/mail-env.server';

const badSignature = (why: string, cause?: unknown) => badRequest(why, cause, 'Signature Stripe absente ou invalide.');

/**
 * The webhook's signing secret (`whsec_…`): STRIPE_WEBHOOK_SECRET from astro:env unless `env` says otherwise.
 * @throws HttpError 503 when unset.
 */
export function webhookSecretFromEnv(env: { STRIPE_WEBHOOK_SECRET?: string } = { STRIPE_WEBHOOK_SECRET }): string {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw notConfigured(
      'STRIPE_WEBHOOK_SECRET is not set. Copy the signing secret of the webhook endpoint (Stripe Dashboard › ' +
        'Developers › Webhooks) into Netlify’s site settings.',
    );
  }
  return secret;
}

/**
 * POST /api/stripe-webhook: 200 `{ok, message: 'written' | 'unchanged' | 'ignored'}`; 400 bad signature or event,
 * 413 over 64 KB, 503.
 */
export async function stripeWebhook({ request }: EndpointContext): Promise<Response> {
  try {
    const secret = webhookSecretFromEnv();
    const body = await readBoundedBody(request, 65_536);
    const signature = request.headers.get('stripe-signature');
    if (!signature) throw badSignature('no Stripe-Signature header');
    // Stripe's SDK refuses signatures older than 300 s (its default) only: one dated further ahead is refused here.
    const stamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? NaN);
    if (stamp > Date.now() / 1000 + 300) throw badSignature('Stripe-Signature dated ahead');
    const event = await Stripe.webhooks.constructEventAsync(body, signature, secret).catch((error: unknown) => {
      throw badSignature('Stripe-Signature does not match the body', error);
    });
    if (typeof event?.type !== 'string') throw badRequest('signed body is not a Stripe event');
    const entry = ledgerEntry(event);
    const { outcome, mails, pending } = entry
      ? await recordGift(entry)
      : { outcome: 'ignored', mails: [], pending: false };
    // The gift is recorded: its number now if the counter is free within the bound, else by the scheduled sweep.
    const numbered = pending && entry ? await numberThenMail(entry.id) : [];
    // The donor's mail is safe in the outbox: a first try now, bounded (Stripe waits at most 20 s).
    await trySend([...mails, ...numbered], 3000);
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    return errorResponse('api/stripe-webhook', error);
  }
}

/**
 * The `dons` id and gift an event reports, null for other types and other sites' gifts.
 * @throws HttpError 400 for a ledger event without its object's id.
 */
function ledgerEntry(event: Stripe.Event): { id: string; gift: PaidGift } | null {
  const object: object = event.data?.object ?? {};
  const attempt = (map: () => PaidGift) => {
    try {
      return map();
    } catch (error) {
      throw badRequest((error as Error).message);
    }
  };
  if (event.type === 'invoice.paid') {
    const invoice = object as Partial<Stripe.Invoice>;
    const gift = attempt(() => giftFromInvoice(event, invoice));
    const marker = invoice.parent?.subscription_details?.metadata?.origine;
    return marker === SITE_MARKER.origine ? { id: invoice.id!.trim(), gift } : null;
  }
  if (/^checkout\.session\.(completed|async_payment_(succeeded|failed))$/.test(event.type)) {
    const session = object as Partial<Stripe.Checkout.Session>;
    const gift = attempt(() => giftFromSession(event, session));
    return session.metadata?.origine === SITE_MARKER.origine ? { id: gift.session, gift } : null;
  }
  return null;
}

const FINAL_STATUSES: ReadonlySet<unknown> = new Set(['paid', 'failed', 'no_payment_required']);

/** The gift kept from a document's replay: every field Stripe reports, compared one by one. */
function sameGift(current: Gift, gift: PaidGift): boolean {
  return Object.entries(gift).every(([key, value]) => {
    const stored = current[key as keyof Gift];
    return value instanceof Timestamp ? stored instanceof Timestamp && value.isEqual(stored) : stored === value;
  });
}

/** How long the webhook waits for a gift's number and mail after recording it (ms); the sweep does it otherwise. */
const NUMBERING_DEADLINE_MS = 4000;

/**
 * Numbers `dons/<id>` (receipt-numbering.server.ts numberSoon: short transactions on the gifts and the counter only,
 * never holding a gift's record) and queues its mail, within NUMBERING_DEADLINE_MS: the outbox ids queued, [] when the
 * counter stayed busy or Firestore failed (logged: the scheduled sweep finishes it, so the webhook still answers 200
 * and Stripe does not retry).
 */
async function numberThenMail(id: string): Promise<string[]> {
  const firestore = adminFirestore();
  const work = async () => {
    await numberSoon(firestore, id);
    return queueReceiptMails(firestore, [id], siteNumberedGiftMails());
  };
  try {
    return await withDeadline(work(), NUMBERING_DEADLINE_MS);
  } catch (error) {
    console.warn(`[api/stripe-webhook] dons/${logId(id)} left for the scheduled numbering: ${String(error)}`);
    return [];
  }
}

/**
 * Records `gift` under `dons/<id>` in one transaction: 'unchanged' for an exact replay or a late 'unpaid' over a final
 * status, else 'written' (`date` and `recu` kept). A paid live one-off gift without a number is marked `aNumeroter`
 * and `pending` is true: its number is taken after this commit (numberThenMail, else the scheduled sweep), so that
 * recording never waits on the counter. A test-mode one (`livemode: false`) gets a specimen number at once, the
 * counter untouched. The donor's mails the change calls for (donation-mails.server.ts) are queued in the same
 * transaction; their outbox ids are returned with the outcome. Logs name the gift by logId, never its id.
 * @throws HttpError 503 (ledger).
 */
function recordGift({ id, gift }: { id: string; gift: PaidGift }) {
  return ledger(`record dons/${logId(id)}`, async (firestore) => {
    const reference = firestore.collection('dons').withConverter(giftConverter).doc(id);
    const kept = (current: Gift | undefined): boolean => {
      const late = FINAL_STATUSES.has(current?.statut) && !FINAL_STATUSES.has(gift.statut);
      return Boolean(current && (late || sameGift(current, gift)));
    };
    // A replay (Stripe retries, often while the gift is being numbered) changes nothing: answered without locking the
    // document. A change goes through the transaction, which checks again.
    const stored = (await reference.get()).data();
    if (kept(stored)) return { outcome: 'unchanged' as const, mails: [], pending: needsReceiptNumber(stored) };
    return firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(reference)).data();
      if (kept(current)) {
        // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back.
        transaction.set(reference, current!);
        return { outcome: 'unchanged' as const, mails: [], pending: needsReceiptNumber(current) };
      }
      // The time of the first record, not the server's: the mailed receipt and the downloaded one say the same.
      const next: Gift = { ...gift, date: current?.date ?? Timestamp.now() };
      if (current?.recu) next.recu = current.recu;
      else if (gift.nature === 'don' && gift.statut === 'paid' && !gift.livemode) {
        next.recu = specimenNumber(id, gift.datePaiement.toDate());
      }
      // A live gift's number comes after this commit: the counter is no part of this transaction.
      const pending = needsReceiptNumber(next);
      if (pending) next.aNumeroter = true;
      const mails = await giftMails(id, next, current);
      transaction.set(reference, next);
      return { outcome: 'written' as const, mails: enqueueMails(firestore, transaction, mails), pending };
    });
  });
}

/**
 * Runs `work` within 8 s (the webhook answers within 10 s). @throws HttpError 503: unreachable, slow, misconfigured.
 */
async function ledger<T>(what: string, work: (firestore: Firestore) => Promise<T>): Promise<T> {
  try {
    return await withDeadline(work(adminFirestore()), 8000);
  } catch (error) {
    throw unavailable(`could not ${what}`, error, { retryAfterSeconds: 60 });
  }
}

const BAD_RECEIPT_LINK = 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.';
const RECEIPT_NOT_READY = 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.';

/** Where `gift`'s receipt stands ('attente' when the ledger has no such gift yet, or it waits for its number). */
function receiptState(gift: Gift | undefined): ReceiptState {
  if (!gift) return 'attente';
  if (gift.nature === 'abonnement' || gift.nature === 'mensualite') return 'mensuel';
  if (gift.statut === 'failed') return 'echec';
  // Paid and waiting for its number (receipt-numbering.server.ts): « en préparation », as before the record.
  if (needsReceiptNumber(gift)) return 'attente';
  if (gift.statut !== 'paid' || typeof gift.recu !== 'string') return 'impaye';
  return isSpecimen(gift) ? 'specimen' : 'pret';
}

const isReceipted = (gift: Gift | undefined): gift is ReceiptedGift =>
  ['pret', 'specimen'].includes(receiptState(gift));

/**
 * GET /api/recu?session_id=cs_…: a paid one-off gift's receipt (PDF), or as JSON `{ok, etat: ReceiptState, numero?}`
 * where the gift stands; `issuer`: who issues it (src/association.ts receiptIssuer).
 */
export function receiptHandler(issuer: () => Promise<ReceiptIssuer>): EndpointHandler {
  return async ({ request }) => {
    const sessionId = new URL(request.url).searchParams.get('session_id') ?? '';
    if (!SESSION_ID_PATTERN.test(sessionId)) return jsonResponse(400, { ok: false, message: BAD_RECEIPT_LINK });
    try {
      const read = (db: Firestore) => db.collection('dons').withConverter(giftConverter).doc(sessionId).get();
      const gift = (await ledger(`read dons/${logId(sessionId)}`, read)).data();
      if (request.headers.get('accept')?.includes('application/json')) {
        const state = receiptState(gift);
        return jsonResponse(200, { ok: true, etat: state, ...(isReceipted(gift) ? { numero: gift.recu } : {}) });
      }
      if (!isReceipted(gift)) return jsonResponse(404, { ok: false, message: RECEIPT_NOT_READY });
      const pdf = await receiptPdf(await issuer(), gift);
      return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="${receiptFileName(gift)}"`,
          'cache-control': 'private, no-store',
          'x-robots-tag': 'noindex',
        },
      });
    } catch (error) {
      const response = errorResponse('api/recu', error);
      if (response.status === 503) response.headers.set('retry-after', '30');
      return response;
    }
  };
}
