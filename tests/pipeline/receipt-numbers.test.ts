/**
 * Receipt numbers in Google's Firestore emulator (real transactions; the embedded one loses concurrent updates):
 * a burst of paid card gifts is recorded without a 503 and numbered afterwards, unique and gap-free; card gifts and
 * the treasurer's cheques share the series under concurrency; a gift whose receipt a partial refund cancelled gets
 * its corrected number; yearly receipts of monthly gifts take theirs beside them, once. Without Java or the
 * emulator's jar: skipped with a message, a failure under CI (tests/fixtures/google-emulator.ts).
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it, vi } from 'vitest';
import { siteNumberedGiftMails, siteReceiptContext } from '../../src/features/donations/receipts/gift-mails.server';
import { receiptYear } from '../../src/features/donations/checkout/donations';
import {
  numberPendingReceipts,
  pendingReceiptIds,
} from '../../src/features/donations/receipts/receipt-numbering.server';
import { YEARLY_RECEIPTS } from '../../src/features/donations/yearly/stored-receipt.server';
import { issueYearlyReceipts } from '../../src/features/donations/yearly/issue-receipts.server';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { offlineGiftSchema, recordOfflineGift } from '../../src/features/donations/ledger/gift-entry.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { logId } from '../../src/lib/log-id.server';
import * as recu from '../../src/pages/api/recu';
import { paidSession, stripeEvent, type FAKE_DONOR } from '../fixtures/fake-stripe';
import { googleFirestoreForFile } from '../fixtures/firestore-gateway';
import { deliver } from '../fixtures/webhook';

const jar = googleFirestoreForFile('receipt-numbers', 'the concurrency tests');

const year = receiptYear(new Date());
const number = (sequence: number) => `${year}-${String(sequence).padStart(5, '0')}`;
const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => number(from + index));

/** A live paid one-off session of `cents` by a donor of their own. */
function liveSession(cents = 2500) {
  const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
  const donor = {
    name: 'Jeanne Dupont',
    email: `donateur-${randomUUID().slice(0, 8)}@exemple.fr`,
    address: { line1: '8 quai Rambaud', postal_code: '69002', city: 'Lyon', country: 'FR' },
  } as unknown as typeof FAKE_DONOR;
  const session = paidSession(
    { id, object: 'checkout.session', amount_total: cents, currency: 'eur', metadata: { origine: 'site-association' } },
    donor,
  );
  return {
    id,
    event: { ...stripeEvent('checkout.session.completed', { ...session, mode: 'payment' }), livemode: true },
  };
}

