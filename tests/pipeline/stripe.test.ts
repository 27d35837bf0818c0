/**
 * The donation endpoints end to end: POST /api/don and POST /create-checkout-session against a
 * local fake of Stripe's API (tests/fixtures/fake-stripe.ts, at STRIPE_API_BASE), POST
 * /api/stripe-webhook with events signed like Stripe signs them, writing with firebase-admin to
 * the embedded Firestore emulator (behind the tests' gateway), and GET /api/recu reading the receipt back (unpdf).
 */
import { STRIPE_API_BASE, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { MESSAGES } from '../../src/features/forms/forms';
import { HTTP_MESSAGES } from '../../src/lib/http';
import { receiptHandler, webhookSecretFromEnv } from '../../src/features/donations/ledger/donation-ledger.server';
import { stripeFromEnv } from '../../src/features/donations/checkout/stripe.server';
import * as don from '../../src/pages/api/don';
import * as webhook from '../../src/pages/api/stripe-webhook';
import * as embedded from '../../src/pages/create-checkout-session';
import {
  FAKE_CHECKOUT_PAGE,
  paidInvoice,
  paidSession,
  startFakeStripe,
  stripeEvent,
  type FakeStripe,
  type RecordedRequest,
} from '../fixtures/fake-stripe';
import { startFirestoreGateway, type FirestoreGateway } from '../fixtures/firestore-gateway';
import { withShortDeadlines } from '../fixtures/deadlines';
import { siteAddress } from '../../scripts/lib/site-address';

// tests/fixtures/site-env.ts sets them.
const [FAKE_SECRET_KEY, FAKE_WEBHOOK_SECRET] = [STRIPE_SECRET_KEY as string, STRIPE_WEBHOOK_SECRET as string];
const PROVIDER_UNAVAILABLE =
  'Le service de paiement ne répond pas pour le moment. Aucun montant n’a été débité : merci de réessayer dans ' +
  'quelques minutes.';
const FAKE_STRIPE_PORT = Number(new URL(STRIPE_API_BASE as string).port);

/** Spec §9 in cents, written out independently of src/features/donations/donations.ts. */
const EXPECTED_CENTS = [1000, 2500, 5000, 10000, 25000, 50000, 100000, 200000, 500000, 1000000];

const ORIGIN = 'https://dons.exemple.org';
/** The configured site (astro.config's `site`), where Stripe sends the donor back whatever the request's Host. */
const SITE = new URL(siteAddress()).origin;
const SUCCESS_URL = `${SITE}/soutenir/valide?session_id={CHECKOUT_SESSION_ID}`;
const CANCEL_URL = `${SITE}/soutenir/annule`;
const PRODUCT = 'Don aux Petits Pas Ensemble';
const MONTHLY_PRODUCT = 'Don mensuel aux Petits Pas Ensemble';

vi.mock('../../src/association', () => import('../fixtures/test-association'));
/** The marker of this site's sessions, written out independently of stripe.server.ts. */
const MARKER = { origine: 'site-association' };

let fake: FakeStripe;
let emulator: EmbeddedFirestore;
let gateway: FirestoreGateway;

beforeAll(async () => {
  [fake, emulator] = await Promise.all([startFakeStripe({ port: FAKE_STRIPE_PORT }), startEmbeddedFirestore()]);
  gateway = await startFirestoreGateway(emulator.port);
});

beforeEach(() => fake.reset());

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  await fake?.stop();
  await gateway?.stop();
  emulator?.stop();
});

type Handler = (context: { request: Request }) => Promise<Response>;

/** POSTs a JSON body (or raw text) to a session route, from this site's page unless `origin` says otherwise. */
async function post(
  handler: Handler,
  path: string,
  payload: unknown,
  { origin = ORIGIN, contentType = 'application/json' }: { origin?: string | null; contentType?: string } = {},
): Promise<{ response: Response; body: Record<string, unknown> }> {
  const request = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(origin === null ? {} : { origin }) },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  const response = await handler({ request });
  return { response, body: await response.json() };
}

const postDon = (payload: unknown, options?: Parameters<typeof post>[3]) =>
  post(don.POST, '/api/don', payload, options);
const postEmbedded = (payload: unknown, options?: Parameters<typeof post>[3]) =>
  post(embedded.POST, '/create-checkout-session', payload, options);

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
  return request;
}

/** The line item every one-off donation sends (form values are strings). */
function lineItems(cents: number) {
  return [
    { price_data: { currency: 'eur', unit_amount: String(cents), product_data: { name: PRODUCT } }, quantity: '1' },
  ];
}

/** A draft's amount (25 €), for tests that change it. */
const ONE_OFF: Record<string, unknown> = { somme: 1 };

/** What Stripe's page must collect for the receipt, on every session. */
const COLLECTED = {
  billing_address_collection: 'required',
  name_collection: { individual: { enabled: 'true', optional: 'false' } },
};

