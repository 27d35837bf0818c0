/**
 * What happens after the gift: Stripe's signed refunds, disputes, failed invoices and subscription changes delivered to
 * POST /api/stripe-webhook, checked against the `dons` document (firebase-admin, embedded Firestore) and what GET
 * /api/recu then serves. Replays and events out of order included. The donor's mails: mail-donations.test.ts.
 */
import { STRIPE_API_BASE } from 'astro:env/server';
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { adminFirestore, closeAdminFirestore } from '../../src/lib/firebase-admin.server';
import { receiptHandler } from '../../src/features/donations/ledger/donation-ledger.server';
import { siteReceiptContext } from '../../src/features/donations/receipts/gift-mails.server';
import { issueYearlyReceipts } from '../../src/features/donations/yearly/issue-receipts.server';
import { logId } from '../../src/lib/log-id.server';
import {
  disputeOf,
  failedInvoice,
  paidInvoice,
  paidSession,
  refundedCharge,
  startFakeStripe,
  stripeEvent,
  subscriptionObject,
  type FakeStripe,
} from '../fixtures/fake-stripe';
import { startFirestoreGateway, type FirestoreGateway } from '../fixtures/firestore-gateway';
import { deliverSigned } from '../fixtures/webhook';

vi.mock('../../src/association', () => import('../fixtures/test-association'));

/** The marker of this site's sessions, written out independently of stripe.server.ts. */
const MARKER = { origine: 'site-association' };

let fake: FakeStripe;
let emulator: EmbeddedFirestore;
let gateway: FirestoreGateway;

beforeAll(async () => {
  [fake, emulator] = await Promise.all([
    startFakeStripe({ port: Number(new URL(STRIPE_API_BASE as string).port) }),
    startEmbeddedFirestore(),
  ]);
  gateway = await startFirestoreGateway(emulator.port);
});

afterAll(async () => {
  await closeAdminFirestore();
  await fake?.stop();
  await gateway?.stop();
  emulator?.stop();
});

let sequence = 0;
/** Each test pays in a year of its own: its receipt numbers start at 00001 whatever the others did. */
let year = 2000;
const paidIn = () => Math.floor(Date.UTC(year, 5, 15, 12) / 1000);

/** A one-off session this site created (marker), paid by the fake donor, with its PaymentIntent. */
function ourSession(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return paidSession({
    id: `cs_test_events${sequence}${Date.now()}`,
    object: 'checkout.session',
    amount_total: 5000,
    currency: 'eur',
    livemode: true,
    metadata: { ...MARKER },
    mode: 'payment',
    ui_mode: 'hosted_page',
    payment_intent: `pi_test_events${sequence}${Date.now()}`,
    ...overrides,
  }) as unknown as Record<string, unknown> & { id: string; payment_intent: string; subscription: string | null };
}

/** `stripeEvent` in live mode (unless `livemode` false) at the test's time of payment. */
const event = (type: string, object: Record<string, unknown>, livemode = true) => ({
  ...stripeEvent(type, object, paidIn()),
  livemode,
});

/** Delivers `body` signed as Stripe signs it: the status and the webhook's `message`. */
async function deliver(body: unknown): Promise<{ status: number; message: unknown }> {
  const response = await deliverSigned(body);
  return { status: response.status, message: ((await response.json()) as { message?: unknown }).message };
}

const written = { status: 200, message: 'written' };
const unchanged = { status: 200, message: 'unchanged' };
const ignored = { status: 200, message: 'ignored' };

const refund = (session: ReturnType<typeof ourSession>, total: number, metadata = {}) =>
  event('charge.refunded', refundedCharge(session.payment_intent, Number(session.amount_total), total, metadata));

async function readDon(id: string): Promise<DocumentData | undefined> {
  return (await adminFirestore().collection('dons').doc(id).get()).data();
}

const counter = async () =>
  (await adminFirestore().collection('compteurs').doc(`recus-${year}`).get()).data()?.dernier as number | undefined;

const recu = receiptHandler(async () => ({
  name: 'Les Petits Pas Ensemble',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  object: 'Gérer une école primaire inclusive.',
  registration: '',
  signatory: 'Claire Martin, présidente',
}));
const ask = (id: string, accept = 'application/json') =>
  recu({ request: new Request(`https://dons.exemple.org/api/recu?session_id=${id}`, { headers: { accept } }) });
const state = async (id: string) => (await ask(id)).json();

