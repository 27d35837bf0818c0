/** The ledger: Stripe's webhook writes this site's gifts to `dons`, one per Checkout Session (`cs_…`) and paid invoice (`in_…`); GET /api/recu reads them. */
import { STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import { Timestamp, type DocumentData, type Firestore } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import { adminFirestore } from '../../lib/firebase-admin.server';
import {
  errorResponse,
  jsonResponse,
  readBoundedBody,
  unavailable,
  type EndpointContext,
  type EndpointHandler,
} from '../../lib/endpoint.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';
import { FIELD_MAX, MESSAGES } from '../forms/forms';

import { notConfigured, SITE_MARKER } from './stripe.server';
import { receiptNumber, receiptYear, SESSION_ID_PATTERN } from './donations';
import { receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';
import { giftMails, receiptIssuerDetails } from './donation-mails.server';
import { enqueueMails } from '../mail/outbox.server';
import { trySend } from '../mail/mail-env.server';

const badSignature = (why: string, cause?: unknown) =>
  new HttpError(400, 'Signature Stripe absente ou invalide.', { cause: new Error(why, { cause }) });
const badPayload = (why: string) => new HttpError(400, MESSAGES.badRequest, { cause: new Error(why) });

/** The webhook's signing secret (`whsec_…`): STRIPE_WEBHOOK_SECRET from astro:env unless `env` says otherwise; @throws HttpError 503 when unset. */
export function webhookSecretFromEnv(env: { STRIPE_WEBHOOK_SECRET?: string } = { STRIPE_WEBHOOK_SECRET }): string {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw notConfigured(
      'STRIPE_WEBHOOK_SECRET is not set. Copy the signing secret of the webhook endpoint (Stripe Dashboard › Developers › Webhooks) into Netlify’s site settings.',
    );
  }
  return secret;
}

/** POST /api/stripe-webhook: 200 `{ok, message: 'written' | 'unchanged' | 'ignored'}`; 400 bad signature or event, 413 over 64 KB, 503. */
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
    if (typeof event?.type !== 'string') throw badPayload('signed body is not a Stripe event');
    const entry = ledgerEntry(event);
    const { outcome, mails } = entry ? await recordDonation(entry) : { outcome: 'ignored', mails: [] };
    // The donor's mail is safe in the outbox: a first try now, bounded (Stripe waits at most 20 s).
    await trySend(mails, 3000);
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    return errorResponse('api/stripe-webhook', error);
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

// At most `max` UTF-16 code units (the forms' limits; `nom` may hold Stripe's full name), never half a surrogate pair.
function clip(value: string, field: keyof typeof FIELD_MAX): string {
  const max = field === 'nom' ? FIELD_MAX.prenom + FIELD_MAX.nom : FIELD_MAX[field];
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

// The `dons` id and record (without `date` and `recu`), null for other types and other sites'; the donor as Stripe's
// page collected it, else the draft's metadata (sessions only).
function ledgerEntry(event: Stripe.Event) {
  const invoice = event.type === 'invoice.paid';
  if (!invoice && !/^checkout\.session\.(completed|async_payment_(succeeded|failed))$/.test(event.type)) return null;
  const paid = event.data?.object as (Partial<Stripe.Invoice> & Partial<Stripe.Checkout.Session>) | undefined;
  const id = text(paid?.id);
  if (!paid || !(invoice ? /^in_[A-Za-z0-9_]{1,252}$/ : SESSION_ID_PATTERN).test(id)) {
    throw badPayload(`${event.id} carries no ${invoice ? 'invoice' : 'Checkout Session'} id`);
  }
  const parent = paid.parent?.subscription_details;
  if ((invoice ? parent?.metadata : paid.metadata)?.origine !== SITE_MARKER.origine) return null;
  const metadata: Stripe.Metadata = (!invoice && paid.metadata) || {};
  const details = paid.customer_details;
  const address = details?.address ?? paid.customer_address;
  const name = text(details?.individual_name) || text(details?.name) || text(paid.customer_name);
  const line = [text(address?.line1), text(address?.line2)].filter(Boolean).join(', ');
  const country = (text(address?.country) || text(metadata.pays)).toUpperCase();
  const amount = invoice ? paid.amount_paid : paid.amount_total;
  const subscription = invoice ? parent?.subscription : paid.subscription;
  const settled = /_(succeeded|failed)$/.exec(event.type)?.[1];
  const paidAt = (invoice && paid.status_transitions?.paid_at) || event.created;
  const record = {
    montant: amount ?? null,
    devise: paid.currency ?? '',
    prenom: clip(name ? '' : text(metadata.prenom), 'prenom'),
    nom: clip(name || text(metadata.nom), 'nom'),
    email: clip(text(details?.email) || text(paid.customer_email), 'email'),
    adresse: clip(line || text(metadata.adresse), 'adresse'),
    postal: clip(text(address?.postal_code) || text(metadata.postal), 'postal'),
    ville: clip(text(address?.city) || text(metadata.ville), 'ville'),
    pays: /^[A-Z]{2}$/.test(country) ? country : '',
    // A session's payment_status ('paid', 'unpaid', 'no_payment_required') until a delayed payment settles.
    statut: invoice || settled === 'succeeded' ? 'paid' : settled ? 'failed' : (paid.payment_status ?? 'unpaid'),
    nature: invoice ? 'mensualite' : paid.mode === 'subscription' ? 'abonnement' : 'don',
    livemode: event.livemode === true,
    evenement: event.type,
    session: invoice ? '' : id,
    abonnement: text(typeof subscription === 'string' ? subscription : subscription?.id),
    datePaiement: Timestamp.fromMillis(paidAt * 1000),
  };
  return { id, record };
}

const FINAL_STATUSES: ReadonlySet<unknown> = new Set(['paid', 'failed', 'no_payment_required']);

// One transaction: 'unchanged' for an exact replay or a late 'unpaid' over a final status, else 'written' (`date`, `recu`
// kept); a paid one-off gift without a number takes its year's next (`compteurs/recus-<year>`: unique and gap-free).
function recordDonation({ id, record }: NonNullable<ReturnType<typeof ledgerEntry>>) {
  return ledger(`record dons/${id}`, (firestore) => {
    const reference = firestore.collection('dons').doc(id);
    const year = receiptYear(record.datePaiement.toDate());
    const counter = firestore.collection('compteurs').doc(`recus-${year}`);
    return firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(reference)).data();
      const same = ([key, value]: [string, unknown]) =>
        value instanceof Timestamp ? value.isEqual(current?.[key]) : current?.[key] === value;
      const late = FINAL_STATUSES.has(current?.statut) && !FINAL_STATUSES.has(record.statut);
      if (current && (late || Object.entries(record).every(same))) {
        // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back.
        transaction.set(reference, current);
        return { outcome: 'unchanged' as const, mails: [] };
      }
      // The time of the first record, not the server's: the mailed receipt and the downloaded one say the same.
      const next: DocumentData = { ...record, date: current?.date ?? Timestamp.now() };
      if (current?.recu) next.recu = current.recu;
      else if (record.nature === 'don' && record.statut === 'paid') {
        // Still before any write, as Firestore transactions require.
        const last = Number((await transaction.get(counter)).data()?.dernier ?? 0);
        transaction.set(counter, { annee: year, dernier: last + 1 });
        next.recu = receiptNumber(year, last + 1);
      }
      const mails = await giftMails(id, next, current);
      transaction.set(reference, next);
      return { outcome: 'written' as const, mails: enqueueMails(firestore, transaction, mails) };
    });
  });
}