describe('POST /api/don (Stripe’s hosted page, one click from the amount)', () => {
  it.each(EXPECTED_CENTS.map((cents, index) => [index, cents]))(
    'somme=%i creates a hosted one-off session of %i cents and answers {url}',
    async (index, cents) => {
      const { response, body } = await postDon({ moyen: 'lien', somme: index });
      expect(response.status).toBe(200);
      expectJsonNoStore(response);
      expect(onlySessionRequest().body).toEqual({
        mode: 'payment',
        ui_mode: 'hosted_page',
        submit_type: 'donate',
        locale: 'fr',
        line_items: lineItems(cents),
        ...COLLECTED,
        metadata: MARKER,
        payment_intent_data: { metadata: MARKER },
        success_url: SUCCESS_URL,
        cancel_url: CANCEL_URL,
      });
      const [session] = [...fake.sessions().values()];
      expect(body).toEqual({ url: session?.url });
      expect(body.url).toMatch(new RegExp(`^${FAKE_CHECKOUT_PAGE.replaceAll('.', '\\.')}cs_test_\\w+$`));
    },
  );

  it('a monthly gift: subscription mode, a monthly price, the marker on the subscription too', async () => {
    const { response } = await postDon({ moyen: 'lien', somme: 1, frequence: 'mensuel' });
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toEqual({
      mode: 'subscription',
      ui_mode: 'hosted_page',
      locale: 'fr',
      line_items: [
        {
          price_data: {
            currency: 'eur',
            unit_amount: '2500',
            product_data: { name: MONTHLY_PRODUCT },
            recurring: { interval: 'month' },
          },
          quantity: '1',
        },
      ],
      ...COLLECTED,
      metadata: MARKER,
      subscription_data: { metadata: MARKER },
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
    });
  });

  it('returns to the configured site, not to a forged Host (the session id would go there)', async () => {
    const forged = 'https://voleur.exemple.net';
    expect(forged).not.toBe(SITE);
    const request = new Request(`${forged}/api/don`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: forged, host: 'voleur.exemple.net' },
      body: JSON.stringify({ moyen: 'lien', somme: 1 }),
    });
    expect((await don.POST({ request })).status).toBe(200);
    const request2 = new Request(`${forged}/create-checkout-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: forged, host: 'voleur.exemple.net' },
      body: JSON.stringify({ moyen: 'integre', somme: 1 }),
    });
    expect((await embedded.POST({ request: request2 })).status).toBe(200);
    const [hosted, inPage] = fake.requests().map((recorded) => recorded.body);
    expect(hosted).toMatchObject({ success_url: SUCCESS_URL, cancel_url: CANCEL_URL });
    expect(inPage).toMatchObject({ return_url: SUCCESS_URL });
    expect(JSON.stringify(fake.requests())).not.toContain('voleur');
  });

  it('prefills an email given in the draft and keeps the draft’s details as the ledger’s fallback', async () => {
    const { response } = await postDon({ moyen: 'lien', somme: 0, email: ' paul@exemple.fr ', prenom: 'Paul' });
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toMatchObject({
      customer_email: 'paul@exemple.fr',
      metadata: { ...MARKER, prenom: 'Paul' },
    });
  });

  it.each([
    ['no Origin (a link, a crawler, a prefetch)', null],
    ['another site’s Origin', 'https://ailleurs.exemple.com'],
    ['the same host over http', 'http://dons.exemple.org'],
  ])('refuses %s with 403; nothing reaches Stripe', async (_label, origin) => {
    for (const { response, body } of [
      await postDon({ moyen: 'lien', somme: 1 }, { origin }),
      await postEmbedded({ moyen: 'integre', somme: 1 }, { origin }),
    ]) {
      expect(response.status).toBe(403);
      expectJsonNoStore(response);
      expect(body).toEqual({ ok: false, message: 'Le paiement se lance depuis la page « Nous soutenir » de ce site.' });
    }
    expect(fake.requests()).toHaveLength(0);
  });

  it('answers the spec’s GET (and HEAD) with 405 Allow: POST and creates nothing', async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await don.ALL({ request: new Request(`${ORIGIN}/api/don?id=1`, { method }) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['an unpaired high surrogate in a name', { prenom: 'Ma\uD800rie' }, 'prenom'],
    ['an unpaired low surrogate in the email', { email: 'a\uDC00b@exemple.fr' }, 'email'],
  ])('refuses %s with 400 (not 502); nothing reaches Stripe', async (_label, change, field) => {
    for (const { response, body } of [
      await postDon({ moyen: 'lien', somme: 1, ...change }),
      await postEmbedded({ moyen: 'integre', somme: 1, ...change }),
    ]) {
      expect(response.status).toBe(400);
      expect(body).toEqual({ ok: false, message: MESSAGES.malformedText, fields: { [field]: MESSAGES.malformedText } });
    }
    expect(fake.requests()).toHaveLength(0);
  });

  it('accepts names with emoji and accents (well-formed pairs)', async () => {
    const { response } = await postDon({ moyen: 'lien', somme: 1, prenom: 'Zoé 😀' });
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toMatchObject({ metadata: { prenom: 'Zoé 😀' } });
  });
});

describe('POST /create-checkout-session (Stripe’s form embedded in /soutenir)', () => {
  it.each(EXPECTED_CENTS.map((cents, index) => [index, cents]))(
    'somme=%i creates an embedded session of %i cents and answers {clientSecret}',
    async (index, cents) => {
      const { response, body } = await postEmbedded({ moyen: 'integre', somme: index });
      expect(response.status).toBe(200);
      expectJsonNoStore(response);
      expect(onlySessionRequest().body).toEqual({
        mode: 'payment',
        ui_mode: 'embedded_page',
        submit_type: 'donate',
        locale: 'fr',
        line_items: lineItems(cents),
        ...COLLECTED,
        metadata: MARKER,
        payment_intent_data: { metadata: MARKER },
        return_url: SUCCESS_URL,
      });
      const [session] = [...fake.sessions().values()];
      expect(body).toEqual({ clientSecret: session?.client_secret });
      expect(body.clientSecret).toMatch(/^cs_test_\w+_secret_\w+$/);
    },
  );

  it('a monthly gift embedded: subscription mode with the return URL', async () => {
    const { response } = await postEmbedded({ moyen: 'integre', somme: '3', frequence: 'mensuel' });
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toMatchObject({
      mode: 'subscription',
      ui_mode: 'embedded_page',
      line_items: [{ price_data: { unit_amount: '10000', recurring: { interval: 'month' } } }],
      subscription_data: { metadata: MARKER },
      return_url: SUCCESS_URL,
    });
  });

  it.each([
    ['a missing somme', { somme: undefined }],
    ['somme "abc"', { somme: 'abc' }],
    ['somme 1.5', { somme: 1.5 }],
    ['somme -1', { somme: -1 }],
    ['somme 10', { somme: 10 }],
    ['somme ""', { somme: '' }],
    ['somme null', { somme: null }],
    ['somme true', { somme: true }],
  ])('refuses %s with 400 and the French message; nothing reaches Stripe', async (_label, change) => {
    for (const { response, body } of [
      await postEmbedded({ ...ONE_OFF, moyen: 'integre', ...change }),
      await postDon({ ...ONE_OFF, moyen: 'lien', ...change }),
    ]) {
      expect(response.status).toBe(400);
      expectJsonNoStore(response);
      expect(body).toMatchObject({ ok: false, fields: { somme: 'Merci de choisir un montant' } });
    }
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['a price', { montant: 1 }],
    ['a unit_amount', { unit_amount: 100 }],
    ['the old GET’s id', { id: 1 }],
  ])('refuses %s sent by the client with 400; nothing reaches Stripe', async (_label, extra) => {
    const { response, body } = await postEmbedded({ moyen: 'integre', somme: 1, ...extra });
    expect(response.status).toBe(400);
    expect(body).toEqual({ ok: false, message: MESSAGES.unknownField, fields: { _form: MESSAGES.unknownField } });
    expect(fake.requests()).toHaveLength(0);
  });

  it.each([
    ['a bad email', { email: 'x' }, 'email', MESSAGES.emailFieldInvalid],
    ['an unknown country', { pays: 'XX' }, 'pays', MESSAGES.countryUnknown],
    ['an unknown way to pay', { moyen: 'cheque' }, 'moyen', 'Merci de choisir comment payer'],
    ['an unknown frequency', { frequence: 'annuel' }, 'frequence', 'Merci de choisir un don ponctuel ou mensuel'],
  ])('refuses %s with 400 and a French field message', async (_label, change, field, message) => {
    const { response, body } = await postEmbedded({ moyen: 'integre', somme: 1, ...change });
    expect(response.status).toBe(400);
    expect(body).toEqual({ ok: false, message, fields: { [field]: message } });
    expect(fake.requests()).toHaveLength(0);
  });

  it('refuses unreadable JSON (400), another content type (415) and a body over 16 KB (413)', async () => {
    expect((await postEmbedded('{"somme": 1,')).response.status).toBe(400);
    expect((await postEmbedded('[1]')).response.status).toBe(400);
    expect((await postEmbedded('{}', { contentType: 'text/plain' })).response.status).toBe(415);
    const big = await postEmbedded({ moyen: 'integre', somme: 1, adresse: 'x'.repeat(20_000) });
    expect(big.response.status).toBe(413);
    expect(big.body).toEqual({ ok: false, message: HTTP_MESSAGES.tooLarge });
    expect(fake.requests()).toHaveLength(0);
  });
});

const TOO_LARGE =
  'Le montant maximum d’un don en ligne est de 100 000 €. Pour donner davantage, écrivez-nous ou donnez par chèque.';

describe('« Autre montant »: an amount of the donor’s own, in euros, through the same routes', () => {
  it.each([
    ['37', 3700],
    ['37,50', 3750],
    ['37.5', 3750],
    [' 1 000 € ', 100000],
    ['1', 100],
    ['100000', 10000000],
  ])('autreMontant "%s" creates a session of %i cents on both routes', async (typed, cents) => {
    for (const { response } of [
      await postDon({ moyen: 'lien', autreMontant: typed }),
      await postEmbedded({ moyen: 'integre', autreMontant: typed }),
    ]) {
      expect(response.status).toBe(200);
    }
    const [hosted, inPage] = fake.requests().map((recorded) => recorded.body);
    expect(hosted).toMatchObject({ ui_mode: 'hosted_page', line_items: lineItems(cents) });
    expect(inPage).toMatchObject({ ui_mode: 'embedded_page', line_items: lineItems(cents) });
    expect(fake.requests()).toHaveLength(2);
  });

  it('a 37 € gift: the Checkout session Stripe holds is of 3 700 cents, and its draft carries no price', async () => {
    const { response, body } = await postEmbedded({ moyen: 'integre', autreMontant: '37' });
    expect(response.status).toBe(200);
    const [session] = [...fake.sessions().values()];
    expect(body).toEqual({ clientSecret: session?.client_secret });
    expect(session?.amount_total).toBe(3700);
    expect(JSON.stringify(onlySessionRequest().body.metadata)).not.toContain('37');
  });

  it('a monthly gift of one’s own amount: a subscription of that amount a month', async () => {
    const { response } = await postDon({ moyen: 'lien', autreMontant: '15', frequence: 'mensuel' });
    expect(response.status).toBe(200);
    expect(onlySessionRequest().body).toMatchObject({
      mode: 'subscription',
      line_items: [{ price_data: { unit_amount: '1500', recurring: { interval: 'month' } } }],
    });
  });

  it.each([
    ['""', '', 'Indiquez le montant de votre don en euros, par exemple 37 ou 37,50'],
    ['"abc"', 'abc', 'Indiquez un montant en euros, en chiffres : par exemple 37 ou 37,50'],
    ['"-5"', '-5', 'Indiquez un montant en euros, en chiffres : par exemple 37 ou 37,50'],
    ['true', true, 'Indiquez un montant en euros, en chiffres : par exemple 37 ou 37,50'],
    ['"37,555"', '37,555', 'Indiquez au plus deux chiffres après la virgule : par exemple 37,50'],
    ['"1.000"', '1.000', 'Indiquez au plus deux chiffres après la virgule : par exemple 37,50'],
    ['"0,99"', '0,99', 'Le montant minimum d’un don est de 1 €'],
    ['0', 0, 'Le montant minimum d’un don est de 1 €'],
    ['"100 000,01"', '100 000,01', TOO_LARGE],
    ['"99999999999999"', '99999999999999', TOO_LARGE],
  ])(
    'refuses autreMontant %s with 400 and its French message; nothing reaches Stripe',
    async (_label, typed, message) => {
      for (const { response, body } of [
        await postEmbedded({ moyen: 'integre', autreMontant: typed }),
        await postDon({ moyen: 'lien', autreMontant: typed }),
      ]) {
        expect(response.status).toBe(400);
        expectJsonNoStore(response);
        expect(body).toEqual({ ok: false, message, fields: { autreMontant: message } });
      }
      expect(fake.requests()).toHaveLength(0);
    },
  );

  it('refuses a draft with both a proposed amount and one’s own; nothing reaches Stripe', async () => {
    const { response, body } = await postDon({ moyen: 'lien', somme: 1, autreMontant: '37' });
    expect(response.status).toBe(400);
    expect(body).toMatchObject({
      fields: { autreMontant: 'Choisissez un des montants proposés ou un autre montant, pas les deux' },
    });
    expect(fake.requests()).toHaveLength(0);
  });
});

/** POSTs the donation form as a browser without JavaScript does (URL-encoded, or `multipart`), from this site. */
async function postForm(
  handler: Handler,
  path: string,
  fields: Record<string, string>,
  { origin = ORIGIN, multipart = false }: { origin?: string | null; multipart?: boolean } = {},
): Promise<Response> {
  const body = multipart ? new FormData() : new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const request = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    // fetch sets the form's content type (and the multipart boundary) from the body.
    headers: origin === null ? {} : { origin },
    body,
  });
  return handler({ request });
}

/** The fields the server's form posts by default: 25 €, once, a person's gift, the own amount's empty field. */
const FORM_FIELDS = { frequence: 'ponctuel', donateur: 'particulier', somme: '1', autreMontant: '', moyen: 'lien' };

describe('POST /api/don from the form, without JavaScript: 303 to Stripe’s page, or back to /soutenir', () => {
  it('50 € a month: 303 to the hosted session of 5 000 cents, in subscription mode', async () => {
    const response = await postForm(don.POST, '/api/don', { ...FORM_FIELDS, somme: '2', frequence: 'mensuel' });
    expect(response.status).toBe(303);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const [session] = [...fake.sessions().values()];
    expect(response.headers.get('location')).toBe(session?.url);
    expect(session?.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\w+$/);
    expect(onlySessionRequest().body).toMatchObject({
      mode: 'subscription',
      ui_mode: 'hosted_page',
      line_items: [{ price_data: { unit_amount: '5000', recurring: { interval: 'month' } } }],
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
    });
  });

  it('« Autre montant » 37,50 (multipart, from the embedded form’s button): 3 750 cents, a company’s gift', async () => {
    const response = await postForm(
      don.POST,
      '/api/don',
      { ...FORM_FIELDS, somme: 'autre', autreMontant: '37,50', donateur: 'entreprise', moyen: 'integre' },
      { multipart: true },
    );
    expect(response.status).toBe(303);
    expect(onlySessionRequest().body).toMatchObject({
      mode: 'payment',
      ui_mode: 'hosted_page',
      line_items: lineItems(3750),
      metadata: { ...MARKER, donateur: 'entreprise' },
    });
  });

  it('ignores the own amount’s field when a proposed amount is checked (the field is posted, hidden)', async () => {
    const response = await postForm(don.POST, '/api/don', { ...FORM_FIELDS, somme: '0', autreMontant: '37' });
    expect(response.status).toBe(303);
    expect(onlySessionRequest().body).toMatchObject({ line_items: lineItems(1000) });
  });

  it.each([
    ['an empty own amount', { somme: 'autre', autreMontant: '' }, 'montant-vide'],
    ['an own amount in letters', { somme: 'autre', autreMontant: 'abc' }, 'montant-illisible'],
    ['three decimals', { somme: 'autre', autreMontant: '37,555' }, 'montant-decimales'],
    ['under 1 €', { somme: 'autre', autreMontant: '0,50' }, 'montant-minimum'],
    ['over 100 000 €', { somme: 'autre', autreMontant: '100 000,01' }, 'montant-maximum'],
    ['an amount index out of the list', { somme: '10' }, 'champs'],
    ['a price sent by the client', { montant: '1' }, 'champs'],
  ])('answers %s with 303 to /soutenir#don-%s; nothing reaches Stripe', async (_label, change, outcome) => {
    const response = await postForm(don.POST, '/api/don', { ...FORM_FIELDS, ...change });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/soutenir#don-${outcome}`);
    expect(response.headers.get('content-type')).toBeNull();
    expect(fake.requests()).toHaveLength(0);
  });

  it('answers a Stripe failure with 303 to /soutenir#don-indisponible', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.behave({ kind: 'error', status: 500 });
    const response = await postForm(don.POST, '/api/don', FORM_FIELDS);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/soutenir#don-indisponible');
  });

  it('keeps the origin check (403, as for JSON) and the embedded route JSON only (415)', async () => {
    for (const origin of [null, 'https://ailleurs.exemple.com']) {
      expect((await postForm(don.POST, '/api/don', FORM_FIELDS, { origin })).status).toBe(403);
    }
    const embeddedForm = await postForm(embedded.POST, '/create-checkout-session', {
      ...FORM_FIELDS,
      moyen: 'integre',
    });
    expect(embeddedForm.status).toBe(415);
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
      const email = 'paul@exemple.fr';
      for (const { response, body } of [
        await postDon({ moyen: 'lien', somme: 1, email }),
        await postEmbedded({ moyen: 'integre', somme: 1, email }),
      ]) {
        expect(response.status).toBe(502);
        expectJsonNoStore(response);
        expect(body).toEqual({ ok: false, message: PROVIDER_UNAVAILABLE });
      }
      // One attempt each (no automatic retry), and the details are in the server log only.
      expect(fake.requests()).toHaveLength(2);
      expect(logged).toHaveBeenCalledTimes(2);
      const log = logged.mock.calls.flat().join(' ');
      expect(log).toMatch(/Stripe/);
      expect(log).not.toContain(FAKE_SECRET_KEY);
      expect(log).not.toContain(email);
    },
  );

  it('answers 502 after its deadline when Stripe accepts the request and never answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.behave({ kind: 'hang' });
    const results = await withShortDeadlines(() =>
      Promise.all([postDon({ moyen: 'lien', somme: 4 }), postEmbedded({ moyen: 'integre', somme: 4 })]),
    );
    for (const { response, body } of results) {
      expect(response.status).toBe(502);
      expect(body).toEqual({ ok: false, message: PROVIDER_UNAVAILABLE });
    }
    expect(fake.requests()).toHaveLength(2);
  }, 20_000);

  it('answers 502 when Stripe cannot be reached at all', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await fake.stop();
    try {
      const { response, body } = await postDon({ moyen: 'lien', somme: 1 });
      expect(response.status).toBe(502);
      expect(body).toEqual({ ok: false, message: PROVIDER_UNAVAILABLE });
    } finally {
      fake = await startFakeStripe({ port: FAKE_STRIPE_PORT });
    }
  });
});