/** The PDF /api/recu serves, as one line of text. */
async function pdfText(id: string): Promise<string> {
  const response = await ask(id, 'text/html');
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/g, ' ');
}

describe('charge.refunded', () => {
  it('a full refund after the download cancels the receipt: number kept as void, none served, none taken', async () => {
    year = 2001;
    const session = ourSession();
    expect(await deliver(event('checkout.session.completed', session))).toEqual(written);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'pret', numero: '2001-00001' });
    expect((await ask(session.id, 'text/html')).status).toBe(200);

    expect(await deliver(refund(session, 5000))).toEqual(written);
    const gift = await readDon(session.id);
    expect(gift).toMatchObject({ rembourse: 5000, evenement: 'charge.refunded', paiement: session.payment_intent });
    expect(gift?.recu).toBeUndefined();
    expect(gift?.recusAnnules).toEqual([{ numero: '2001-00001', date: expect.any(Timestamp), motif: 'remboursement' }]);
    expect(await counter()).toBe(1);

    expect(await state(session.id)).toEqual({ ok: true, etat: 'annule', annule: '2001-00001' });
    const refused = await ask(session.id, 'text/html');
    expect(refused.status).toBe(410);
    expect(await refused.json()).toEqual({
      ok: false,
      message: 'Ce don a été remboursé : son reçu fiscal n° 2001-00001 est annulé.',
    });

    // Stripe's retry, then the session's own replay: nothing moves.
    expect(await deliver(refund(session, 5000))).toEqual(unchanged);
    expect(await deliver(event('checkout.session.completed', session))).toEqual(unchanged);
    expect(await readDon(session.id)).toEqual(gift);
    expect(await counter()).toBe(1);
  });

  it('a partial refund cancels the number and issues a corrected receipt for the rest, with a new number', async () => {
    year = 2002;
    const session = ourSession();
    await deliver(event('checkout.session.completed', session));
    const other = ourSession();
    await deliver(event('checkout.session.completed', other));
    expect((await readDon(other.id))?.recu).toBe('2002-00002');

    expect(await deliver(refund(session, 2000))).toEqual(written);
    const gift = await readDon(session.id);
    // Numbered after the ledger's commit, by the numbering step (marked, then unmarked), never inside the webhook's
    // transaction.
    expect(gift).toMatchObject({ montant: 5000, rembourse: 2000, recu: '2002-00003', aNumeroter: false });
    expect(gift?.recusAnnules).toEqual([{ numero: '2002-00001', date: expect.any(Timestamp), motif: 'remboursement' }]);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'rectifie', numero: '2002-00003', annule: '2002-00001' });
    const text = await pdfText(session.id);
    for (const expected of [
      'Reçu n° 2002-00003',
      'Reçu rectificatif : il annule et remplace le n° 2002-00001 (don remboursé en partie).',
      'Montant 30,00 €',
      'trente euros',
      '66 % de son montant, soit 19,80 €',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('50,00 €');

    // A second refund (Stripe's amount_refunded is the running total), then the rest.
    expect(await deliver(refund(session, 3500))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ rembourse: 3500, recu: '2002-00004' });
    expect(await pdfText(session.id)).toContain('Montant 15,00 €');
    expect(await deliver(refund(session, 5000))).toEqual(written);
    const last = await readDon(session.id);
    expect(last?.recu).toBeUndefined();
    expect(last?.recusAnnules.map((cancelled: { numero: string }) => cancelled.numero)).toEqual([
      '2002-00001',
      '2002-00003',
      '2002-00004',
    ]);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'annule', annule: '2002-00004' });
    expect(await counter()).toBe(4);
  });

  it('an older refund total delivered late changes nothing (amount_refunded only grows)', async () => {
    year = 2003;
    const session = ourSession();
    await deliver(event('checkout.session.completed', session));
    await deliver(refund(session, 3000));
    const gift = await readDon(session.id);
    expect(await deliver(refund(session, 1000))).toEqual(unchanged);
    expect(await readDon(session.id)).toEqual(gift);
  });

  it('a refund before the session completed waits; the gift then gets a receipt for the rest only', async () => {
    year = 2004;
    const session = ourSession();
    expect(await deliver(refund(session, 2000, MARKER))).toEqual(written);
    expect(await deliver(refund(session, 2000, MARKER))).toEqual(unchanged);
    expect(await readDon(session.id)).toBeUndefined();
    const pending = adminFirestore().collection('dons-en-attente').doc(session.payment_intent);
    expect((await pending.get()).data()).toMatchObject({ rembourse: 2000, evenement: 'charge.refunded' });

    expect(await deliver(event('checkout.session.completed', session))).toEqual(written);
    const gift = await readDon(session.id);
    expect(gift).toMatchObject({ montant: 5000, rembourse: 2000, recu: '2004-00001' });
    expect(gift?.recusAnnules).toBeUndefined();
    expect((await pending.get()).exists).toBe(false);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'pret', numero: '2004-00001' });
    const text = await pdfText(session.id);
    expect(text).toContain('Montant 30,00 €');
    expect(text).not.toContain('rectificatif');
  });

  it('a full refund before the session completed: the gift never takes a number', async () => {
    year = 2005;
    const session = ourSession();
    await deliver(refund(session, 5000, MARKER));
    await deliver(event('checkout.session.completed', session));
    const gift = await readDon(session.id);
    expect(gift).toMatchObject({ statut: 'paid', rembourse: 5000 });
    expect(gift?.recu).toBeUndefined();
    expect(await counter()).toBeUndefined();
    expect(await state(session.id)).toEqual({ ok: true, etat: 'annule' });
    expect(await (await ask(session.id, 'text/html')).json()).toEqual({
      ok: false,
      message: 'Ce don a été remboursé : il ne donne pas droit à un reçu fiscal.',
    });
  });

  it('ignores the refund of a payment this site did not take', async () => {
    const stranger = refundedCharge('pi_test_elsewhere', 5000, 5000, { origine: 'boutique' });
    expect(await deliver(event('charge.refunded', stranger))).toEqual(ignored);
    expect((await adminFirestore().collection('dons-en-attente').doc('pi_test_elsewhere').get()).exists).toBe(false);
  });

  it('answers 503 when Stripe cannot say which invoice an unknown payment paid: Stripe delivers it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.behave({ kind: 'error', status: 500 });
    const stranger = refundedCharge('pi_test_panne', 5000, 5000);
    const failed = await deliver(event('charge.refunded', stranger)).finally(() => fake.behave({ kind: 'ok' }));
    expect(failed.status).toBe(503);
    vi.restoreAllMocks();
    expect(await deliver(event('charge.refunded', stranger))).toEqual(ignored);
  });

  it('a test-mode gift refunded in part gets another specimen number, never one of the series', async () => {
    year = 2006;
    const session = ourSession({ livemode: false });
    await deliver(event('checkout.session.completed', session, false));
    const first = (await readDon(session.id))?.recu as string;
    expect(first).toMatch(/^TEST-2006-[0-9a-f]{12}$/);
    await deliver(event('charge.refunded', refundedCharge(session.payment_intent, 5000, 1000), false));
    const gift = await readDon(session.id);
    expect(gift?.recu).toMatch(/^TEST-2006-[0-9a-f]{12}$/);
    expect(gift?.recu).not.toBe(first);
    expect(gift?.recusAnnules.map((cancelled: { numero: string }) => cancelled.numero)).toEqual([first]);
    expect(await counter()).toBeUndefined();
    expect(await state(session.id)).toEqual({ ok: true, etat: 'specimen', numero: gift?.recu });

    // Refunded in full: a specimen was never a tax receipt, the page names no number to cancel.
    await deliver(event('charge.refunded', refundedCharge(session.payment_intent, 5000, 5000), false));
    expect(await state(session.id)).toEqual({ ok: true, etat: 'annule' });
    expect(await counter()).toBeUndefined();
  });
});

