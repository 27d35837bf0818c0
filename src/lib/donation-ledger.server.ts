/**
 * The donation ledger: Stripe's webhook (POST /api/stripe-webhook) records
 * every Checkout Session that reaches an outcome in the Firestore collection
 * `dons`, one document per session. Stripe delivers an event at least once and
 * retries it for days: the same event never makes a second document, and a
 * later event of the same session updates the document's `statut`.
 *
 * Document id (issue 5, "Security"): not the session id, which is no secret
 * (it is in the return URL `?session_id=cs_…`, the browser's history and
 * Stripe.js), but ledgerDocumentId(): 'don_' + hex HMAC-SHA-256 of the session
 * id keyed with STRIPE_WEBHOOK_SECRET. The webhook writes with the same
 * unauthenticated `firebase` web SDK as a browser could, so firestore.rules
 * cannot tell it from a stranger holding the public API key; they refuse any
 * `list` of `dons` and allow get, create and update only of ids of this shape,
 * so addressing an existing document takes the webhook secret. A stranger can
 * still create a document under a made-up id: one whose id is not
 * ledgerDocumentId(its `session`) is a forgery. Stripe's Dashboard stays the
 * authority on what was paid; a service account with firebase-admin would
 * close writes entirely.
 *
 * Fields of a `dons` document (French names, as the rest of the database),
 * each checked by firestore.rules:
 * - montant: number — amount paid, in euro CENTS (session.amount_total; 2500 = 25 €),
 *   an integer ≥ 0, or null only if Stripe gave no total;
 * - devise: string — ISO 4217 currency, lowercase ('eur'), else '';
 * - prenom, nom: string — the donor's names from the payment draft (session
 *   metadata); without them, nom = the name typed on Stripe's page
 *   (customer_details.name) and prenom = '';
 * - email: string — customer_details.email, else the prefilled customer_email;
 * - adresse, postal, ville: string — from the draft (metadata), else the billing
 *   address typed on Stripe's page (line1 + line2, postal_code, city);
 * - pays: string — ISO 3166-1 alpha-2 code ('FR'), same sources, else '';
 * - statut: 'paid' | 'unpaid' | 'failed' | 'no_payment_required' — 'paid': money
 *   received; 'unpaid': completed but a delayed payment method (e.g. SEPA
 *   debit) has not settled yet; 'failed': that delayed payment failed;
 * - livemode: boolean — false for Stripe's test mode;
 * - evenement: string — type of the last event recorded
 *   (checkout.session.completed, .async_payment_succeeded, .async_payment_failed);
 * - session: string — the Checkout Session id (`cs_…`, SESSION_ID_PATTERN);
 * - date: Timestamp — when the donation was first recorded (server time,
 *   serverTimestamp(); later events of the session keep it).
 * Missing strings are stored as ''; texts longer than LEDGER_TEXT_MAX are cut
 * (a ledger entry is never refused: the money was received). A
 * `checkout.session.completed` that arrives after the async outcome (a late
 * retry) never turns 'paid'/'failed' back into 'unpaid'.
 */
import { createHmac } from 'node:crypto';
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

/** Every `statut` of a `dons` document (see module doc); firestore.rules allows these only. */
export const DONATION_STATUSES = ['paid', 'unpaid', 'failed', 'no_payment_required'] as const;

/** `statut` of a `dons` document (see module doc). */
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/**
 * Longest value of each text field of a `dons` document, in UTF-16 code units
 * (JavaScript's `length`, which is what Firestore rules' `size()` counts):
 * the payment draft's limits (src/lib/forms.ts, paymentDraftSchema), so that a
 * draft's value is never cut; longer values typed on Stripe's page are.
 * firestore.rules enforces the same numbers (tests/unit/firestore-rules.test.ts).
 */
export const LEDGER_TEXT_MAX = { prenom: 100, nom: 100, email: 254, adresse: 200, postal: 20, ville: 100 } as const;

/** A Checkout Session id as the ledger accepts it (Stripe ids are at most 255 characters). */
export const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,252}$/;

/** The shape of ledgerDocumentId()'s result; firestore.rules allows no other `dons` id. */
export const LEDGER_ID_PATTERN = /^don_[0-9a-f]{64}$/;

/** A `dons` document without its `date` (see module doc for each field). */
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
  livemode: boolean;
  evenement: LedgerEventType;
  /** The Checkout Session id (`cs_…`). */
  session: string;
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

/** `value` cut to `max` UTF-16 code units, never in the middle of a surrogate pair. */
function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

/** `value` when it matches `pattern`, else ''. */
const shaped = (value: string, pattern: RegExp): string => (pattern.test(value) ? value : '');

