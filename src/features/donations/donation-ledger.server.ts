/**
 * The donation ledger: Stripe's webhook writes this site's gifts to `dons` with firebase-admin, one document per
 * Checkout Session (`cs_…`) and per paid monthly invoice (`in_…`). Fields and statuses: docs/donations.md.
 */
import { FieldValue, Timestamp, type DocumentData } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { errorResponse, jsonResponse, readBoundedBody, type EndpointContext } from '../../lib/endpoint.server';
import { HttpError, withDeadline } from '../../lib/http-error.server';
import { FIELD_MAX, MESSAGES } from '../forms/forms';
import { unavailable } from '../forms/submissions.server';
import { receiptNumber, receiptYear } from './receipt';
import { notConfigured, SITE_MARKER } from './stripe.server';
import { SESSION_ID_PATTERN } from './donations';

/** Largest webhook body read, in bytes (Stripe's Checkout events weigh a few KB); HTTP 413 above. */
const WEBHOOK_MAX_BODY_BYTES = 65_536;

/** Signatures older, or dated further ahead, than this many seconds are refused (Stripe's default). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Give up a ledger read or write after this many milliseconds (the webhook answers within 10 s). */
const LEDGER_TIMEOUT_MS = 8000;

/** The Checkout events the ledger records, besides `invoice.paid`; any other type is acknowledged and ignored. */
const SESSION_EVENT = /^checkout\.session\.(completed|async_payment_succeeded|async_payment_failed)$/;

/** Longest value of each text field (the forms' limits, in UTF-16 code units here); `nom` may hold Stripe's full name. */
const LEDGER_TEXT_MAX = { ...FIELD_MAX, nom: FIELD_MAX.prenom + FIELD_MAX.nom } as const;

/** HttpError 400 for a request not provably from Stripe (no, malformed, wrong or future signature). */
function badSignature(why: string, cause?: unknown): HttpError {
  return new HttpError(400, 'Signature Stripe absente ou invalide.', { cause: new Error(why, { cause }) });
}

/** HttpError 400 MESSAGES.badRequest for a signed body the ledger cannot use (not an event, no id). */
function badPayload(why: string): HttpError {
  return new HttpError(400, MESSAGES.badRequest, { cause: new Error(why) });
}

/** The webhook's signing secret (`whsec_…`); @throws HttpError 503 when STRIPE_WEBHOOK_SECRET is not set. */
export function webhookSecretFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw notConfigured(
      'STRIPE_WEBHOOK_SECRET is not set. Copy the signing secret of the webhook endpoint (Stripe Dashboard › Developers › Webhooks) into Netlify’s site settings.',
    );
  }
  return secret;
}

/**
 * POST /api/stripe-webhook: checks the `Stripe-Signature` on the raw body, then records the event.
 * @returns 200 `{ok, message: 'written' | 'unchanged' | 'ignored'}`; 400 bad signature or event, 413 over 64 KB,
 *   503 STRIPE_WEBHOOK_SECRET unset or Firestore unavailable (Stripe retries).
 */