describe('without Stripe keys (the embedded default)', () => {
  it('makes no client without STRIPE_SECRET_KEY: HttpError 503 "not configured" (the endpoints’ answer)', () => {
    expect(() => stripeFromEnv({ STRIPE_API_BASE })).toThrow(
      expect.objectContaining({ status: 503, message: 'Le paiement en ligne n’est pas configuré sur ce site.' }),
    );
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
// Webhook → Firestore `dons` (firebase-admin) → GET /api/recu

const WEBHOOK_URL = `${ORIGIN}/api/stripe-webhook`;
let sequence = 0;

/** A session this site created (marker), paid on Stripe's page by FAKE_DONOR. */
function ourSession(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  const paid = paidSession({
    id: `cs_test_pipeline${sequence}${Date.now()}`,
    object: 'checkout.session',
    amount_subtotal: 5000,
    amount_total: 5000,
    currency: 'eur',
    customer_email: null,
    livemode: true,
    metadata: { ...MARKER },
    mode: overrides.mode ?? 'payment',
    ui_mode: 'hosted_page',
  });
  return { ...paid, ...overrides };
}

/** A webhook request as Stripe sends it: the raw JSON and its Stripe-Signature header. */
function signedRequest(
  event: unknown,
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
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    body: payload,
  });
}

async function deliver(request: Request): Promise<{ response: Response; body: Record<string, unknown> }> {
  const response = await webhook.POST({ request });
  return { response, body: await response.json() };
}

/** An event of live mode (Stripe's live keys): the only ones whose gifts take a number of the series. */
const liveEvent = (type: string, object: Record<string, unknown>, created?: number) => ({
  ...stripeEvent(type, object, created),
  livemode: true,
});
const completed = (session: Record<string, unknown>) => liveEvent('checkout.session.completed', session);

/** Every document of `dons`, read with firebase-admin: id → data. */
async function readDons(): Promise<Map<string, DocumentData>> {
  const snapshot = await adminFirestore().collection('dons').get();
  return new Map(snapshot.docs.map((document) => [document.id, document.data()]));
}

async function readDon(id: string): Promise<DocumentData | undefined> {
  return (await adminFirestore().collection('dons').doc(id).get()).data();
}

function expectTimestampNearNow(value: unknown): void {
  expect(value).toBeInstanceOf(Timestamp);
  expect(Math.abs((value as Timestamp).toMillis() - Date.now())).toBeLessThan(60_000);
}

describe('POST /api/stripe-webhook → Firestore `dons` (firebase-admin)', () => {
  it('records a paid one-off gift under its session id, with a receipt number; a replay adds nothing', async () => {
    const session = ourSession();
    const event = completed(session);
    const before = await readDons();

    const { response, body } = await deliver(signedRequest(event));
    expect(response.status).toBe(200);
    expectJsonNoStore(response);
    expect(body).toEqual({ ok: true, message: 'written' });

    const after = await readDons();
    expect([...after.keys()].filter((key) => !before.has(key))).toEqual([session.id]);
    const { date, datePaiement, recu, ...fields } = after.get(session.id as string) ?? {};
    expect(fields).toEqual({
      montant: 5000,
      devise: 'eur',
      prenom: '',
      nom: 'Jeanne Dupont-Lefèvre',
      email: 'jeanne.dupont@exemple.fr',
      adresse: '8 quai Rambaud, Bâtiment B',
      postal: '69002',
      ville: 'Lyon',
      pays: 'FR',
      statut: 'paid',
      nature: 'don',
      livemode: true,
      evenement: 'checkout.session.completed',
      session: session.id,
      abonnement: '',
      // Numbered right after the record, its thank-you queued (receipt-numbering.server.ts).
      aNumeroter: false,
      recuAEnvoyer: false,
      paiement: session.payment_intent,
    });
    expectTimestampNearNow(date);
    expect((datePaiement as Timestamp).toMillis()).toBe(event.created * 1000);
    expect(recu).toMatch(new RegExp(`^${new Date().getFullYear()}-\\d{5}$`));

    // Stripe delivers the same event again (a retry): still one document, same number.
    const replay = await deliver(signedRequest(event));
    expect(replay.body).toEqual({ ok: true, message: 'unchanged' });
    expect(await readDon(session.id as string)).toEqual(after.get(session.id as string));
  });

  it('numbers paid one-off gifts one after the other; unpaid, failed and monthly ones get no number', async () => {
    const first = ourSession();
    const pending = ourSession({ payment_status: 'unpaid' });
    const monthly = ourSession({ mode: 'subscription' });
    const second = ourSession();
    for (const session of [first, pending, monthly, second]) {
      expect((await deliver(signedRequest(completed(session)))).response.status).toBe(200);
    }
    const numberOf = async (session: Record<string, unknown>) => (await readDon(session.id as string))?.recu;
    const [year, a] = String(await numberOf(first)).split('-');
    expect(await numberOf(second)).toBe(`${year}-${String(Number(a) + 1).padStart(5, '0')}`);
    expect(await numberOf(pending)).toBeUndefined();
    expect(await readDon(monthly.id as string)).toMatchObject({
      nature: 'abonnement',
      abonnement: monthly.subscription,
      statut: 'paid',
    });
    expect(await numberOf(monthly)).toBeUndefined();

    // The delayed payment settles: it gets the next number then, once.
    await deliver(signedRequest(liveEvent('checkout.session.async_payment_succeeded', pending)));
    expect(await numberOf(pending)).toBe(`${year}-${String(Number(a) + 2).padStart(5, '0')}`);
  });

  it('a delayed payment that fails: the same document turns failed, a late "completed" does not undo it', async () => {
    const session = ourSession({ payment_status: 'unpaid', amount_total: 25000 });
    await deliver(signedRequest(completed(session)));
    const count = (await readDons()).size;
    await deliver(signedRequest(liveEvent('checkout.session.async_payment_failed', session)));
    const failed = await readDon(session.id as string);
    expect(failed).toMatchObject({ statut: 'failed', montant: 25000 });
    expect(failed?.recu).toBeUndefined();
    await deliver(signedRequest(completed(session)));
    expect(await readDon(session.id as string)).toEqual(failed);
    expect((await readDons()).size).toBe(count);
  });

  it('records each paid invoice of a monthly gift under the invoice id', async () => {
    const invoice = paidInvoice('sub_test_pipeline', 2500, MARKER);
    const { response, body } = await deliver(signedRequest(stripeEvent('invoice.paid', invoice)));
    expect(response.status).toBe(200);
    expect(body).toEqual({ ok: true, message: 'written' });
    const { date: _date, datePaiement, ...fields } = (await readDon(invoice.id)) ?? {};
    expect(fields).toEqual({
      montant: 2500,
      devise: 'eur',
      prenom: '',
      nom: 'Jeanne Dupont-Lefèvre',
      email: 'jeanne.dupont@exemple.fr',
      adresse: '8 quai Rambaud, Bâtiment B',
      postal: '69002',
      ville: 'Lyon',
      pays: 'FR',
      statut: 'paid',
      nature: 'mensualite',
      livemode: false,
      evenement: 'invoice.paid',
      session: '',
      abonnement: 'sub_test_pipeline',
    });
    expect((datePaiement as Timestamp).toMillis()).toBe(invoice.status_transitions.paid_at * 1000);
  });

  it('ignores (200) sessions and invoices this site did not create, and other event types', async () => {
    const before = (await readDons()).size;
    const foreign = ourSession({ metadata: { origine: 'autre-chose' } });
    const unmarked = ourSession({ metadata: {} });
    const events = [
      completed(foreign),
      completed(unmarked),
      stripeEvent('invoice.paid', paidInvoice('sub_test_other', 2500, {})),
      stripeEvent('checkout.session.expired', ourSession()),
      stripeEvent('charge.refunded', { id: 'ch_test_1' }),
    ];
    for (const event of events) {
      const { response, body } = await deliver(signedRequest(event));
      expect(response.status).toBe(200);
      expect(body).toEqual({ ok: true, message: 'ignored' });
    }
    expect((await readDons()).size).toBe(before);
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['an object without type', { id: 'evt_x', data: {} }],
    ['a ledger event without a session id', stripeEvent('checkout.session.completed', { id: 'nope' })],
  ])('answers 400 (not 500) to a correctly signed body that is %s', async (_label, body) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const before = (await readDons()).size;
    const { response } = await deliver(signedRequest(body));
    expect(response.status).toBe(400);
    expect((await readDons()).size).toBe(before);
  });

  it.each([
    ['no signature', { signature: null }],
    ['a signature made with another secret', { secret: ['whsec', 'someoneElse'].join('_') }],
    ['a malformed signature', { signature: 't=1,v1=abc' }],
    ['a signature older than 5 minutes', { timestamp: Math.floor(Date.now() / 1000) - 600 }],
    ['a signature dated 10 minutes ahead', { timestamp: Math.floor(Date.now() / 1000) + 600 }],
  ])('refuses %s with 400 and writes nothing', async (_label, options) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const session = ourSession();
    const { response, body } = await deliver(signedRequest(completed(session), options));
    expect(response.status).toBe(400);
    expectJsonNoStore(response);
    expect(body).toMatchObject({ ok: false });
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('accepts a signature a few seconds ahead (clocks differ slightly)', async () => {
    const session = ourSession();
    const { response } = await deliver(
      signedRequest(completed(session), { timestamp: Math.floor(Date.now() / 1000) + 30 }),
    );
    expect(response.status).toBe(200);
  });

  it('refuses a body changed after signing (the signature covers the raw bytes)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const session = ourSession();
    const payload = JSON.stringify(completed(session), null, 2);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: FAKE_WEBHOOK_SECRET });
    const tampered = payload.replace('"amount_total": 5000', '"amount_total": 5');
    expect(tampered).not.toBe(payload);
    const request = new Request(WEBHOOK_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: tampered,
    });
    expect((await deliver(request)).response.status).toBe(400);
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it('refuses a body over 64 KB with 413 and writes nothing', async () => {
    const session = ourSession({ padding: 'x'.repeat(70_000) });
    expect((await deliver(signedRequest(completed(session)))).response.status).toBe(413);
    expect(await readDon(session.id as string)).toBeUndefined();
  });

  it(
    'takes no event without STRIPE_WEBHOOK_SECRET: HttpError 503 "not configured", before reading (Stripe ' +
      'retries)',
    () => {
      expect(() => webhookSecretFromEnv({})).toThrow(
        expect.objectContaining({ status: 503, message: 'Le paiement en ligne n’est pas configuré sur ce site.' }),
      );
      expect(webhookSecretFromEnv({ STRIPE_WEBHOOK_SECRET: ' whsec_x ' })).toBe('whsec_x');
    },
  );

  it('answers 503 with Retry-After past its deadline, Firestore unreachable, then records the retry', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const session = ourSession();
    const event = completed(session);
    gateway.set('refuse');
    const { response, body } = await withShortDeadlines(() => deliver(signedRequest(event))).finally(() =>
      gateway.set('forward'),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.unavailable });
    // The log names the gift by a hash of its id: the session id opens the receipt.
    const log = logged.mock.calls.flat().map(String).join(' ');
    expect(log).toContain(
      `dons/${createHash('sha256')
        .update(session.id as string)
        .digest('hex')
        .slice(0, 12)}`,
    );
    expect(log).not.toContain('cs_');
    // Stripe delivers again until a 2xx; the client reconnects to Firestore after its refusal within seconds.
    await expect
      .poll(async () => (await deliver(signedRequest(event))).response.status, { timeout: 40_000, interval: 2000 })
      .toBe(200);
    expect(await readDon(session.id as string)).toMatchObject({ statut: 'paid' });
  }, 60_000);
});

