/**
 * The ledger: Stripe's webhook writes this site's gifts to `dons` (gift.server.ts), one per Checkout Session (`cs_…`)
 * and invoice (`in_…`), then what happens to them (refunds, disputes, subscription changes: ledger-events.server.ts);
 * GET /api/recu reads them and serves only a valid receipt (receipt-validity.ts). A live gift's receipt number is
 * taken right after the ledger's commit (numberThenMail), never inside it.
 */
import { STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import type { Firestore } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import {
  errorResponse,
  jsonResponse,
  pdfResponse,
  readBoundedBody,
  type EndpointContext,
  type EndpointHandler,
} from '../../../lib/endpoint.server';
import { withDeadline } from '../../../lib/deadline';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { badRequest } from '../../../lib/http';
import { SESSION_ID_PATTERN } from '../checkout/donations';
import { logId } from '../../../lib/log-id.server';
import { needsReceiptNumber, numberSoon, queueReceiptMails } from '../receipts/receipt-numbering.server';
import {
  giftConverter,
  giftFromInvoice,
  giftFromSession,
  type Gift,
  type PaidGift,
  type ReceiptedGift,
} from './gift.server';
import { isSpecimen, receiptFileName, receiptPdf, type ReceiptIssuer } from '../receipts/receipt-pdf.server';
import type { ReceiptState } from '../receipts/receipt-state';
import { notConfigured, SITE_MARKER } from '../checkout/stripe.server';
import { siteNumberedGiftMails } from '../receipts/gift-mails.server';
import { invoiceOfPayment, patchFromEvent, type LedgerPatchEvent } from './ledger-events.server';
import { ledger, recordGift, recordPatch, type LedgerWrite } from './ledger-writes.server';
import { withPaymentMethod } from '../checkout/payment-lookup.server';
import { deservesReceipt } from '../receipts/receipt-validity';
import { trySend } from '../../mail/mail-env.server';

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
 * 413 over 64 KB, 503. The events it records: docs/donations.md (« The ledger », « After the gift »).
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
    const patch = entry ? null : attempt(() => patchFromEvent(event));
    const { outcome, mails, toNumber }: LedgerWrite = entry
      ? await recordGift({ id: entry.id, gift: await withPaymentMethod(entry.id, entry.gift) })
      : patch
        ? await recordPatchOrInvoice(patch)
        : { outcome: 'ignored', mails: [] };
    // The gift is recorded: its number now if the counter is free within the bound, else by the scheduled sweep.
    const numbered = toNumber ? await numberThenMail(toNumber) : [];
    // The donor's mail is safe in the outbox: a first try now, bounded (Stripe waits at most 20 s).
    await trySend([...mails, ...numbered], 3000);
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    return errorResponse('api/stripe-webhook', error);
  }
}

/**
 * recordPatch, and for a payment the ledger does not know, once more on the invoice it paid, if any (a monthly
 * instalment: invoiceOfPayment asks Stripe). An instalment's charge carries no marker, its invoice's subscription does:
 * such an event delivered before the instalment's `invoice.paid` waits for it (recordPatch parks it under the invoice).
 * @throws HttpError 503.
 */
async function recordPatchOrInvoice(patch: LedgerPatchEvent) {
  const first = await recordPatch(patch);
  const { target } = patch;
  if (first.outcome !== 'ignored' || target.kind !== 'paiement' || !target.paymentIntent) return first;
  const { invoice, ours } = await invoiceOfPayment(target.paymentIntent);
  return invoice ? recordPatch({ ...patch, target: { ...target, invoice, ours: target.ours || ours } }) : first;
}

/** `map()`, its Error as HttpError 400 (a signed event without the ids it needs: Stripe must not retry it). */
function attempt<T>(map: () => T): T {
  try {
    return map();
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

/**
 * The `dons` id and gift an event reports, null for other types and other sites' gifts.
 * @throws HttpError 400 for a ledger event without its object's id.
 */
function ledgerEntry(event: Stripe.Event): { id: string; gift: PaidGift } | null {
  const object: object = event.data?.object ?? {};
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
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

const BAD_RECEIPT_LINK = 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.';
const RECEIPT_NOT_READY = 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.';
const RECEIPT_HELD = 'Ce reçu fiscal est suspendu : le paiement de ce don est contesté auprès de la banque.';

/** Why no receipt is served for a cancelled gift: the message of a PDF asked for anyway (410). */
function cancelledMessage(gift: Gift): string {
  // A test payment's specimen was never a tax receipt: no number to cancel.
  const numero = isSpecimen(gift) ? undefined : gift.recusAnnules?.at(-1)?.numero;
  const receipt = numero ? `son reçu fiscal n° ${numero} est annulé.` : 'il ne donne pas droit à un reçu fiscal.';
  return gift.litige === 'perdu'
    ? `Le paiement de ce don a été contesté et rendu par la banque : ${receipt}`
    : `Ce don a été remboursé : ${receipt}`;
}

/** Where `gift`'s receipt stands ('attente' when the ledger has no such gift yet, or it waits for its number). */
function receiptState(gift: Gift | undefined): ReceiptState {
  if (!gift) return 'attente';
  if (gift.nature === 'abonnement' || gift.nature === 'mensualite') return 'mensuel';
  if (gift.statut === 'failed') return 'echec';
  if (gift.statut !== 'paid') return 'impaye';
  if (!deservesReceipt(gift)) return gift.litige === 'perdu' ? 'conteste' : 'annule';
  if (gift.litige === 'ouvert') return 'litige';
  // Paid and waiting for its number (receipt-numbering.server.ts): « en préparation », as before the record.
  if (needsReceiptNumber(gift)) return 'attente';
  if (typeof gift.recu !== 'string') return 'impaye';
  if (isSpecimen(gift)) return 'specimen';
  return gift.recusAnnules?.length ? 'rectifie' : 'pret';
}

const isReceipted = (gift: Gift | undefined): gift is ReceiptedGift =>
  ['pret', 'specimen', 'rectifie'].includes(receiptState(gift));

/**
 * GET /api/recu?session_id=cs_…: a paid one-off gift's valid receipt (PDF), or as JSON `{ok, etat: ReceiptState,
 * numero?, annule?}` where the gift stands (`numero` the receipt served, `annule` the last number cancelled); a
 * cancelled receipt is never served (410 with why), one held by an open dispute neither (409); `issuer`: who issues it
 * (src/association.ts receiptIssuer).
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
        const annule = gift?.recusAnnules?.at(-1)?.numero;
        return jsonResponse(200, {
          ok: true,
          etat: state,
          ...(isReceipted(gift) ? { numero: gift.recu } : {}),
          ...(annule && gift && !isSpecimen(gift) ? { annule } : {}),
        });
      }
      const state = receiptState(gift);
      if (gift && (state === 'annule' || state === 'conteste')) {
        return jsonResponse(410, { ok: false, message: cancelledMessage(gift) });
      }
      if (state === 'litige') return jsonResponse(409, { ok: false, message: RECEIPT_HELD });
      if (!isReceipted(gift)) return jsonResponse(404, { ok: false, message: RECEIPT_NOT_READY });
      const pdf = await receiptPdf(await issuer(), gift);
      return pdfResponse(pdf, receiptFileName(gift));
    } catch (error) {
      const response = errorResponse('api/recu', error);
      if (response.status === 503) response.headers.set('retry-after', '30');
      return response;
    }
  };
}