/** Runs the scheduled sweep until nothing waits for a number (the webhook's own attempts may still be running). */
async function sweepUntilDone(db: Firestore): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    await numberPendingReceipts(db, siteNumberedGiftMails(), { deadlineMs: 30_000 }).catch(() => undefined);
    if ((await pendingReceiptIds(db)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('gifts still wait for a number');
}

const receiptNumbers = async (db: Firestore) =>
  (await db.collection('dons').get()).docs
    .map((document) => document.get('recu') as string | undefined)
    .filter((value): value is string => typeof value === 'string' && !value.startsWith('TEST-'));
const counter = async (db: Firestore) => (await db.collection('compteurs').doc(`recus-${year}`).get()).data();

const treasurer: StaffSession = {
  uid: 'uid-tresorerie',
  email: 'tresorerie@exemple.org',
  roles: ['tresorerie'],
  authTime: Math.floor(Date.now() / 1000),
};

describe.skipIf(!jar)('receipt numbers in Google’s emulator', () => {
  const BURST = 50;

  const burstTitle = `${BURST} paid gifts at once are all recorded without a 503, then numbered 1 to ${BURST}, thanked`;
  it(
    burstTitle,
    async () => {
      const db = adminFirestore();
      // The emulator's first answers take seconds on a loaded machine: warm it up first.
      await db.runTransaction(async (transaction) => transaction.set(db.collection('chauffe').doc('x'), { ok: true }));
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const gifts = Array.from({ length: BURST }, () => liveSession());

      const statuses = await Promise.all(gifts.map((gift) => deliver(gift.event)));
      expect(statuses).toEqual(gifts.map(() => 200));
      // Stripe's replays of the same events, all at once again: still 200, nothing numbered twice.
      expect(await Promise.all(gifts.map((gift) => deliver(gift.event)))).toEqual(gifts.map(() => 200));
      await sweepUntilDone(db);

      expect((await db.collection('dons').get()).size).toBe(BURST);
      expect((await receiptNumbers(db)).sort()).toEqual(numbers(1, BURST));
      expect(await counter(db)).toEqual({ annee: year, dernier: BURST });
      for (const { id } of gifts) {
        const gift = (await db.collection('dons').doc(id).get()).data()!;
        expect(gift).toMatchObject({ aNumeroter: false, recuAEnvoyer: false });
        const mail = (
          await db
            .collection('outbox')
            .doc(`dons-${logId(id)}-merci`)
            .get()
        ).data()!;
        expect(mail.subject).toBe(`Merci pour votre don : votre reçu fiscal n° ${gift.recu}`);
        expect(mail.attachments[0].filename).toBe(`recu-fiscal-${gift.recu}.pdf`);
      }
      const thanks = (await db.collection('outbox').get()).docs.filter((document) => document.id.endsWith('-merci'));
      expect(thanks).toHaveLength(BURST);
    },
    600_000,
  );

  it('a paid gift waiting for its number is « en préparation » on the thank-you page, never a receipt', async () => {
    const db = adminFirestore();
    const { id, event } = liveSession();
    const { giftFromSession } = await import('../../src/features/donations/ledger/gift.server');
    const gift = giftFromSession(event as never, event.data.object as never);
    await db
      .collection('dons')
      .doc(id)
      .set({ ...gift, date: Timestamp.now(), aNumeroter: true });
    const ask = (accept: string) =>
      recu.GET({
        request: new Request(`https://dons.exemple.org/api/recu?session_id=${id}`, { headers: { accept } }),
      } as never);
    expect(await (await ask('application/json')).json()).toEqual({ ok: true, etat: 'attente' });
    expect((await ask('application/pdf')).status).toBe(404);
    expect(
      (
        await db
          .collection('outbox')
          .doc(`dons-${logId(id)}-merci`)
          .get()
      ).exists,
    ).toBe(false);
    await sweepUntilDone(db);
    expect(await (await ask('application/json')).json()).toEqual({ ok: true, etat: 'pret', numero: number(BURST + 1) });
  });

  it('card gifts and the treasurer’s cheques recorded at the same time share the series without gaps', async () => {
    const db = adminFirestore();
    const before = Number((await counter(db))?.dernier ?? 0);
    const cards = Array.from({ length: 20 }, () => liveSession(5000));
    const cheques = Array.from({ length: 10 }, (_, index) =>
      offlineGiftSchema.parse({
        cle: randomUUID(),
        moyen: index % 2 ? 'cheque' : 'virement',
        date: new Date().toISOString().slice(0, 10),
        montant: '150',
        prenom: 'Jeanne',
        nom: `Donateur ${index}`,
        adresse: '12 rue Victor Hugo',
        postal: '69002',
        ville: 'Lyon',
        email: '',
      }),
    );
    const [cardStatuses, recorded] = await Promise.all([
      Promise.all(cards.map((gift) => deliver(gift.event))),
      Promise.all(cheques.map((entry) => recordOfflineGift(treasurer, entry))),
    ]);
    expect(cardStatuses).toEqual(cards.map(() => 200));
    expect(new Set(recorded.map((gift) => gift.recu)).size).toBe(cheques.length);
    await sweepUntilDone(db);
    expect((await receiptNumbers(db)).sort()).toEqual(numbers(1, before + 30));
    expect(await counter(db)).toEqual({ annee: year, dernier: before + 30 });
  }, 600_000);

  it('a gift whose receipt a partial refund cancelled gets a corrected receipt’s number, mailed once', async () => {
    const db = adminFirestore();
    const before = Number((await counter(db))?.dernier ?? 0);
    const { id, event } = liveSession(10_000);
    const { giftFromSession } = await import('../../src/features/donations/ledger/gift.server');
    const cancelled = { numero: number(3), date: Timestamp.now(), motif: 'remboursement' };
    await db
      .collection('dons')
      .doc(id)
      .set({
        ...giftFromSession(event as never, event.data.object as never),
        date: Timestamp.now(),
        rembourse: 4000,
        recusAnnules: [cancelled],
      });
    await sweepUntilDone(db);
    await sweepUntilDone(db);
    const gift = (await db.collection('dons').doc(id).get()).data()!;
    expect(gift.recu).toBe(number(before + 1));
    expect(gift.recusAnnules).toHaveLength(1);
    const mail = (
      await db
        .collection('outbox')
        .doc(`dons-${logId(id)}-annule-${number(3)}`)
        .get()
    ).data()!;
    // The notice of the cancelled receipt carries the corrected one: one mail, once the number exists.
    expect(mail.subject).toBe(`Votre reçu fiscal rectificatif n° ${gift.recu} (remplace le n° ${number(3)})`);
    expect(mail.kind).toBe('don-recu-rectificatif');
    expect(await counter(db)).toEqual({ annee: year, dernier: before + 1 });
  });

  it('yearly receipts: paid instalments less refunds, lost disputes left out, beside card gifts', async () => {
    const db = adminFirestore();
    const before = Number((await counter(db))?.dernier ?? 0);
    const instalment = (fields: Record<string, unknown>) => ({
      montant: 2500,
      devise: 'eur',
      prenom: '',
      nom: 'Louise Martin',
      email: 'louise.martin@exemple.fr',
      adresse: '3 rue de la République',
      postal: '69001',
      ville: 'Lyon',
      pays: 'FR',
      statut: 'paid',
      nature: 'mensualite',
      livemode: true,
      evenement: 'invoice.paid',
      session: '',
      abonnement: 'sub_louise',
      client: 'cus_louise',
      datePaiement: Timestamp.fromDate(new Date(`${year}-01-15T10:00:00Z`)),
      date: Timestamp.now(),
      ...fields,
    });
    const at = (month: string) => ({ datePaiement: Timestamp.fromDate(new Date(`${year}-${month}-15T10:00:00Z`)) });
    const writes = {
      in_louise_01: instalment(at('01')),
      // Recorded before the customer id was: the same subscription, the same donor.
      in_louise_02: instalment({ ...at('02'), client: undefined }),
      in_louise_03: instalment({ ...at('03'), rembourse: 1000 }),
      in_louise_04: instalment({ ...at('04'), statut: 'failed' }),
      in_louise_05: instalment({ ...at('05'), livemode: false }),
      // A dispute lost: the bank gave the money back, no gift to certify.
      in_louise_07: instalment({ ...at('07'), litige: 'perdu' }),
      in_louise_prev: instalment({ datePaiement: Timestamp.fromDate(new Date(`${year - 1}-12-15T10:00:00Z`)) }),
      in_paul_01: instalment({
        ...at('06'),
        client: 'cus_paul',
        abonnement: 'sub_paul',
        nom: 'Paul Durand',
        email: '',
      }),
    };
    for (const [id, gift] of Object.entries(writes)) {
      await db
        .collection('dons')
        .doc(id)
        .set(Object.fromEntries(Object.entries(gift).filter(([, value]) => value !== undefined)));
    }
    const cards = Array.from({ length: 10 }, () => liveSession());
    const issue = () => issueYearlyReceipts(db, year, siteReceiptContext, { deadlineMs: 60_000 });
    const [first, statuses] = await Promise.all([issue(), Promise.all(cards.map((gift) => deliver(gift.event)))]);
    expect(statuses).toEqual(cards.map(() => 200));
    await sweepUntilDone(db);
    expect(first.issued.map(([id]) => id).sort()).toEqual([`cus_louise-${year}`, `cus_paul-${year}`]);
    expect((await receiptNumbers(db)).length + 2).toBe(before + 12);
    const all = [...(await receiptNumbers(db)), ...first.issued.map(([, numero]) => numero)];
    expect(all.sort()).toEqual(numbers(1, before + 12));

    const louise = (await db.collection(YEARLY_RECEIPTS).doc(`cus_louise-${year}`).get()).data()!;
    expect(louise).toMatchObject({
      annee: year,
      montant: 6500,
      mensualites: ['in_louise_01', 'in_louise_02', 'in_louise_03'],
      donateur: 'cus_louise',
      nom: 'Louise Martin',
    });
    const mail = (
      await db
        .collection('outbox')
        .doc(`recus-annuels-${logId(`cus_louise-${year}`)}`)
        .get()
    ).data()!;
    expect(mail.to).toBe('louise.martin@exemple.fr');
    expect(mail.subject).toBe(`Votre reçu fiscal ${year} pour vos dons mensuels : n° ${louise.numero}`);
    expect(mail.text).toContain('s’élèvent à 65,00');
    const pdf = new Uint8Array(mail.attachments[0].content);
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain(`Reçu n° ${louise.numero}`);
    expect(text).toContain(`Dons mensuels du 1er janvier au 31 décembre ${year}`);
    expect(text).toMatch(/Nombre de versements\s+3\s/);
    expect(text).toMatch(/Ces dons ouvrent droit à une réduction d’impôt .* soit\s42,90\s€/s);
    expect(text).toMatch(/Montant\s+65,00\s€/);
    expect(text).toContain('Carte bancaire');
    // Paul gave no email: his receipt exists, for the treasurer to download, and no mail is queued.
    expect(
      (
        await db
          .collection('outbox')
          .doc(`recus-annuels-${logId(`cus_paul-${year}`)}`)
          .get()
      ).exists,
    ).toBe(false);

    // Running the job again issues nothing, numbers nothing and queues nothing.
    const outbox = (await db.collection('outbox').get()).size;
    const again = await issue();
    expect(again).toMatchObject({ issued: [], existing: 2, left: 0, mails: [] });
    expect((await db.collection('outbox').get()).size).toBe(outbox);
    expect(await counter(db)).toEqual({ annee: year, dernier: before + 12 });
  }, 600_000);
});
