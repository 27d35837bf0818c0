/**
 * The donation ledger: Stripe's webhook (POST /api/stripe-webhook) records
 * every Checkout Session that reaches an outcome in the Firestore collection
 * `dons`, one document per session, its id being the session id (`cs_…`).
 * Stripe delivers an event at least once and retries it for days: the same
 * event never makes a second document, and a later event of the same session
 * updates the document's `statut`.
 *
 * Fields of a `dons` document (French names, as the rest of the database):
 * - montant: number — amount paid, in euro CENTS (session.amount_total; 2500 = 25 €);
 * - devise: string — ISO 4217 currency, lowercase ('eur');
 * - prenom, nom: string — the donor's names from the payment draft (session
 *   metadata); without them, nom = the name typed on Stripe's page
 *   (customer_details.name) and prenom = '';
 * - email: string — customer_details.email, else the prefilled customer_email;
 * - adresse, postal, ville: string — from the draft (metadata), else the billing
 *   address typed on Stripe's page (line1 + line2, postal_code, city);
 * - pays: string — ISO 3166-1 alpha-2 code ('FR'), same sources;
 * - statut: 'paid' | 'unpaid' | 'failed' | 'no_payment_required' — 'paid': money
 *   received; 'unpaid': completed but a delayed payment method (e.g. SEPA
 *   debit) has not settled yet; 'failed': that delayed payment failed;
 * - livemode: boolean — false for Stripe's test mode;
 * - evenement: string — type of the last event recorded
 *   (checkout.session.completed, .async_payment_succeeded, .async_payment_failed);
 * - date: Timestamp — when the donation was first recorded (server time,
 *   serverTimestamp(); later events of the session keep it).
 * Missing strings are stored as ''. A `checkout.session.completed` that arrives
 * after the async outcome (a late retry) never turns 'paid'/'failed' back into 'unpaid'.
 */
import { serverTimestamp, type DocumentData } from 'firebase/firestore';
import Stripe from 'stripe';
import { StripeNotConfiguredError } from './stripe.server';
import { upsertDocument } from './submissions.server';

/** The Firestore collection of the ledger. */
export const LEDGER_COLLECTION = 'dons';

/** Largest webhook body read, in bytes (Stripe's Checkout events weigh a few KB); HTTP 413 above. */
export const WEBHOOK_MAX_BODY_BYTES = 65_536;

/** The events the ledger records; any other type is acknowledged (200) and ignored. */
export const LEDGER_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;

/** One of LEDGER_EVENT_TYPES. */
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** `statut` of a `dons` document (see module doc). */
export type DonationStatus = 'paid' | 'unpaid' | 'failed' | 'no_payment_required';

/** A `dons` document without its `date` (see module doc for each field). */
export interface DonationRecord {
  /** Euro cents (null only if Stripe gave no total). */
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
  livemode: boolean;
  evenement: LedgerEventType;
}

/** Raised when a webhook request is not provably from Stripe (no, malformed or wrong signature); HTTP 400. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** A verified event that the ledger cannot use (no session id); HTTP 400, logged. */
export class WebhookPayloadError extends Error {
  override name = 'WebhookPayloadError';
}

/**
 * The webhook's signing secret (Stripe Dashboard › Developers › Webhooks ›
 * the endpoint › Signing secret, `whsec_…`), read from process.env at each
 * request (see src/lib/stripe.server.ts for why not astro:env).
 * @throws StripeNotConfiguredError when STRIPE_WEBHOOK_SECRET is not set.
 */
export function webhookSecretFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw new StripeNotConfiguredError(
      'STRIPE_WEBHOOK_SECRET is not set. Copy the signing secret of the webhook endpoint (Stripe Dashboard › Developers › Webhooks) into Netlify’s site settings.',
    );
  }
  return secret;
}

/**
 * Checks the `Stripe-Signature` header against the RAW body (never a re-serialised
 * JSON: one byte of difference breaks the HMAC) and parses the event.
 * Signatures older than 5 minutes are refused (Stripe's default tolerance).
 * @param body - the request body exactly as received.
 * @param signature - the `Stripe-Signature` header (null when absent).
 * @param secret - webhookSecretFromEnv().
 * @throws WebhookSignatureError when the header is missing or does not match.
 */