/**
 * The id of a session's `dons` document (issue 5, "Security"; see module doc):
 * 'don_' followed by the lowercase hex HMAC-SHA-256 of `sessionId`, keyed with
 * the UTF-8 bytes of `secret` (the whole `whsec_…` string). Deterministic, so
 * Stripe's retries and later events of a session reach the same document;
 * unguessable without the secret, so the public API key alone reaches none.
 * Rolling the webhook secret changes every id: events of sessions recorded
 * before the roll then make a new document.
 * @param sessionId - the Checkout Session id (`cs_…`).
 * @param secret - webhookSecretFromEnv().
 * @returns 68 characters matching LEDGER_ID_PATTERN.
 */
export function ledgerDocumentId(sessionId: string, secret: string): string {
  return `don_${createHmac('sha256', secret).update(sessionId, 'utf8').digest('hex')}`;
}

/**
 * The ledger's view of a Checkout Session event (pure): the fields of the
 * module doc, texts trimmed and cut to LEDGER_TEXT_MAX, `devise` and `pays`
 * '' unless they have the shape firestore.rules expects.
 * @param type - one of LEDGER_EVENT_TYPES.
 * @param session - the event's `data.object` (its id is checked by recordStripeEvent).
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
  const amount = session.amount_total;
  return {
    montant: typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : null,
    devise: shaped(text(session.currency).toLowerCase(), /^[a-z]{3}$/),
    prenom: clip(text(metadata.prenom), LEDGER_TEXT_MAX.prenom),
    nom: clip(
      fromDraft ? text(metadata.nom) : text(details?.individual_name) || text(details?.name),
      LEDGER_TEXT_MAX.nom,
    ),
    email: clip(text(details?.email) || text(session.customer_email), LEDGER_TEXT_MAX.email),
    adresse: clip(
      text(metadata.adresse) || [text(address?.line1), text(address?.line2)].filter(Boolean).join(', '),
      LEDGER_TEXT_MAX.adresse,
    ),
    postal: clip(text(metadata.postal) || text(address?.postal_code), LEDGER_TEXT_MAX.postal),
    ville: clip(text(metadata.ville) || text(address?.city), LEDGER_TEXT_MAX.ville),
    pays: shaped((text(metadata.pays) || text(address?.country)).toUpperCase(), /^[A-Z]{2}$/),
    statut,
    livemode,
    evenement: type,
    session: session.id,
  };
}

/** Outcomes after which a session's status never changes again. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['paid', 'failed', 'no_payment_required']);

/**
 * The document to write over `current` (null: leave it): an exact replay changes
 * nothing, a late 'unpaid' never overwrites a final status, `date` keeps the
 * first recording time (firestore.rules refuses an update that breaks either).
 * @param current - the stored document, undefined when there is none.
 * @returns the record plus `date` (the stored one, else serverTimestamp()), or null.
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
 * Records a session's outcome in `dons/<ledgerDocumentId(record.session, secret)>`
 * (one Firestore transaction: read, then `transaction.set` — retries never duplicate).
 * @param record - donationFromSession()'s result.
 * @param secret - the key of the document id (default webhookSecretFromEnv()).
 * @returns 'written', or 'unchanged' for a replay or a late 'unpaid'.
 * @throws StripeNotConfiguredError when no secret is given and STRIPE_WEBHOOK_SECRET is not set;
 *   SubmissionUnavailableError when Firestore is unreachable, too slow (8 s),
 *   misconfigured or refuses the write (firestore.rules): the webhook answers 503
 *   and Stripe delivers the event again later.
 */
export async function recordDonation(
  record: DonationRecord,
  secret: string = webhookSecretFromEnv(),
): Promise<'written' | 'unchanged'> {
  return upsertDocument(LEDGER_COLLECTION, ledgerDocumentId(record.session, secret), (current) =>
    nextLedgerDocument(current, record),
  );
}

/**
 * Records a verified event when it is one of LEDGER_EVENT_TYPES.
 * @param event - verifyStripeEvent()'s result.
 * @param secret - the key of the document id (default webhookSecretFromEnv(), the
 *   secret the signature was checked with).
 * @returns 'ignored' for other types, else recordDonation's outcome.
 * @throws WebhookPayloadError when the event carries no Checkout Session id
 *   (SESSION_ID_PATTERN); StripeNotConfiguredError and SubmissionUnavailableError as recordDonation.
 */
export async function recordStripeEvent(
  event: Stripe.Event,
  secret: string = webhookSecretFromEnv(),
): Promise<'ignored' | 'written' | 'unchanged'> {
  if (!isLedgerEvent(event.type)) return 'ignored';
  const session = event.data.object as Stripe.Checkout.Session;
  if (typeof session?.id !== 'string' || !SESSION_ID_PATTERN.test(session.id)) {
    throw new WebhookPayloadError(`${event.type} ${event.id} carries no Checkout Session id`);
  }
  return recordDonation(donationFromSession(event.type, session, event.livemode === true), secret);
}