describe('charge.dispute.created / closed', () => {
  const dispute = (session: ReturnType<typeof ourSession>, status: 'needs_response' | 'won' | 'lost') =>
    event(
      status === 'needs_response' ? 'charge.dispute.created' : 'charge.dispute.closed',
      disputeOf(session.payment_intent, 5000, status),
    );

  it('holds the receipt back while the dispute is open, and serves the same number again once won', async () => {
    year = 2007;
    const session = ourSession();
    await deliver(event('checkout.session.completed', session));
    expect(await deliver(dispute(session, 'needs_response'))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ litige: 'ouvert', recu: '2007-00001' });
    expect(await state(session.id)).toEqual({ ok: true, etat: 'litige' });
    const held = await ask(session.id, 'text/html');
    expect(held.status).toBe(409);
    expect(await held.json()).toEqual({
      ok: false,
      message: 'Ce reçu fiscal est suspendu : le paiement de ce don est contesté auprès de la banque.',
    });

    expect(await deliver(dispute(session, 'won'))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ litige: 'gagne', recu: '2007-00001' });
    expect(await state(session.id)).toEqual({ ok: true, etat: 'pret', numero: '2007-00001' });
    // A "created" Stripe delivers late never reopens a closed dispute.
    expect(await deliver(dispute(session, 'needs_response'))).toEqual(unchanged);
    expect(await counter()).toBe(1);
  });

  it('a dispute lost cancels the receipt', async () => {
    year = 2008;
    const session = ourSession();
    await deliver(event('checkout.session.completed', session));
    await deliver(dispute(session, 'needs_response'));
    expect(await deliver(dispute(session, 'lost'))).toEqual(written);
    const gift = await readDon(session.id);
    expect(gift).toMatchObject({ litige: 'perdu' });
    expect(gift?.recu).toBeUndefined();
    expect(gift?.recusAnnules).toEqual([{ numero: '2008-00001', date: expect.any(Timestamp), motif: 'litige' }]);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'conteste', annule: '2008-00001' });
    const refused = await ask(session.id, 'text/html');
    expect(refused.status).toBe(410);
    expect(await refused.json()).toEqual({
      ok: false,
      message:
        'Le paiement de ce don a été contesté et rendu par la banque : son reçu fiscal n° 2008-00001 est annulé.',
    });
    expect(await deliver(dispute(session, 'lost'))).toEqual(unchanged);
  });

  it('ignores a dispute of a payment the ledger does not hold', async () => {
    const stranger = event('charge.dispute.created', disputeOf('pi_test_inconnu', 5000, 'needs_response'));
    expect(await deliver(stranger)).toEqual(ignored);
  });
});