export async function stripeWebhook({ request }: EndpointContext): Promise<Response> {
  try {
    const secret = webhookSecretFromEnv();
    const body = await readBoundedBody(request, WEBHOOK_MAX_BODY_BYTES);
    const signature = request.headers.get('stripe-signature');
    if (!signature) throw badSignature('no Stripe-Signature header');
    // Stripe's SDK checks only a signature's age: one dated ahead is refused here.
    const stamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? NaN);
    if (stamp > Date.now() / 1000 + WEBHOOK_TOLERANCE_SECONDS) throw badSignature('Stripe-Signature dated ahead');
    const event: Stripe.Event | null = await Stripe.webhooks
      .constructEventAsync(body, signature, secret, WEBHOOK_TOLERANCE_SECONDS)
      .catch((error: unknown) => {
        throw badSignature('Stripe-Signature does not match the body', error);
      });
    if (typeof event?.type !== 'string') throw badPayload('signed body is not a Stripe event');
    const entry = ledgerEntry(event);
    const outcome = entry ? await recordDonation(entry.id, entry.record) : 'ignored';
    return jsonResponse(200, { ok: true, message: outcome });
  } catch (error) {
    return errorResponse('api/stripe-webhook', error);
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `value` cut to `max` UTF-16 code units, never in the middle of a surrogate pair. */
function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

const isOurs = (metadata: Stripe.Metadata | null | undefined): boolean =>
  metadata?.[SITE_MARKER.key] === SITE_MARKER.value;

/** A record's fields common to sessions and invoices: `montant` in euro cents (null if none), `paidAt` in seconds. */
function eventFields(
  event: Stripe.Event,
  amount: number | null,
  currency: string | null,
  subscription: unknown,
  paidAt: number,
) {
  return {
    montant: Number.isSafeInteger(amount) && Number(amount) >= 0 ? amount : null,
    devise: /^[a-z]{3}$/i.test(text(currency)) ? text(currency).toLowerCase() : '',
    livemode: event.livemode === true,
    evenement: event.type,
    abonnement: text(typeof subscription === 'string' ? subscription : (subscription as { id?: string } | null)?.id),
    datePaiement: Timestamp.fromMillis(paidAt * 1000),
  };
}

/** The donor's fields from what Stripe's page collected, else the draft's metadata. */
function donorOf(name: string, email: string, address: Stripe.Address | null | undefined, metadata: Stripe.Metadata) {
  const line = [text(address?.line1), text(address?.line2)].filter(Boolean).join(', ');
  const country = (text(address?.country) || text(metadata.pays)).toUpperCase();
  return {
    prenom: clip(name ? '' : text(metadata.prenom), LEDGER_TEXT_MAX.prenom),
    nom: clip(name || text(metadata.nom), LEDGER_TEXT_MAX.nom),
    email: clip(email, LEDGER_TEXT_MAX.email),
    adresse: clip(line || text(metadata.adresse), LEDGER_TEXT_MAX.adresse),
    postal: clip(text(address?.postal_code) || text(metadata.postal), LEDGER_TEXT_MAX.postal),
    ville: clip(text(address?.city) || text(metadata.ville), LEDGER_TEXT_MAX.ville),
    pays: /^[A-Z]{2}$/.test(country) ? country : '',
  };
}

/**
 * The `dons` id and record (without `date` and `recu`) of a verified event; null for other types and other sites'.
 * @throws HttpError 400 when a recorded type carries no session or invoice id.
 */
function ledgerEntry(event: Stripe.Event) {
  const created = event.created ?? Math.floor(Date.now() / 1000);
  if (event.type === 'invoice.paid') {
    const invoice = event.data?.object as Stripe.Invoice | undefined;
    if (!invoice?.id || !/^in_[A-Za-z0-9_]{1,252}$/.test(invoice.id)) throw badPayload(`${event.id}: no invoice id`);
    const subscription = invoice.parent?.subscription_details;
    if (!isOurs(subscription?.metadata)) return null;
    const paidAt = invoice.status_transitions?.paid_at ?? created;
    const record = {
      ...eventFields(event, invoice.amount_paid, invoice.currency, subscription?.subscription, paidAt),
      ...donorOf(text(invoice.customer_name), text(invoice.customer_email), invoice.customer_address, {}),
      statut: 'paid',
      nature: 'mensualite',
      session: '',
    };
    return { id: invoice.id, record };
  }
  if (!SESSION_EVENT.test(event.type)) return null;
  const session = event.data?.object as Stripe.Checkout.Session | undefined;
  if (!session || !SESSION_ID_PATTERN.test(session.id)) throw badPayload(`${event.id}: no Checkout Session id`);
  if (!isOurs(session.metadata)) return null;
  const details = session.customer_details;
  const record = {
    ...eventFields(event, session.amount_total, session.currency, session.subscription, created),
    ...donorOf(
      text(details?.individual_name) || text(details?.name),
      text(details?.email) || text(session.customer_email),
      details?.address,
      session.metadata ?? {},
    ),
    // Stripe's payment_status ('paid', 'unpaid', 'no_payment_required') until a delayed payment settles.
    statut: event.type.endsWith('_failed')
      ? 'failed'
      : event.type.endsWith('_succeeded')
        ? 'paid'
        : session.payment_status,
    nature: session.mode === 'subscription' ? 'abonnement' : 'don',
    session: session.id,
  };
  return { id: session.id, record };
}

const FINAL_STATUSES: ReadonlySet<unknown> = new Set(['paid', 'failed', 'no_payment_required']);

/**
 * Records `record` in `dons/<id>` in one transaction; a paid one-off gift without a number gets the next one of its
 * payment's year (`compteurs/recus-<year>` = `{annee, dernier}`, in the same transaction: unique and gap-free).
 * @returns 'unchanged' for an exact replay or a late 'unpaid' over a final status; `date` and `recu` are kept once set.
 * @throws HttpError 503 (unavailable) when Firestore is unreachable, too slow (8 s) or misconfigured.
 */
async function recordDonation(
  id: string,
  record: NonNullable<ReturnType<typeof ledgerEntry>>['record'],
): Promise<'written' | 'unchanged'> {
  try {
    const firestore = adminFirestore();
    const reference = firestore.collection('dons').doc(id);
    const year = receiptYear(record.datePaiement.toDate());
    const counter = firestore.collection('compteurs').doc(`recus-${year}`);
    const work = firestore.runTransaction(async (transaction) => {
      const current = (await transaction.get(reference)).data();
      const same = ([key, value]: [string, unknown]) =>
        value instanceof Timestamp ? value.isEqual(current?.[key]) : current?.[key] === value;
      const late = FINAL_STATUSES.has(current?.statut) && !FINAL_STATUSES.has(record.statut);
      if (current && (late || Object.entries(record).every(same))) {
        // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back.
        transaction.set(reference, current);
        return 'unchanged' as const;
      }
      const next: DocumentData = { ...record, date: current?.date ?? FieldValue.serverTimestamp() };
      if (current?.recu) next.recu = current.recu;
      else if (record.nature === 'don' && record.statut === 'paid') {
        // Still before any write, as Firestore transactions require.
        const last = Number((await transaction.get(counter)).data()?.dernier ?? 0);
        transaction.set(counter, { annee: year, dernier: last + 1 });
        next.recu = receiptNumber(year, last + 1);
      }
      transaction.set(reference, next);
      return 'written' as const;
    });
    return await withDeadline(work, LEDGER_TIMEOUT_MS);
  } catch (error) {
    throw unavailable(`could not record dons/${id}`, error);
  }
}

/**
 * The `dons` document of a Checkout Session (undefined until the webhook has recorded it).
 * @throws HttpError 503 (unavailable) when Firestore is unreachable, too slow (8 s) or misconfigured.
 */
export async function readDonation(sessionId: string): Promise<DocumentData | undefined> {
  try {
    const snapshot = await withDeadline(adminFirestore().collection('dons').doc(sessionId).get(), LEDGER_TIMEOUT_MS);
    return snapshot.data();
  } catch (error) {
    throw unavailable(`could not read dons/${sessionId}`, error);
  }
}
