/**
 * The donation endpoints end to end: GET /api/don and POST
 * /create-checkout-session against a local fake of Stripe's API
 * (tests/fixtures/fake-stripe.ts, named by STRIPE_API_BASE), and POST
 * /api/stripe-webhook with events signed like Stripe signs them, writing to
 * the embedded Firestore emulator (read back with a fresh connection per read,
 * as in endpoints.test.ts).
 */
import { createHmac } from 'node:crypto';
import { collection, doc, getDocFromServer, getDocsFromServer, Timestamp, type DocumentData } from 'firebase/firestore';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { MESSAGES } from '../../src/lib/forms';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server';
import { PAYMENT_MESSAGES, stripeFromEnv } from '../../src/lib/stripe.server';
import { closeSubmissionConnection } from '../../src/lib/submissions.server';
import * as don from '../../src/pages/api/don';
import * as webhook from '../../src/pages/api/stripe-webhook';
import * as embedded from '../../src/pages/create-checkout-session';
import { FAKE_CHECKOUT_PAGE, startFakeStripe, type FakeStripe, type RecordedRequest } from '../fixtures/fake-stripe';
import { closedPort } from '../fixtures/ports.ts';

// Plainly fake values, assembled so that nothing secret-looking sits in the repository.
const FAKE_SECRET_KEY = ['sk', 'test', 'fakeKeyForPipelineTests'].join('_');
const FAKE_WEBHOOK_SECRET = ['whsec', 'fakeSecretForPipelineTests'].join('_');

const ENV_KEYS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'FIREBASE_PROJECT_ID',
  'FIREBASE_API_KEY',
  'FIRESTORE_EMULATOR_HOST',
] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

/** Spec §9 in cents, written out independently of src/lib/donations.ts. */
const EXPECTED_CENTS = [1000, 2500, 5000, 10000, 25000, 50000, 100000, 200000, 500000, 1000000];

const ORIGIN = 'https://dons.exemple.org';
const SUCCESS_URL = `${ORIGIN}/soutenir/valide?session_id={CHECKOUT_SESSION_ID}`;
const CANCEL_URL = `${ORIGIN}/soutenir/annule`;
const PRODUCT = 'Don à Les Petits Pas Ensemble';

const draft = {
  moyen: 'integre',
  somme: 1,
  prenom: 'Marie',
  nom: 'Curie',
  email: 'marie.curie@exemple.fr',
  adresse: '11 rue Pierre et Marie Curie',
  postal: '75005',
  ville: 'Paris',
  pays: 'FR',
};

let fake: FakeStripe;
let emulator: EmbeddedFirestore;

function configure(): void {
  process.env.STRIPE_SECRET_KEY = FAKE_SECRET_KEY;
  process.env.STRIPE_WEBHOOK_SECRET = FAKE_WEBHOOK_SECRET;
  process.env.STRIPE_API_BASE = fake.url;
  process.env.FIREBASE_PROJECT_ID = 'demo-stripe';
  process.env.FIRESTORE_EMULATOR_HOST = emulator.address;
  delete process.env.FIREBASE_API_KEY;
}

beforeAll(async () => {
  [fake, emulator] = await Promise.all([startFakeStripe(), startEmbeddedFirestore()]);
  configure();
});

beforeEach(() => fake.reset());

afterEach(() => {
  vi.restoreAllMocks();
  configure();
});

