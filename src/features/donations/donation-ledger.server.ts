/**
 * The donation ledger: Stripe's webhook writes this site's gifts to `dons` with firebase-admin, one
 * document per Checkout Session (`cs_…`) and per paid monthly invoice (`in_…`); a paid one-off gift
 * gets its receipt number in the same transaction. Fields and statuses: docs/donations.md.
 */
import { STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import { FieldValue, Timestamp, type DocumentData, type Firestore } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { receiptNumber, receiptYear } from './receipt';
import { FIELD_MAX, MESSAGES } from '../forms/forms';
import { HttpError, withDeadline } from '../../lib/http-error.server';
import { notConfigured, SITE_MARKER } from './stripe.server';
import { unavailable } from '../forms/submissions.server';

/** The Firestore collection of the ledger. */
export const LEDGER_COLLECTION = 'dons';

/** The collection of the yearly receipt counters: `compteurs/recus-<year>` = `{annee, dernier}`. */
export const COUNTER_COLLECTION = 'compteurs';

/** Largest webhook body read, in bytes (Stripe's Checkout events weigh a few KB); HTTP 413 above. */
export const WEBHOOK_MAX_BODY_BYTES = 65_536;

/** Signatures older, or dated further in the future, than this many seconds are refused (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Give up a ledger write after this many milliseconds (the webhook answers within 10 s). */
export const LEDGER_TIMEOUT_MS = 8000;

/** The Checkout events the ledger records. */
export const SESSION_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;

/** Every event type the ledger records; any other type is acknowledged (200) and ignored. */
export const LEDGER_EVENT_TYPES = [...SESSION_EVENT_TYPES, 'invoice.paid'] as const;

/** One of LEDGER_EVENT_TYPES. */
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** `statut` of a `dons` document: 'paid' money received; 'unpaid' a delayed method not settled; 'failed'. */
export type DonationStatus = 'paid' | 'unpaid' | 'failed' | 'no_payment_required';

/**
 * `nature` of a `dons` document: 'don' a one-off gift (receipt per gift), 'abonnement' the start
 * of a monthly gift (no money by itself), 'mensualite' one paid month of it (yearly receipt).
 */
export type DonationNature = 'don' | 'abonnement' | 'mensualite';

/** Longest value of each text field (the forms' limits, in UTF-16 code units here); `nom` may hold Stripe's full name. */
const LEDGER_TEXT_MAX = { ...FIELD_MAX, nom: FIELD_MAX.prenom + FIELD_MAX.nom } as const;

/** A Checkout Session id (Stripe ids are at most 255 characters). */
export const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,252}$/;

/** An invoice id. */
const INVOICE_ID_PATTERN = /^in_[A-Za-z0-9_]{1,252}$/;

/** A `dons` document without `date` and `recu` (see docs/donations.md for each field). */
export interface DonationRecord {
  /** Euro cents, an integer ≥ 0 (null only if Stripe gave no total). */
  montant: number | null;
  devise: string;
  prenom: string;
  nom: string;
  email: string;
  adresse: string;
  postal: string;
  ville: string;
  pays: string;
  statut: DonationStatus;
  nature: DonationNature;
  livemode: boolean;
  evenement: LedgerEventType;
  /** The Checkout Session id (`cs_…`), '' for an invoice. */
  session: string;
  /** The subscription id (`sub_…`) of a monthly gift, else ''. */
  abonnement: string;
  /** When the money was paid (the event's time, or the invoice's paid_at). */
  datePaiement: Timestamp;
}

/** HttpError 400 for a request not provably from Stripe (no, malformed, wrong or future signature). */
function badSignature(why: string, cause?: unknown): HttpError {
  return new HttpError(400, 'Signature Stripe absente ou invalide.', { cause: new Error(why, { cause }) });
}

/** HttpError 400 MESSAGES.badRequest for a signed body the ledger cannot use (not an event, no id). */
function badPayload(why: string): HttpError {
  return new HttpError(400, MESSAGES.badRequest, { cause: new Error(why) });
}

/**
 * The webhook's signing secret (`whsec_…`): STRIPE_WEBHOOK_SECRET from astro:env unless `env` says otherwise.
 * @throws HttpError 503 (notConfigured) when it is not set.
 */
export function webhookSecretFromEnv(env: { STRIPE_WEBHOOK_SECRET?: string } = { STRIPE_WEBHOOK_SECRET }): string {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw notConfigured(
      'STRIPE_WEBHOOK_SECRET is not set. Copy the signing secret of the webhook endpoint (Stripe Dashboard › Developers › Webhooks) into Netlify’s site settings.',
    );
  }
  return secret;
}

/**
 * Checks the `Stripe-Signature` header against the RAW body and parses the event. Refused:
 * signatures older than WEBHOOK_TOLERANCE_SECONDS (Stripe's SDK) or dated further ahead (here:
 * the SDK checks only the age).
 * @param now - the current time in seconds (tests).
 * @throws HttpError 400 for a missing, wrong, stale or future signature, or a body that is no event.
 */