describe('monthly gifts: customer.subscription.updated / deleted, invoice.payment_failed', () => {
  const monthly = () => ourSession({ mode: 'subscription', amount_total: 2500 });

  it('records the subscription’s status and new amount on its session; a cancellation is final', async () => {
    const session = monthly();
    const subscription = session.subscription as string;
    await deliver(event('checkout.session.completed', session));
    const update = (status: string, amount = 2500, type = 'customer.subscription.updated') =>
      event(type, subscriptionObject(subscription, status, amount, MARKER));

    expect(await deliver(update('past_due'))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ abonnementStatut: 'past_due', montant: 2500 });
    expect(await deliver(update('past_due'))).toEqual(unchanged);
    expect(await deliver(update('active', 4000))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ abonnementStatut: 'active', abonnementMontant: 4000 });
    expect(await deliver(update('canceled', 4000, 'customer.subscription.deleted'))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({
      abonnementStatut: 'canceled',
      evenement: 'customer.subscription.deleted',
    });
    // An update Stripe sent before the deletion, delivered after it.
    expect(await deliver(update('active', 4000))).toEqual(unchanged);
    expect(await state(session.id)).toEqual({ ok: true, etat: 'mensuel' });
  });

  it('an update before the subscription’s session completed waits for it', async () => {
    const session = monthly();
    const subscription = session.subscription as string;
    const update = event('customer.subscription.updated', subscriptionObject(subscription, 'active', 2500, MARKER));
    expect(await deliver(update)).toEqual(written);
    await deliver(event('checkout.session.completed', session));
    const gift = await readDon(session.id);
    expect(gift).toMatchObject({ nature: 'abonnement', abonnementStatut: 'active', abonnement: subscription });
    expect(gift?.abonnementMontant).toBeUndefined();
  });

  it('ignores another site’s subscription', async () => {
    const other = subscriptionObject('sub_test_ailleurs', 'canceled', 900, {});
    expect(await deliver(event('customer.subscription.deleted', other))).toEqual(ignored);
  });

  it('records a failed instalment; its later payment turns it paid, a late failure never undoes that', async () => {
    const invoice = paidInvoice('sub_test_mensuel', 2500, MARKER, undefined, paidIn());
    expect(await deliver(event('invoice.payment_failed', failedInvoice(invoice)))).toEqual(written);
    expect(await readDon(invoice.id)).toMatchObject({
      nature: 'mensualite',
      statut: 'failed',
      montant: 2500,
      abonnement: 'sub_test_mensuel',
      evenement: 'invoice.payment_failed',
    });
    expect(await deliver(event('invoice.payment_failed', failedInvoice(invoice)))).toEqual(unchanged);
    expect(await deliver(event('invoice.paid', invoice))).toEqual(written);
    expect(await readDon(invoice.id)).toMatchObject({ statut: 'paid', montant: 2500 });
    expect(await deliver(event('invoice.payment_failed', failedInvoice(invoice)))).toEqual(unchanged);
    expect(await readDon(invoice.id)).toMatchObject({ statut: 'paid', evenement: 'invoice.paid' });
    const stranger = paidInvoice('sub_test_ailleurs', 2500, {});
    expect(await deliver(event('invoice.payment_failed', failedInvoice(stranger)))).toEqual(ignored);
  });

  it('records a refunded instalment: by the PaymentIntent its invoice named, or a legacy invoice id', async () => {
    const paid = {
      ...paidInvoice('sub_test_rembourse', 2500, MARKER, undefined, paidIn()),
      payments: {
        object: 'list',
        data: [{ status: 'paid', payment: { type: 'payment_intent', payment_intent: 'pi_test_mensualite' } }],
      },
    };
    await deliver(event('invoice.paid', paid));
    expect(await readDon(paid.id)).toMatchObject({ paiement: 'pi_test_mensualite' });
    expect(await deliver(event('charge.refunded', refundedCharge('pi_test_mensualite', 2500, 2500)))).toEqual(written);
    expect(await readDon(paid.id)).toMatchObject({ rembourse: 2500, statut: 'paid' });

    // As Stripe sends them today: the invoice without its payments, the charge without its invoice.
    const today = paidInvoice('sub_test_rembourse', 2500, MARKER, undefined, paidIn());
    await deliver(event('invoice.paid', today));
    fake.addInvoicePayment(today.id, 'pi_test_mensualite2');
    const disputed = event('charge.dispute.created', disputeOf('pi_test_mensualite2', 2500, 'needs_response'));
    expect(await deliver(disputed)).toEqual(written);
    expect(await readDon(today.id)).toMatchObject({ litige: 'ouvert', statut: 'paid' });
    const charge = event('charge.refunded', refundedCharge('pi_test_mensualite2', 2500, 500));
    expect(await deliver(charge)).toEqual(written);
    expect(await readDon(today.id)).toMatchObject({ rembourse: 500 });
    const lookups = fake.requests().filter((request) => request.path === '/v1/invoice_payments');
    expect(lookups.filter((lookup) => lookup.query['payment[payment_intent]'] === 'pi_test_mensualite2')).toHaveLength(
      2,
    );

    // The Invoice Payments API is asked with the invoice expanded: its subscription's marker says it is this site's.
    const byPayment = lookups.filter((lookup) => lookup.query['payment[payment_intent]'] === 'pi_test_mensualite2');
    expect(byPayment.map((lookup) => lookup.query['expand[0]'])).toEqual(['data.invoice', 'data.invoice']);

    const older = paidInvoice('sub_test_rembourse', 2500, MARKER, undefined, paidIn());
    await deliver(event('invoice.paid', older));
    const legacy = { ...refundedCharge('pi_test_inconnu2', 2500, 1000), invoice: older.id };
    expect(await deliver(event('charge.refunded', legacy))).toEqual(written);
    expect(await readDon(older.id)).toMatchObject({ rembourse: 1000 });
  });

  it('a refund and a dispute of an instalment before its invoice.paid wait for it, then apply to it', async () => {
    const invoice = paidInvoice('sub_test_avance', 2500, MARKER, undefined, paidIn(), 'cus_test_avance');
    // As Stripe sends them today: the charge names its PaymentIntent only, with no marker; its invoice's subscription
    // carries it.
    fake.addInvoicePayment(invoice, 'pi_test_avance');
    const refunded = event('charge.refunded', refundedCharge('pi_test_avance', 2500, 1000));
    expect(await deliver(refunded)).toEqual(written);
    expect(await deliver(refunded)).toEqual(unchanged);
    const disputed = event('charge.dispute.created', disputeOf('pi_test_avance', 2500, 'needs_response'));
    expect(await deliver(disputed)).toEqual(written);
    expect(await readDon(invoice.id)).toBeUndefined();
    const pending = adminFirestore().collection('dons-en-attente').doc(invoice.id);
    expect((await pending.get()).data()).toMatchObject({
      rembourse: 1000,
      litige: 'ouvert',
      paiement: 'pi_test_avance',
    });

    expect(await deliver(event('invoice.paid', invoice))).toEqual(written);
    expect(await readDon(invoice.id)).toMatchObject({
      nature: 'mensualite',
      statut: 'paid',
      montant: 2500,
      rembourse: 1000,
      litige: 'ouvert',
      paiement: 'pi_test_avance',
      client: 'cus_test_avance',
    });
    expect((await pending.get()).exists).toBe(false);
    expect(await deliver(event('invoice.paid', invoice))).toEqual(unchanged);
    // A later event of the instalment finds it by its PaymentIntent, without asking Stripe again.
    const asked = fake.requests().length;
    const won = event('charge.dispute.closed', disputeOf('pi_test_avance', 2500, 'won'));
    expect(await deliver(won)).toEqual(written);
    expect(await readDon(invoice.id)).toMatchObject({ litige: 'gagne', rembourse: 1000 });
    expect(fake.requests()).toHaveLength(asked);

    // Another site's instalment on the same Stripe account (its subscription without the marker) is not waited for.
    const stranger = paidInvoice('sub_test_ailleurs2', 2500, {});
    fake.addInvoicePayment(stranger, 'pi_test_ailleurs2');
    expect(await deliver(event('charge.refunded', refundedCharge('pi_test_ailleurs2', 2500, 2500)))).toEqual(ignored);
    expect((await adminFirestore().collection('dons-en-attente').doc(stranger.id).get()).exists).toBe(false);
  });
});