// Firestore unreachable, too slow (8 s: the webhook answers within 10 s) or misconfigured: HttpError 503.
async function ledger<T>(what: string, work: (firestore: Firestore) => Promise<T>): Promise<T> {
  try {
    return await withDeadline(work(adminFirestore()), 8000);
  } catch (error) {
    throw unavailable(`could not ${what}`, error);
  }
}

const BAD_RECEIPT_LINK = 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.';
const RECEIPT_NOT_READY = 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.';

// 'attente' not recorded (yet), 'pret' a paid one-off gift with its number, 'mensuel' a monthly gift (one yearly
// receipt), 'echec' a failed delayed payment, 'impaye' one not settled yet.
function receiptState(entry: DocumentData | undefined): string {
  if (!entry) return 'attente';
  if (entry.nature === 'abonnement' || entry.nature === 'mensualite') return 'mensuel';
  if (entry.statut === 'failed') return 'echec';
  return entry.statut === 'paid' && typeof entry.recu === 'string' ? 'pret' : 'impaye';
}

/** GET /api/recu?session_id=cs_…: a paid one-off gift's receipt (PDF), or as JSON where the gift stands; `issuer`: name and address (content), object and signatory from astro:env by default. */
export function receiptHandler(
  issuer: () => Promise<Pick<ReceiptIssuer, 'name' | 'addressLines'> & Partial<ReceiptIssuer>>,
): EndpointHandler {
  return async ({ request }) => {
    const sessionId = new URL(request.url).searchParams.get('session_id') ?? '';
    if (!SESSION_ID_PATTERN.test(sessionId)) return jsonResponse(400, { ok: false, message: BAD_RECEIPT_LINK });
    try {
      const read = (db: Firestore) => db.collection('dons').doc(sessionId).get();
      const entry = (await ledger(`read dons/${sessionId}`, read)).data();
      const state = receiptState(entry);
      if (request.headers.get('accept')?.includes('application/json')) {
        return jsonResponse(200, { ok: true, etat: state, ...(state === 'pret' ? { numero: entry?.recu } : {}) });
      }
      if (!entry || state !== 'pret') return jsonResponse(404, { ok: false, message: RECEIPT_NOT_READY });
      const pdf = await receiptPdf({ ...receiptIssuerDetails(), ...(await issuer()) }, entry);
      return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="recu-fiscal-${entry.recu}.pdf"`,
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
