/**
 * Receipt numbers under concurrent webhooks, in Google's Firestore emulator (real transactions):
 * every paid one-off gift gets one number, unique and gap-free within its year, however many
 * webhooks arrive at once and however often Stripe retries them. Without Java or the emulator's jar: skipped with
 * a message, a failure under CI (tests/fixtures/google-emulator.ts).
 */
import { STRIPE_WEBHOOK_SECRET } from 'astro:env/server';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import * as webhook from '../../src/pages/api/stripe-webhook';
import { paidSession, stripeEvent } from '../fixtures/fake-stripe';
import { startFirestoreGateway, type FirestoreGateway } from '../fixtures/firestore-gateway';
import { googleEmulatorJar } from '../fixtures/google-emulator';
import { startGoogleFirestore, type GoogleFirestore } from '../../scripts/lib/google-firestore';

const jar = googleEmulatorJar('receipt-numbers', 'the concurrency test');

let emulator: GoogleFirestore | undefined;
let gateway: FirestoreGateway | undefined;

beforeAll(async () => {
  if (!jar) return;
  emulator = await startGoogleFirestore(jar);
  gateway = await startFirestoreGateway(emulator.port);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await emulator?.stop();
});

function signed(event: unknown): Request {
  const payload = JSON.stringify(event);
  return new Request('https://dons.exemple.org/api/stripe-webhook', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: STRIPE_WEBHOOK_SECRET as string,
      }),
    },
    body: payload,
  });
}

/** Delivers every event at once, then, like Stripe, again each one that got no 2xx (at most 15 rounds). */
async function deliverUntilAccepted(events: unknown[]): Promise<number> {
  let pending = events;
  let rounds = 0;
  while (pending.length > 0 && rounds < 15) {
    rounds += 1;
    const statuses = await Promise.all(
      pending.map(async (event) => (await webhook.POST({ request: signed(event) })).status),
    );
    pending = pending.filter((_, index) => statuses[index] !== 200);
  }
  expect(pending).toEqual([]);
  return rounds;
}

const GIFTS = 6;

describe.skipIf(!jar)('receipt numbers in Google’s emulator', () => {
  it(
    `${GIFTS} concurrent paid gifts, each delivered twice at once, get the numbers 1 to ${GIFTS} of the year, once ` +
      `each`,
    async () => {
      const db = adminFirestore();
      // The emulator's first answers take seconds on a loaded machine: warm it up first.
      await db.runTransaction(async (transaction) => transaction.set(db.collection('chauffe').doc('x'), { ok: true }));
      const sessions = Array.from({ length: GIFTS }, (_, index) =>
        paidSession({
          id: `cs_test_concurrent${index}`,
          object: 'checkout.session',
          amount_total: 2500,
          currency: 'eur',
          metadata: { origine: 'site-association' },
          mode: 'payment',
        }),
      );
      // Live mode: a test-mode gift takes no number of the series.
      const events = sessions.map((session) => ({
        ...stripeEvent('checkout.session.completed', session),
        livemode: true,
      }));
      // A 503 (the 8 s limit under contention) is what Stripe retries: the numbers must stay right anyway.
      vi.spyOn(console, 'error').mockImplementation(() => {});
      await deliverUntilAccepted([...events, ...events]);

      const snapshot = await db.collection('dons').get();
      expect(snapshot.size).toBe(GIFTS);
      const year = new Date().getFullYear();
      const numbers = snapshot.docs.map((document) => String(document.get('recu'))).sort();
      expect(numbers).toEqual(
        Array.from({ length: GIFTS }, (_, index) => `${year}-${String(index + 1).padStart(5, '0')}`),
      );
      const counter = await db.collection('compteurs').doc(`recus-${year}`).get();
      expect(counter.data()).toEqual({ annee: year, dernier: GIFTS });

      // Stripe's later retries of the same events change nothing.
      await deliverUntilAccepted(events);
      expect((await db.collection('compteurs').doc(`recus-${year}`).get()).data()).toEqual({
        annee: year,
        dernier: GIFTS,
      });
    },
    600_000,
  );
});