export async function verifyStripeEvent(
  body: Uint8Array,
  signature: string | null,
  secret: string,
): Promise<Stripe.Event> {
  if (!signature) throw new WebhookSignatureError('no Stripe-Signature header');
  try {
    return await Stripe.webhooks.constructEventAsync(body, signature, secret);
  } catch (error) {
    throw new WebhookSignatureError('Stripe-Signature does not match the body', { cause: error });
  }
}

/** True for the event types the ledger records. */
export function isLedgerEvent(type: string): type is LedgerEventType {
  return (LEDGER_EVENT_TYPES as readonly string[]).includes(type);
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The ledger's view of a Checkout Session event (pure).
 * @param type - one of LEDGER_EVENT_TYPES.
 * @param session - the event's `data.object`.
 * @param livemode - the event's `livemode`.
 */
export function donationFromSession(
  type: LedgerEventType,
  session: Stripe.Checkout.Session,
  livemode: boolean,
): DonationRecord {
  const metadata = session.metadata ?? {};
  const details = session.customer_details;
  const address = details?.address;
  const fromDraft = Boolean(text(metadata.prenom) || text(metadata.nom));
  const statut: DonationStatus =
    type === 'checkout.session.async_payment_failed'
      ? 'failed'
      : type === 'checkout.session.async_payment_succeeded'
        ? 'paid'
        : session.payment_status === 'paid'
          ? 'paid'
          : session.payment_status === 'no_payment_required'
            ? 'no_payment_required'
            : 'unpaid';
  return {
    montant: typeof session.amount_total === 'number' ? session.amount_total : null,
    devise: text(session.currency),
    prenom: text(metadata.prenom),
    nom: fromDraft ? text(metadata.nom) : text(details?.individual_name) || text(details?.name),
    email: text(details?.email) || text(session.customer_email),
    adresse: text(metadata.adresse) || [text(address?.line1), text(address?.line2)].filter(Boolean).join(', '),
    postal: text(metadata.postal) || text(address?.postal_code),
    ville: text(metadata.ville) || text(address?.city),
    pays: (text(metadata.pays) || text(address?.country)).toUpperCase(),
    statut,
    livemode,
    evenement: type,
  };
}

/** Outcomes after which a session's status never changes again. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['paid', 'failed', 'no_payment_required']);

/**
 * The document to write over `current` (null: leave it): an exact replay changes
 * nothing, a late 'unpaid' never overwrites a final status, `date` keeps the
 * first recording time.
 */
export function nextLedgerDocument(
  current: DocumentData | undefined,
  record: DonationRecord,
): Record<string, unknown> | null {
  if (current) {
    if (FINAL_STATUSES.has(String(current.statut)) && !FINAL_STATUSES.has(record.statut)) return null;
    const unchanged = (Object.keys(record) as (keyof DonationRecord)[]).every((key) => current[key] === record[key]);
    if (unchanged) return null;
  }
  return { ...record, date: current?.date ?? serverTimestamp() };
}

/**
 * Records a session's outcome in `dons/<sessionId>` (one Firestore transaction:
 * read, then `transaction.set` — retries never duplicate).
 * @returns 'written', or 'unchanged' for a replay or a late 'unpaid'.
 * @throws SubmissionUnavailableError when Firestore is unreachable, too slow (8 s)
 *   or misconfigured: the webhook answers 503 and Stripe delivers the event again later.
 */
export async function recordDonation(sessionId: string, record: DonationRecord): Promise<'written' | 'unchanged'> {
  return upsertDocument(LEDGER_COLLECTION, sessionId, (current) => nextLedgerDocument(current, record));
}

/**
 * Records a verified event when it is one of LEDGER_EVENT_TYPES.
 * @returns 'ignored' for other types, else recordDonation's outcome.
 * @throws WebhookPayloadError when the event carries no Checkout Session id;
 *   SubmissionUnavailableError as recordDonation.
 */
export async function recordStripeEvent(event: Stripe.Event): Promise<'ignored' | 'written' | 'unchanged'> {
  if (!isLedgerEvent(event.type)) return 'ignored';
  const session = event.data.object as Stripe.Checkout.Session;
  if (typeof session?.id !== 'string' || !/^cs_\w+$/.test(session.id)) {
    throw new WebhookPayloadError(`${event.type} ${event.id} carries no Checkout Session id`);
  }
  return recordDonation(session.id, donationFromSession(event.type, session, event.livemode === true));
}