export async function verifyStripeEvent(
  body: Uint8Array,
  signature: string | null,
  secret: string,
  now: number = Math.floor(Date.now() / 1000),
): Promise<Stripe.Event> {
  if (!signature) throw badSignature('no Stripe-Signature header');
  const stamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? NaN);
  if (stamp > now + WEBHOOK_TOLERANCE_SECONDS) throw badSignature('Stripe-Signature dated in the future');
  let event: unknown;
  try {
    event = await Stripe.webhooks.constructEventAsync(body, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    throw badSignature('Stripe-Signature does not match the body', error);
  }
  const shape = event as Partial<Stripe.Event> | null;
  if (!shape || typeof shape !== 'object' || typeof shape.type !== 'string' || typeof shape.data !== 'object') {
    throw badPayload('signed body is not a Stripe event');
  }
  return event as Stripe.Event;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `value` cut to `max` UTF-16 code units, never in the middle of a surrogate pair. */
function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

/** `value` when it matches `pattern`, else ''. */
const shaped = (value: string, pattern: RegExp): string => (pattern.test(value) ? value : '');

const cents = (amount: unknown): number | null =>
  typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : null;

/** The donor's fields from what Stripe's page collected, else the draft's metadata. */
function donorOf(
  name: string,
  email: string,
  address: Stripe.Address | null | undefined,
  metadata: Record<string, string>,
): Pick<DonationRecord, 'prenom' | 'nom' | 'email' | 'adresse' | 'postal' | 'ville' | 'pays'> {
  const line = [text(address?.line1), text(address?.line2)].filter(Boolean).join(', ');
  return {
    prenom: clip(name ? '' : text(metadata.prenom), LEDGER_TEXT_MAX.prenom),
    nom: clip(name || text(metadata.nom), LEDGER_TEXT_MAX.nom),
    email: clip(email, LEDGER_TEXT_MAX.email),
    adresse: clip(line || text(metadata.adresse), LEDGER_TEXT_MAX.adresse),
    postal: clip(text(address?.postal_code) || text(metadata.postal), LEDGER_TEXT_MAX.postal),
    ville: clip(text(address?.city) || text(metadata.ville), LEDGER_TEXT_MAX.ville),
    pays: shaped((text(address?.country) || text(metadata.pays)).toUpperCase(), /^[A-Z]{2}$/),
  };
}

/** True when Stripe metadata carries this site's marker (SITE_MARKER). */
const isOurs = (metadata: Stripe.Metadata | null | undefined): boolean =>
  metadata?.[SITE_MARKER.key] === SITE_MARKER.value;

/**
 * The ledger's view of a Checkout Session event (pure).
 * @param paidAt - the event's `created`, in seconds.
 */
export function donationFromSession(
  type: (typeof SESSION_EVENT_TYPES)[number],
  session: Stripe.Checkout.Session,
  livemode: boolean,
  paidAt: number,
): DonationRecord {
  const details = session.customer_details;
  const statut: DonationStatus =
    type === 'checkout.session.async_payment_failed'
      ? 'failed'
      : type === 'checkout.session.async_payment_succeeded' || session.payment_status === 'paid'
        ? 'paid'
        : session.payment_status === 'no_payment_required'
          ? 'no_payment_required'
          : 'unpaid';
  const subscription = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  return {
    montant: cents(session.amount_total),
    devise: shaped(text(session.currency).toLowerCase(), /^[a-z]{3}$/),
    ...donorOf(
      text(details?.individual_name) || text(details?.name),
      text(details?.email) || text(session.customer_email),
      details?.address,
      session.metadata ?? {},
    ),
    statut,
    nature: session.mode === 'subscription' ? 'abonnement' : 'don',
    livemode,
    evenement: type,
    session: session.id,
    abonnement: text(subscription),
    datePaiement: Timestamp.fromMillis(paidAt * 1000),
  };
}

/** The ledger's view of a paid invoice of a monthly gift (pure). */
export function donationFromInvoice(invoice: Stripe.Invoice, livemode: boolean, eventTime: number): DonationRecord {
  const subscription = invoice.parent?.subscription_details?.subscription;
  const paidAt = invoice.status_transitions?.paid_at ?? eventTime;
  return {
    montant: cents(invoice.amount_paid),
    devise: shaped(text(invoice.currency).toLowerCase(), /^[a-z]{3}$/),
    ...donorOf(text(invoice.customer_name), text(invoice.customer_email), invoice.customer_address, {}),
    statut: 'paid',
    nature: 'mensualite',
    livemode,
    evenement: 'invoice.paid',
    session: '',
    abonnement: text(typeof subscription === 'string' ? subscription : subscription?.id),
    datePaiement: Timestamp.fromMillis(paidAt * 1000),
  };
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['paid', 'failed', 'no_payment_required']);

/**
 * The document to write over `current` (null: leave it): an exact replay changes nothing, a
 * late 'unpaid' never overwrites a final status, `date` and `recu` are kept once set.
 */
export function nextLedgerDocument(
  current: DocumentData | undefined,
  record: DonationRecord,
): Record<string, unknown> | null {
  if (current) {
    if (FINAL_STATUSES.has(String(current.statut)) && !FINAL_STATUSES.has(record.statut)) return null;
    const same = (key: keyof DonationRecord) =>
      key === 'datePaiement' ? record.datePaiement.isEqual(current[key] as Timestamp) : current[key] === record[key];
    if ((Object.keys(record) as (keyof DonationRecord)[]).every(same)) return null;
  }
  return {
    ...record,
    ...(current?.recu ? { recu: current.recu } : {}),
    date: current?.date ?? FieldValue.serverTimestamp(),
  };
}

/** True for a record that must carry a receipt number: a paid one-off gift. */
const needsReceipt = (record: DonationRecord): boolean => record.nature === 'don' && record.statut === 'paid';

/**
 * Records `record` in `dons/<id>` in one transaction; a paid one-off gift without a receipt
 * number gets the next one of its payment's year (`compteurs/recus-<year>`, read and
 * incremented in the same transaction: unique and gap-free under concurrent webhooks).
 * @returns 'written', or 'unchanged' for a replay or a late 'unpaid'.
 * @throws HttpError 503 (unavailable) when Firestore is unreachable, too slow (8 s) or misconfigured.
 */
export async function recordDonation(
  id: string,
  record: DonationRecord,
  db?: Firestore,
): Promise<'written' | 'unchanged'> {
  try {
    const firestore = db ?? adminFirestore();
    const reference = firestore.collection(LEDGER_COLLECTION).doc(id);
    const year = receiptYear(record.datePaiement.toDate());
    const counter = firestore.collection(COUNTER_COLLECTION).doc(`recus-${year}`);
    const work = firestore.runTransaction(
      async (transaction) => {
        // Every read before any write, as Firestore transactions require.
        const current = (await transaction.get(reference)).data();
        const next = nextLedgerDocument(current, record);
        const counted =
          next && needsReceipt(record) && !next.recu ? (await transaction.get(counter)).data() : undefined;
        if (!next) {
          // A read-only transaction commits a "verify" write the embedded emulator refuses: write it back.
          if (current) transaction.set(reference, current);
          return 'unchanged' as const;
        }
        if (needsReceipt(record) && !next.recu) {
          const last = Number(counted?.dernier ?? 0);
          transaction.set(counter, { annee: year, dernier: last + 1 });
          next.recu = receiptNumber(year, last + 1);
        }
        transaction.set(reference, next);
        return 'written' as const;
      },
      { maxAttempts: 5 },
    );
    return await withDeadline(work, LEDGER_TIMEOUT_MS);
  } catch (error) {
    throw unavailable(`could not record ${LEDGER_COLLECTION}/${id}`, error);
  }
}

/**
 * Records a verified event when it is one of LEDGER_EVENT_TYPES and comes from this site.
 * @returns 'ignored' (other types, other sites' sessions), else recordDonation's outcome.
 * @throws HttpError 400 when the event carries no session or invoice id; 503 as recordDonation.
 */
export async function recordStripeEvent(
  event: Stripe.Event,
  db?: Firestore,
): Promise<'ignored' | 'written' | 'unchanged'> {
  const created = typeof event.created === 'number' ? event.created : Math.floor(Date.now() / 1000);
  const livemode = event.livemode === true;
  if (event.type === 'invoice.paid') {
    const invoice = event.data?.object as Stripe.Invoice | undefined;
    if (typeof invoice?.id !== 'string' || !INVOICE_ID_PATTERN.test(invoice.id)) {
      throw badPayload(`${event.type} ${event.id} carries no invoice id`);
    }
    if (!isOurs(invoice.parent?.subscription_details?.metadata)) return 'ignored';
    return recordDonation(invoice.id, donationFromInvoice(invoice, livemode, created), db);
  }
  const type = event.type as string;
  if (!(SESSION_EVENT_TYPES as readonly string[]).includes(type)) return 'ignored';
  const session = event.data?.object as Stripe.Checkout.Session | undefined;
  if (typeof session?.id !== 'string' || !SESSION_ID_PATTERN.test(session.id)) {
    throw badPayload(`${event.type} ${event.id} carries no Checkout Session id`);
  }
  if (!isOurs(session.metadata)) return 'ignored';
  const record = donationFromSession(type as (typeof SESSION_EVENT_TYPES)[number], session, livemode, created);
  return recordDonation(session.id, record, db);
}

/**
 * The `dons` document of a Checkout Session, read with firebase-admin (undefined when the
 * webhook has not recorded it yet).
 * @throws HttpError 503 (unavailable) when Firestore is unreachable, too slow (8 s) or misconfigured.
 */
export async function readDonation(sessionId: string, db?: Firestore): Promise<DocumentData | undefined> {
  try {
    const firestore = db ?? adminFirestore();
    const snapshot = await withDeadline(
      firestore.collection(LEDGER_COLLECTION).doc(sessionId).get(),
      LEDGER_TIMEOUT_MS,
    );
    return snapshot.data();
  } catch (error) {
    throw unavailable(`could not read ${LEDGER_COLLECTION}/${sessionId}`, error);
  }
}