describe('GET /api/recu', () => {
  const ISSUER = {
    name: 'Les Petits Pas Ensemble',
    addressLines: ['École des Petits Pas', '12 rue des Tilleuls', '69007 Lyon'],
    object: 'Gérer une école primaire inclusive.',
    registration: '',
    signatory: 'Claire Martin, présidente',
  };
  const recu = receiptHandler(async () => ISSUER);
  const ask = (sessionId: string, accept = 'application/json') =>
    recu({ request: new Request(`${ORIGIN}/api/recu?session_id=${sessionId}`, { headers: { accept } }) });

  it('says "attente" until the webhook arrives, then "pret" with the number; the PDF carries every field', async () => {
    const session = ourSession({ amount_total: 2500 });
    const id = session.id as string;
    expect(await (await ask(id)).json()).toEqual({ ok: true, etat: 'attente' });
    const early = await ask(id, 'text/html');
    expect(early.status).toBe(404);
    expect(await early.json()).toEqual({
      ok: false,
      message: 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.',
    });

    await deliver(signedRequest(completed(session)));
    const number = (await readDon(id))?.recu as string;
    expect(await (await ask(id)).json()).toEqual({ ok: true, etat: 'pret', numero: number });

    const response = await ask(id, 'text/html,*/*');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="recu-fiscal-${number}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    // pdf.js takes the buffer over: keep a copy to compare the next download with.
    const original = Buffer.from(bytes);
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of [
      'Reçu au titre des dons',
      'CERFA n° 11580',
      `Reçu n° ${number}`,
      'Les Petits Pas Ensemble',
      'École des Petits Pas, 12 rue des Tilleuls, 69007 Lyon',
      'Gérer une école primaire inclusive.',
      'Jeanne Dupont-Lefèvre',
      '8 quai Rambaud, Bâtiment B, 69002 Lyon',
      '25,00 €',
      'vingt-cinq euros',
      'Numéraire',
      'Carte bancaire',
      'article 200 du CGI',
      '66 % de son montant, soit 16,50 €',
      'Claire Martin, présidente',
    ]) {
      expect(flat).toContain(expected);
    }

    // Downloaded again: the same file, the same number.
    const again = new Uint8Array(await (await ask(id, 'text/html')).arrayBuffer());
    expect(Buffer.from(again).equals(original)).toBe(true);
    expect((await readDon(id))?.recu).toBe(number);
  });

  it('a test-mode gift takes no number of the series but a specimen’s; the first live gift gets n° 00001', async () => {
    // A year no other test pays in: its counter starts untouched.
    const created = Math.floor(Date.UTC(2019, 5, 15, 12) / 1000);
    const counter = adminFirestore().collection('compteurs').doc('recus-2019');
    expect((await counter.get()).exists).toBe(false);
    const trial = ourSession({ amount_total: 1_000_000, livemode: false });
    await deliver(signedRequest(stripeEvent('checkout.session.completed', trial, created)));
    const specimen = await readDon(trial.id as string);
    expect(specimen).toMatchObject({ livemode: false, statut: 'paid' });
    expect(specimen?.recu).toMatch(/^TEST-2019-[0-9a-f]{12}$/);
    expect((await counter.get()).exists).toBe(false);
    expect(await (await ask(trial.id as string)).json()).toEqual({
      ok: true,
      etat: 'specimen',
      numero: specimen?.recu,
    });

    const response = await ask(trial.id as string, 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="specimen-${specimen?.recu}.pdf"`);
    const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
    expect((await pdf.getMetadata()).info).toMatchObject({
      Title: `SPÉCIMEN — paiement de test, sans valeur fiscale — n° ${specimen?.recu}`,
    });
    const flat = (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
    expect(flat).toContain('SPÉCIMEN — paiement de test, sans valeur fiscale');
    expect(flat).toContain(`Spécimen n° ${specimen?.recu}`);
    expect(flat).toContain('Ce document n’est pas un reçu et n’ouvre droit à aucune réduction d’impôt.');
    for (const claim of ['Reçu au titre des dons', 'CERFA', 'Reçu n°', 'reçu fiscal', 'article 200', '66 %']) {
      expect(flat).not.toContain(claim);
    }

    const real = ourSession();
    await deliver(signedRequest(liveEvent('checkout.session.completed', real, created)));
    expect((await readDon(real.id as string))?.recu).toBe('2019-00001');
    expect((await counter.get()).data()).toEqual({ annee: 2019, dernier: 1 });
  });

  it.each([
    ['a SEPA direct debit (the one type offered)', { payment_method_types: ['sepa_debit'] }, 'Prélèvement SEPA'],
    [
      'a card, when the session tells the method used',
      { payment_intent: { payment_method: { type: 'card' } } },
      'Carte',
    ],
    [
      'several methods offered, Stripe’s PaymentIntent says which: PayPal',
      { payment_method_types: ['card', 'paypal'], payment_intent: 'pi_test_paypal' },
      'Paiement en',
    ],
    [
      'several methods offered, Stripe’s PaymentIntent says which: a card',
      { payment_method_types: ['card', 'sepa_debit'], payment_intent: 'pi_test_carte' },
      'Carte',
    ],
  ])('prints how the gift was paid from Stripe’s details: %s', async (_label, details, expected) => {
    fake.setPaymentMethod('pi_test_paypal', 'paypal');
    const session = ourSession(details);
    await deliver(signedRequest(completed(session)));
    const bytes = new Uint8Array(await (await ask(session.id as string, 'text/html')).arrayBuffer());
    const flat = (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/g, ' ');
    const method = /Mode de versement (.+?) Le bénéficiaire certifie/.exec(flat)?.[1];
    expect(method).toBe(
      {
        'Prélèvement SEPA': 'Prélèvement SEPA (paiement en ligne sécurisé par Stripe)',
        Carte: 'Carte bancaire (paiement en ligne sécurisé par Stripe)',
        'Paiement en': 'Paiement en ligne sécurisé par Stripe',
      }[expected],
    );
  });

  it('says "mensuel" for a monthly gift and offers no PDF', async () => {
    const session = ourSession({ mode: 'subscription' });
    await deliver(signedRequest(completed(session)));
    expect(await (await ask(session.id as string)).json()).toEqual({ ok: true, etat: 'mensuel' });
    expect((await ask(session.id as string, 'text/html')).status).toBe(404);
  });

  it('refuses a missing or malformed session id with 400', async () => {
    for (const id of ['', 'abc', 'in_test_1', 'cs_test_%2F..']) {
      const response = await ask(id);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ok: false,
        message: 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.',
      });
    }
  });

  it('answers 503 when Firestore is unreachable, without the session id in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    gateway.set('refuse');
    const response = await withShortDeadlines(() => ask('cs_test_unreachable')).finally(() => gateway.set('forward'));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, message: HTTP_MESSAGES.unavailable });
    const log = logged.mock.calls.flat().map(String).join(' ');
    expect(log).toContain('[api/recu]');
    expect(log).not.toContain('cs_');
  });
});