describe('the mode of payment Stripe tells', () => {
  const SEPA = 'Mode de versement Prélèvement SEPA (paiement en ligne sécurisé par Stripe)';

  it('a session that offered card and SEPA debit: its receipt names the method used, read from Stripe', async () => {
    year = 2010;
    const session = ourSession({ payment_method_types: ['card', 'sepa_debit'] });
    fake.setPaymentMethod(session.payment_intent, 'sepa_debit');
    expect(await deliver(event('checkout.session.completed', session))).toEqual(written);
    expect(await readDon(session.id)).toMatchObject({ moyen: 'prelevement', recu: '2010-00001' });
    expect(await pdfText(session.id)).toContain(SEPA);
    const [asked] = fake
      .requests()
      .filter((request) => request.path === `/v1/payment_intents/${session.payment_intent}`);
    expect(asked?.query['expand[0]']).toBe('payment_method');

    // Stripe unreachable: a replay keeps the method Stripe named; a new gift is recorded all the same, its receipt
    // saying no more than the session did.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fake.behave({ kind: 'error', status: 500 });
    expect(await deliver(event('checkout.session.completed', session))).toEqual(unchanged);
    expect(await readDon(session.id)).toMatchObject({ moyen: 'prelevement' });
    const other = ourSession({ payment_method_types: ['card', 'sepa_debit'] });
    const recorded = await deliver(event('checkout.session.completed', other)).finally(() =>
      fake.behave({ kind: 'ok' }),
    );
    vi.restoreAllMocks();
    expect(recorded).toEqual(written);
    expect(await readDon(other.id)).toMatchObject({ moyen: 'en-ligne', statut: 'paid' });
    expect(await pdfText(other.id)).toContain('Mode de versement Paiement en ligne sécurisé par Stripe');
  });

  it('a monthly instalment paid by SEPA debit: recorded so, and the yearly receipt says so', async () => {
    year = 2011;
    const invoice = paidInvoice('sub_test_sepa', 2500, MARKER, undefined, paidIn(), 'cus_test_sepa');
    fake.addInvoicePayment(invoice.id, 'pi_test_sepa');
    fake.setPaymentMethod('pi_test_sepa', 'sepa_debit');
    expect(await deliver(event('invoice.paid', invoice))).toEqual(written);
    // Its PaymentIntent too: a later refund or dispute finds the instalment without asking Stripe.
    expect(await readDon(invoice.id)).toMatchObject({ moyen: 'prelevement', paiement: 'pi_test_sepa' });

    const db = adminFirestore();
    const report = await issueYearlyReceipts(db, 2011, siteReceiptContext, { deadlineMs: 60_000 });
    expect(report.issued).toEqual([['cus_test_sepa-2011', '2011-00001']]);
    const mail = (
      await db
        .collection('outbox')
        .doc(`recus-annuels-${logId('cus_test_sepa-2011')}`)
        .get()
    ).data();
    const pdf = new Uint8Array(mail?.attachments[0].content);
    const text = (await extractText(await getDocumentProxy(pdf), { mergePages: true })).text.replace(/\s+/g, ' ');
    expect(text).toContain(SEPA);
    expect(text).not.toContain('Carte bancaire');
  });
});