afterAll(async () => {
  await closeSubmissionConnection();
  await fake?.stop();
  emulator?.stop();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

/** Calls GET /api/don with a raw query string. */
async function getDon(query: string): Promise<{ response: Response; body: Record<string, unknown> }> {
  const response = await don.GET({ request: new Request(`${ORIGIN}/api/don${query ? `?${query}` : ''}`) });
  return { response, body: await response.json() };
}

/** Calls POST /create-checkout-session with a JSON body (or raw text). */
async function postEmbedded(
  payload: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ response: Response; body: Record<string, unknown> }> {
  const request = new Request(`${ORIGIN}/create-checkout-session`, {
    method: 'POST',
    headers,
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  const response = await embedded.POST({ request });
  return { response, body: await response.json() };
}

function expectJsonNoStore(response: Response): void {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
}

/** The single request the fake received, which must be a session creation. */
function onlySessionRequest(): RecordedRequest {
  const requests = fake.requests();
  expect(requests).toHaveLength(1);
  const [request] = requests as [RecordedRequest];
  expect(request.method).toBe('POST');
  expect(request.path).toBe('/v1/checkout/sessions');
  expect(request.headers.authorization).toBe(`Bearer ${FAKE_SECRET_KEY}`);
  expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
  return request;
}

/** The line item every donation sends (form values are strings). */
function lineItems(cents: number) {
  return [
    {
      price_data: { currency: 'eur', unit_amount: String(cents), product_data: { name: PRODUCT } },
      quantity: '1',
    },
  ];
}

describe('GET /api/don (Stripe’s hosted page)', () => {
  it.each(EXPECTED_CENTS.map((cents, index) => [index, cents]))(
    'id=%i creates a hosted session of %i cents with the donor’s email and answers {url}',
    async (index, cents) => {
      const { response, body } = await getDon(`id=${index}&email=marie.curie%40exemple.fr&prenom=Marie&nom=Curie`);
      expect(response.status).toBe(200);
      expectJsonNoStore(response);
      const request = onlySessionRequest();
      expect(request.body).toEqual({
        mode: 'payment',
        ui_mode: 'hosted_page',
        submit_type: 'donate',
        locale: 'fr',
        line_items: lineItems(cents),
        customer_email: 'marie.curie@exemple.fr',
        metadata: { prenom: 'Marie', nom: 'Curie' },
        success_url: SUCCESS_URL,
        cancel_url: CANCEL_URL,
      });
      const [session] = [...fake.sessions().values()];
      expect(body).toEqual({ url: session?.url });
      expect(body.url).toMatch(new RegExp(`^${FAKE_CHECKOUT_PAGE.replaceAll('.', '\\.')}cs_test_\\w+$`));
    },
  );

  it('works without donor details (Stripe asks for the email) and ignores empty ones', async () => {
    const { response } = await getDon('id=2&email=&prenom=');
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toEqual({
      mode: 'payment',
      ui_mode: 'hosted_page',
      submit_type: 'donate',
      locale: 'fr',
      line_items: lineItems(5000),
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
    });
  });

  it.each([
    ['a missing id', ''],
    ['an empty id', 'id='],
    ['id=abc', 'id=abc'],
    ['id=1.5', 'id=1.5'],
    ['id=-1', 'id=-1'],
    ['id=10', 'id=10'],
    ['id=1e1', 'id=1e1'],
    ['id=0x1', 'id=0x1'],
  ])('refuses %s with 400 and the French message; nothing reaches Stripe', async (_label, query) => {
    const { response, body } = await getDon(query);
    expect(response.status).toBe(400);
    expectJsonNoStore(response);
    expect(body).toEqual({
      ok: false,
      message: PAYMENT_MESSAGES.amountInvalid,
      fields: { id: PAYMENT_MESSAGES.amountInvalid },
    });
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['a price', 'id=1&amount=1'],
    ['a unit_amount', 'id=1&unit_amount=100'],
    ['a currency', 'id=1&currency=usd'],
  ])('refuses %s sent by the client with 400; nothing reaches Stripe', async (_label, query) => {
    const { response, body } = await getDon(query);
    expect(response.status).toBe(400);
    expect(body).toEqual({ ok: false, message: MESSAGES.unknownField, fields: { _form: MESSAGES.unknownField } });
    expect(fake.requests()).toHaveLength(0);
  });

  it('refuses a repeated parameter and a bad email with 400; nothing reaches Stripe', async () => {
    expect((await getDon('id=1&id=9')).response.status).toBe(400);
    const { response, body } = await getDon('id=1&email=pas-un-email');
    expect(response.status).toBe(400);
    expect(body).toEqual({
      ok: false,
      message: MESSAGES.emailFieldInvalid,
      fields: { email: MESSAGES.emailFieldInvalid },
    });
    expect(fake.requests()).toHaveLength(0);
  });
});

describe('POST /create-checkout-session (Stripe’s form embedded in /soutenir)', () => {
  it.each(EXPECTED_CENTS.map((cents, index) => [index, cents]))(
    'somme=%i creates an embedded session of %i cents with the donor in metadata and answers {clientSecret}',
    async (index, cents) => {
      const { response, body } = await postEmbedded({ ...draft, somme: index });
      expect(response.status).toBe(200);
      expectJsonNoStore(response);
      const request = onlySessionRequest();
      expect(request.body).toEqual({
        mode: 'payment',
        ui_mode: 'embedded_page',
        submit_type: 'donate',
        locale: 'fr',
        line_items: lineItems(cents),
        customer_email: draft.email,
        metadata: {
          prenom: draft.prenom,
          nom: draft.nom,
          adresse: draft.adresse,
          postal: draft.postal,
          ville: draft.ville,
          pays: draft.pays,
        },
        return_url: SUCCESS_URL,
      });
      const [session] = [...fake.sessions().values()];
      expect(body).toEqual({ clientSecret: session?.client_secret });
      expect(body.clientSecret).toMatch(/^cs_test_\w+_secret_\w+$/);
    },
  );

  it('accepts the index as a string, trims the fields and upper-cases the country', async () => {
    const { response } = await postEmbedded({ ...draft, somme: '3', prenom: '  Marie ', pays: 'be' });
    expect(response.status).toBe(200);
    const { body } = onlySessionRequest();
    expect(body.line_items).toEqual(lineItems(10000));
    expect(body.metadata).toMatchObject({ prenom: 'Marie', pays: 'BE' });
  });

  it.each([
    ['a missing somme', { somme: undefined }],
    ['somme "abc"', { somme: 'abc' }],
    ['somme 1.5', { somme: 1.5 }],
    ['somme "1.5"', { somme: '1.5' }],
    ['somme -1', { somme: -1 }],
    ['somme 10', { somme: 10 }],
    ['somme ""', { somme: '' }],
    ['somme null', { somme: null }],
    ['somme true', { somme: true }],
  ])('refuses %s with 400 and the French message; nothing reaches Stripe', async (_label, change) => {
    const { response, body } = await postEmbedded({ ...draft, ...change });
    expect(response.status).toBe(400);
    expectJsonNoStore(response);
    expect(body).toMatchObject({ ok: false, fields: { somme: PAYMENT_MESSAGES.amountInvalid } });
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['a price', { montant: 1 }],
    ['a unit_amount', { unit_amount: 100 }],
    ['an amount in euros', { euros: 5 }],
  ])('refuses %s sent by the client with 400; nothing reaches Stripe', async (_label, extra) => {
    const { response, body } = await postEmbedded({ ...draft, ...extra });
    expect(response.status).toBe(400);
    expect(body).toEqual({ ok: false, message: MESSAGES.unknownField, fields: { _form: MESSAGES.unknownField } });
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['a missing first name', { prenom: undefined }, 'prenom', 'Merci d’indiquer votre prénom'],
    ['a name that is a number', { nom: 42 }, 'nom', 'Merci d’indiquer votre nom'],
    ['a bad email', { email: 'x' }, 'email', MESSAGES.emailFieldInvalid],
    [
      'a missing address',
      { adresse: undefined },
      'adresse',
      'Merci d’indiquer votre adresse (elle figure sur le reçu fiscal)',
    ],
    ['an unknown country', { pays: 'XX' }, 'pays', MESSAGES.countryUnknown],
    ['an unknown way to pay', { moyen: 'cheque' }, 'moyen', 'Merci de choisir comment payer'],
  ])('refuses %s with 400 and a French field message', async (_label, change, field, message) => {
    const { response, body } = await postEmbedded({ ...draft, ...change });
    expect(response.status).toBe(400);
    expect(body).toEqual({ ok: false, message, fields: { [field]: message } });
    expect(fake.requests()).toHaveLength(0);
  });

  it('refuses unreadable JSON (400), another content type (415) and a body over 16 KB (413)', async () => {
    expect((await postEmbedded('{"somme": 1,')).response.status).toBe(400);
    expect((await postEmbedded('[1]')).response.status).toBe(400);
    expect((await postEmbedded(JSON.stringify(draft), { 'content-type': 'text/plain' })).response.status).toBe(415);
    const big = await postEmbedded({ ...draft, adresse: 'x'.repeat(20_000) });
    expect(big.response.status).toBe(413);
    expect(big.body).toEqual({ ok: false, message: MESSAGES.tooLarge });
    expect(fake.requests()).toHaveLength(0);
  });
});

describe('when Stripe fails', () => {
  it.each([
    ['an API error (500)', { kind: 'error', status: 500 }],
    [
      'an invalid request (400)',
      { kind: 'error', status: 400, type: 'invalid_request_error', code: 'parameter_invalid' },
    ],
    ['a refused key (401)', { kind: 'error', status: 401, type: 'invalid_request_error' }],
    ['a rate limit (429)', { kind: 'error', status: 429, type: 'invalid_request_error', code: 'rate_limit' }],
    ['a non-JSON 502', { kind: 'garbage', status: 502 }],
  ] as const)(
    'answers 502 with the French message on %s, logging the details server-side',
    async (_label, behaviour) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      fake.behave(behaviour);
      for (const { response, body } of [await getDon('id=1&email=paul%40exemple.fr'), await postEmbedded(draft)]) {
        expect(response.status).toBe(502);
        expectJsonNoStore(response);
        expect(body).toEqual({ ok: false, message: PAYMENT_MESSAGES.providerUnavailable });
      }
      // One attempt each (no automatic retry), and the details are in the server log only.
      expect(fake.requests()).toHaveLength(2);
      expect(logged).toHaveBeenCalledTimes(2);
      const log = logged.mock.calls.flat().join(' ');
      expect(log).toMatch(/Stripe/);
      expect(log).not.toContain(FAKE_SECRET_KEY);
      expect(log).not.toContain(draft.email);
    },
  );

  it('answers 502 within 10 s when Stripe accepts the request and never answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.behave({ kind: 'hang' });
    const started = Date.now();
    const [link, form] = await Promise.all([getDon('id=4'), postEmbedded(draft)]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(10_000);
    for (const { response, body } of [link, form]) {
      expect(response.status).toBe(502);
      expect(body).toEqual({ ok: false, message: PAYMENT_MESSAGES.providerUnavailable });
    }
    expect(fake.requests()).toHaveLength(2);
  }, 20_000);

  it('answers 502 when Stripe cannot be reached at all', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    process.env.STRIPE_API_BASE = `http://127.0.0.1:${await closedPort()}`;
    const { response, body } = await getDon('id=1');
    expect(response.status).toBe(502);
    expect(body).toEqual({ ok: false, message: PAYMENT_MESSAGES.providerUnavailable });
  });
});

describe('without Stripe keys (the embedded default)', () => {
  it('answers 503 "not configured" on both endpoints and calls nobody', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    delete process.env.STRIPE_SECRET_KEY;
    for (const { response, body } of [await getDon('id=1'), await postEmbedded(draft)]) {
      expect(response.status).toBe(503);
      expectJsonNoStore(response);
      expect(body).toEqual({ ok: false, message: 'Le paiement en ligne n’est pas configuré sur ce site.' });
    }
    expect(fake.requests()).toHaveLength(0);
  });

  it('uses api.stripe.com over https, 8 s timeout and no retry when STRIPE_API_BASE is unset', () => {
    const stripe = stripeFromEnv({ STRIPE_SECRET_KEY: FAKE_SECRET_KEY });
    expect(stripe.getApiField('host')).toBe('api.stripe.com');
    expect(stripe.getApiField('protocol')).toBe('https');
    expect(stripe.getApiField('timeout')).toBe(8000);
    expect(stripe.getApiField('maxNetworkRetries')).toBe(0);
  });
});

describe('methods and routing', () => {
  it.each([
    ['POST /api/don', () => don.ALL, 'GET'],
    ['HEAD /api/don', () => don.ALL, 'GET'],
    ['GET /create-checkout-session', () => embedded.ALL, 'POST'],
    ['GET /api/stripe-webhook', () => webhook.ALL, 'POST'],
  ] as const)('answers %s with 405 and the right Allow header', async (label, handler, allow) => {
    const [method] = label.split(' ') as [string];
    const response = await handler()({ request: new Request(`${ORIGIN}/x`, { method }) });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the three routes on demand (not prerendered)', () => {
    expect(don.prerender).toBe(false);
    expect(embedded.prerender).toBe(false);
    expect(webhook.prerender).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// Webhook → Firestore `dons`

const WEBHOOK_URL = `${ORIGIN}/api/stripe-webhook`;
let sequence = 0;

/** A Checkout Session as Stripe sends it in checkout.session.* events (the fields the ledger reads, and more). */
function completedSession(overrides: Partial<Record<string, unknown>> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    id: `cs_test_pipeline${sequence}${Date.now()}`,
    object: 'checkout.session',
    amount_subtotal: 5000,
    amount_total: 5000,
    currency: 'eur',
    customer_email: draft.email,
    customer_details: {
      email: draft.email,
      name: 'M CURIE',
      individual_name: null,
      business_name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
      address: { line1: '1 autre rue', line2: null, postal_code: '69001', city: 'Lyon', country: 'FR', state: null },
    },
    livemode: false,
    metadata: {
      prenom: draft.prenom,
      nom: draft.nom,
      adresse: draft.adresse,
      postal: draft.postal,
      ville: draft.ville,
      pays: draft.pays,
    },
    mode: 'payment',
    payment_status: 'paid',
    status: 'complete',
    ui_mode: 'embedded_page',
    ...overrides,
  };
}

function eventOf(type: string, object: Record<string, unknown>): Record<string, unknown> {
  sequence += 1;
  return {
    id: `evt_test_pipeline${sequence}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** A webhook request as Stripe sends it: the raw JSON and its Stripe-Signature header. */
function signedRequest(
  event: Record<string, unknown>,
  {
    secret = FAKE_WEBHOOK_SECRET,
    timestamp,
    signature,
  }: { secret?: string; timestamp?: number; signature?: string | null } = {},
): Request {
  const payload = JSON.stringify(event, null, 2);
  const header =
    signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) : signature;
  return new Request(WEBHOOK_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    body: payload,
  });
}

async function deliver(request: Request): Promise<{ response: Response; body: Record<string, unknown> }> {
  const response = await webhook.POST({ request });
  return { response, body: await response.json() };
}

/** Every document of `dons`, read with a fresh connection: id → data. */
async function readDons(): Promise<Map<string, DocumentData>> {
  const connection = connectFirestore(firestoreTargetFromEnv());
  try {
    const snapshot = await getDocsFromServer(collection(connection.db, 'dons'));
    return new Map(snapshot.docs.map((document) => [document.id, document.data()]));
  } finally {
    await connection.close();
  }
}

/**
 * The ledger id of a session, computed here independently of the ledger's code
 * (issue 5): 'don_' + hex HMAC-SHA-256 of the session id keyed with the webhook secret.
 */
function ledgerIdOf(sessionId: string, secret = FAKE_WEBHOOK_SECRET): string {
  return `don_${createHmac('sha256', secret).update(sessionId).digest('hex')}`;
}

/** The `dons` document of a session (under its ledger id), read with a fresh connection. */
async function readDon(sessionId: string): Promise<DocumentData | undefined> {
  const connection = connectFirestore(firestoreTargetFromEnv());
  try {
    return (await getDocFromServer(doc(connection.db, 'dons', ledgerIdOf(sessionId)))).data();
  } finally {
    await connection.close();
  }
}

function expectTimestampNearNow(value: unknown): void {
  expect(value).toBeInstanceOf(Timestamp);
  expect(Math.abs((value as Timestamp).toMillis() - Date.now())).toBeLessThan(60_000);
}

describe('POST /api/stripe-webhook → Firestore `dons`', () => {
  it('records a completed session once, under its ledger id, with the exact fields; a replay adds nothing', async () => {
    const session = completedSession();
    const event = eventOf('checkout.session.completed', session);
    const before = await readDons();

    const { response, body } = await deliver(signedRequest(event));
    expect(response.status).toBe(200);
    expectJsonNoStore(response);
    expect(body).toEqual({ ok: true, message: 'written' });

    const after = await readDons();
    expect(after.size).toBe(before.size + 1);
    // The document's id is the HMAC of the session id (never the session id, which is no secret).
    const id = ledgerIdOf(session.id as string);
    expect(id).toMatch(/^don_[0-9a-f]{64}$/);
    expect([...after.keys()].filter((key) => !before.has(key))).toEqual([id]);
    const { date, ...fields } = after.get(id) ?? {};
    expect(fields).toEqual({
      montant: 5000,
      devise: 'eur',
      prenom: 'Marie',
      nom: 'Curie',
      email: 'marie.curie@exemple.fr',
      adresse: '11 rue Pierre et Marie Curie',
      postal: '75005',
      ville: 'Paris',
      pays: 'FR',
      statut: 'paid',
      livemode: false,
      evenement: 'checkout.session.completed',
      session: session.id,
    });
    expectTimestampNearNow(date);

    // Stripe delivers the same event again (a retry): still one document, untouched.
    const replay = await deliver(signedRequest(event));
    expect(replay.response.status).toBe(200);
    expect(replay.body).toEqual({ ok: true, message: 'unchanged' });
    const again = await readDons();
    expect(again.size).toBe(after.size);
    expect(again.get(id)).toEqual(after.get(id));
  });

  it('updates the same document when a delayed payment fails, and a late "completed" does not undo it', async () => {
    const session = completedSession({ payment_status: 'unpaid', amount_total: 25000 });
    expect((await deliver(signedRequest(eventOf('checkout.session.completed', session)))).response.status).toBe(200);
    const pending = await readDon(session.id as string);
    expect(pending).toMatchObject({ statut: 'unpaid', montant: 25000, evenement: 'checkout.session.completed' });
    const count = (await readDons()).size;

    const failed = await deliver(signedRequest(eventOf('checkout.session.async_payment_failed', session)));
    expect(failed.response.status).toBe(200);
    const after = await readDon(session.id as string);
    expect(after).toMatchObject({
      statut: 'failed',
      montant: 25000,
      evenement: 'checkout.session.async_payment_failed',
    });
    expect((after?.date as Timestamp).isEqual(pending?.date as Timestamp)).toBe(true);
    expect((await readDons()).size).toBe(count);

    // A retried "completed" (unpaid) arriving after the outcome leaves it as it is.
    const late = await deliver(signedRequest(eventOf('checkout.session.completed', session)));
    expect(late.response.status).toBe(200);
    expect(await readDon(session.id as string)).toEqual(after);
  });

  it('marks a delayed payment paid on async_payment_succeeded', async () => {
    const session = completedSession({ payment_status: 'unpaid' });
    await deliver(signedRequest(eventOf('checkout.session.completed', session)));
    await deliver(
      signedRequest(eventOf('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' })),
    );
    expect(await readDon(session.id as string)).toMatchObject({
      statut: 'paid',
      evenement: 'checkout.session.async_payment_succeeded',
    });
  });

  it('takes the name and address typed on Stripe’s page when the session has no metadata (hosted link)', async () => {
    const session = completedSession({ metadata: {}, customer_email: null });
    await deliver(signedRequest(eventOf('checkout.session.completed', session)));
    const { date: _date, ...fields } = (await readDon(session.id as string)) ?? {};
    expect(fields).toEqual({
      montant: 5000,
      devise: 'eur',
      prenom: '',
      nom: 'M CURIE',
      email: 'marie.curie@exemple.fr',
      adresse: '1 autre rue',
      postal: '69001',
      ville: 'Lyon',
      pays: 'FR',
      statut: 'paid',
      livemode: false,
      evenement: 'checkout.session.completed',
      session: session.id,
    });
  });

  it('cuts texts typed on Stripe’s page to the ledger’s limits and blanks malformed codes (the rules would refuse them)', async () => {
    const session = completedSession({
      metadata: {},
      currency: 'EURO',
      customer_details: {
        email: `${'x'.repeat(300)}@exemple.fr`,
        name: `  ${'N'.repeat(99)}😀 suite`,
        address: {
          line1: 'a'.repeat(150),
          line2: 'b'.repeat(150),
          postal_code: '9'.repeat(30),
          city: 'V'.repeat(120),
          country: 'france',
        },
      },
    });
    expect((await deliver(signedRequest(eventOf('checkout.session.completed', session)))).response.status).toBe(200);
    expect(await readDon(session.id as string)).toMatchObject({
      devise: '',
      // 99 characters + an emoji would be 101 UTF-16 units: the emoji is dropped whole.
      nom: 'N'.repeat(99),
      email: 'x'.repeat(254),
      adresse: `${'a'.repeat(150)}, ${'b'.repeat(48)}`,
      postal: '9'.repeat(20),
      ville: 'V'.repeat(100),
      pays: '',
    });
  });

  it('keys the document id with the webhook secret: another secret, another document', async () => {
    const session = completedSession();
    const otherSecret = ['whsec', 'rolledSecretForPipelineTests'].join('_');
    process.env.STRIPE_WEBHOOK_SECRET = otherSecret;
    const event = eventOf('checkout.session.completed', session);
    expect((await deliver(signedRequest(event, { secret: otherSecret }))).response.status).toBe(200);
    configure();
    const dons = await readDons();
    expect(dons.get(ledgerIdOf(session.id as string, otherSecret))).toMatchObject({ session: session.id });
    expect(dons.has(ledgerIdOf(session.id as string))).toBe(false);
    expect(dons.has(session.id as string)).toBe(false);
  });

  it.each([
    ['no signature', { signature: null }],
    ['a signature made with another secret', { secret: ['whsec', 'someoneElse'].join('_') }],
    ['a malformed signature', { signature: 't=1,v1=abc' }],
    ['a signature older than 5 minutes', { timestamp: Math.floor(Date.now() / 1000) - 600 }],
  ])('refuses %s with 400 and writes nothing', async (_label, options) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const session = completedSession();
    const before = (await readDons()).size;
    const { response, body } = await deliver(signedRequest(eventOf('checkout.session.completed', session), options));
    expect(response.status).toBe(400);
    expectJsonNoStore(response);
    expect(body).toMatchObject({ ok: false });
    expect((await readDons()).size).toBe(before);
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('refuses a body changed after signing (the signature covers the raw bytes)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const session = completedSession();
    const event = eventOf('checkout.session.completed', session);
    const payload = JSON.stringify(event, null, 2);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: FAKE_WEBHOOK_SECRET });
    const tampered = payload.replace('"amount_total": 5000', '"amount_total": 5');
    expect(tampered).not.toBe(payload);
    const request = new Request(WEBHOOK_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: tampered,
    });
    expect((await deliver(request)).response.status).toBe(400);
    // Re-serialised JSON (same data, other bytes) is refused too.
    const reserialised = new Request(WEBHOOK_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: JSON.stringify(event),
    });
    expect((await deliver(reserialised)).response.status).toBe(400);
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('acknowledges other event types with 200 and writes nothing', async () => {
    const before = (await readDons()).size;
    for (const type of ['checkout.session.expired', 'payment_intent.succeeded', 'charge.refunded']) {
      const { response, body } = await deliver(signedRequest(eventOf(type, completedSession())));
      expect(response.status).toBe(200);
      expect(body).toEqual({ ok: true, message: 'ignored' });
    }
    expect((await readDons()).size).toBe(before);
  });

  it('refuses a body over 64 KB with 413 and writes nothing', async () => {
    const session = completedSession({ padding: 'x'.repeat(70_000) });
    const { response } = await deliver(signedRequest(eventOf('checkout.session.completed', session)));
    expect(response.status).toBe(413);
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('answers 503 without STRIPE_WEBHOOK_SECRET (Stripe retries later) and writes nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const session = completedSession();
    const request = signedRequest(eventOf('checkout.session.completed', session));
    delete process.env.STRIPE_WEBHOOK_SECRET;
    const { response, body } = await deliver(request);
    expect(response.status).toBe(503);
    expect(body).toEqual({ ok: false, message: PAYMENT_MESSAGES.notConfigured });
    configure();
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('answers 503 with Retry-After within 10 s when Firestore is unreachable, then records the retry', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const session = completedSession();
    const event = eventOf('checkout.session.completed', session);
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    const { response, body } = await deliver(signedRequest(event));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(body).toEqual({ ok: false, message: MESSAGES.unavailable });
    expect(logged).toHaveBeenCalled();

    configure();
    expect((await deliver(signedRequest(event))).response.status).toBe(200);
    expect(await readDon(session.id as string)).toMatchObject({ statut: 'paid' });
  });
});
