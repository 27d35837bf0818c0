/**
 * The donors' mails: Stripe's signed events to POST /api/stripe-webhook record a paid gift, and the donor receives
 * one thank-you with the PDF receipt (a one-off gift) or one confirmation saying how to stop (a monthly gift), once
 * whatever Stripe replays. The scheduled jobs' receipts read the association as the site does.
 */
import { randomUUID } from 'node:crypto';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Timestamp } from 'firebase-admin/firestore';
import { siteNumberedGiftMails } from '../../src/features/donations/receipts/gift-mails.server';
import { recordPatch } from '../../src/features/donations/ledger/ledger-writes.server';
import { jobReceiptContext } from '../../src/features/donations/receipts/receipt-mails.server';
import {
  numberReceipts,
  queueReceiptMails,
  type NumberedGiftMails,
} from '../../src/features/donations/receipts/receipt-numbering.server';
import { trySend } from '../../src/features/mail/mail-env.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { paidSession, refundedCharge, stripeEvent, type FAKE_DONOR } from '../fixtures/fake-stripe';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { deliver } from '../fixtures/webhook';

let world: MailWorld;

beforeAll(async () => {
  world = await startMailWorld();
});

afterAll(() => world?.stop());

/** A donor of their own, so that each test reads its own mails. */
function donor(): typeof FAKE_DONOR {
  const email = `donateur-${randomUUID().slice(0, 8)}@exemple.fr`;
  return {
    name: 'Jeanne Dupont',
    email,
    address: { line1: '8 quai Rambaud', line2: '', postal_code: '69002', city: 'Lyon', country: 'FR', state: null },
  } as unknown as typeof FAKE_DONOR;
}

const session = (mode: 'payment' | 'subscription', amount: number, person: typeof FAKE_DONOR) =>
  paidSession(
    {
      id: `cs_test_${randomUUID().replaceAll('-', '')}`,
      object: 'checkout.session',
      amount_total: amount,
      currency: 'eur',
      metadata: { origine: 'site-association' },
      mode,
    },
    person,
  );

/** An event of live mode (Stripe's live keys): only its gifts get a tax receipt. */
const liveEvent = (type: string, object: Record<string, unknown>) => ({ ...stripeEvent(type, object), livemode: true });

/** Delivers `event` twice (Stripe retries) and returns the one mail `person` received. */
async function onlyMailAfter(event: unknown, person: typeof FAKE_DONOR) {
  expect(await deliver(event)).toBe(200);
  expect(await deliver(event)).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const mails = world.smtp.mails.filter((mail) => mail.to.includes(person.email));
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

describe('a paid one-off gift', () => {
  it('sends the donor one thank-you with the receipt attached, however often Stripe delivers the event', async () => {
    const person = donor();
    const event = liveEvent('checkout.session.completed', session('payment', 5000, person));
    const mail = await onlyMailAfter(event, person);
    const year = new Date().getFullYear();
    expect(mail.subject).toMatch(new RegExp(`^Merci pour votre don : votre reçu fiscal n° ${year}-\\d{5}$`));
    expect(mail.headers['reply-to']).toBe('equipe@exemple.org');
    expect(mail.text).toContain('Bonjour Jeanne Dupont,');
    expect(mail.text).toContain('Nous avons bien reçu votre don de 50,00');
    expect(mail.text).toContain('votre don vous coûte 17');
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toMatch(new RegExp(`^recu-fiscal-${year}-\\d{5}\\.pdf$`));
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf!.content)), { mergePages: true });
    expect(text).toContain('Jeanne Dupont');
    expect(text).toContain('50,00');
  });
});

describe('a one-off gift paid with Stripe’s test keys', () => {
  it('tells the donor it was a test and attaches a specimen without tax value, not a receipt', async () => {
    const person = donor();
    const event = stripeEvent('checkout.session.completed', session('payment', 1_000_000, person));
    expect(event.livemode).toBe(false);
    const mail = await onlyMailAfter(event, person);
    const year = new Date().getFullYear();
    expect(mail.subject).toMatch(
      new RegExp(`^Paiement de test : spécimen n° TEST-${year}-[0-9a-f]{12}, sans valeur fiscale$`),
    );
    const text = mail.text.replace(/\s+/g, ' ');
    expect(text).toContain('Ce paiement de 10 000,00 € est un paiement de test');
    expect(text).toContain('aucune somme n’a été versée');
    expect(text).toContain('est un spécimen sans valeur fiscale');
    expect(text).not.toContain('reçu fiscal');
    expect(text).not.toContain('66 %');
    const [pdf] = mail.attachments;
    expect(pdf!.filename).toMatch(new RegExp(`^specimen-TEST-${year}-[0-9a-f]{12}\\.pdf$`));
    const read = await extractText(await getDocumentProxy(new Uint8Array(pdf!.content)), { mergePages: true });
    expect(read.text).toContain('SPÉCIMEN — paiement de test, sans valeur fiscale');
  });
});

describe('a monthly gift', () => {
  it('sends the donor one confirmation that links to managing it', async () => {
    const person = donor();
    const event = stripeEvent('checkout.session.completed', session('subscription', 2500, person));
    const mail = await onlyMailAfter(event, person);
    expect(mail.subject).toBe('Merci pour votre don mensuel de 25 €');
    expect(mail.attachments).toHaveLength(0);
    const text = mail.text.replace(/\s+/g, ' ');
    expect(text).toContain(
      'Pour changer le montant, mettre à jour votre carte ou arrêter votre don mensuel, à tout moment et sans ' +
        'justification, demandez votre lien de gestion sur',
    );
    expect(text).toContain('/soutenir/gerer');
    expect(text).toContain('ou écrivez à equipe@exemple.org.');
  });
});

describe('a receipt cancelled after the gift', () => {
  /** Pays a live one-off gift of 50 € for `person`; its session and the receipt number of its thank-you. */
  async function paidGift(person: typeof FAKE_DONOR) {
    const paid = session('payment', 5000, person);
    await onlyMailAfter(liveEvent('checkout.session.completed', paid), person);
    const thanks = world.smtp.mails.find((mail) => mail.to.includes(person.email))!;
    return { paid, number: /n° (\S+)$/.exec(thanks.subject)![1]! };
  }
  const refund = (paid: ReturnType<typeof session>, total: number) =>
    liveEvent('charge.refunded', refundedCharge(paid.payment_intent as string, 5000, total));
  /** Delivers `event` twice and returns the mails `person` received since `before`. */
  async function mailsAfter(event: unknown, person: typeof FAKE_DONOR, before: number) {
    expect(await deliver(event)).toBe(200);
    expect(await deliver(event)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return world.smtp.mails.filter((mail) => mail.to.includes(person.email)).slice(before);
  }

  it('a partial refund: one mail with the corrected receipt attached, which names the number it replaces', async () => {
    const person = donor();
    const { paid, number } = await paidGift(person);
    const [mail, ...more] = await mailsAfter(refund(paid, 2000), person, 1);
    expect(more).toHaveLength(0);
    const corrected = /^Votre reçu fiscal rectificatif n° (\S+) \(remplace le n° (\S+)\)$/.exec(mail!.subject);
    expect(corrected?.[2]).toBe(number);
    expect(corrected?.[1]).not.toBe(number);
    const text = mail!.text.replace(/\s+/g, ' ');
    expect(text).toContain('Une partie de votre don, 20,00 €, vous a été remboursée.');
    expect(text).toContain(
      `Votre reçu fiscal n° ${number} est annulé. Il est remplacé par le reçu fiscal rectificatif`,
    );
    expect(text).toContain('de 30,00 €, joint à ce message');
    const [pdf] = mail!.attachments;
    expect(pdf!.filename).toBe(`recu-fiscal-${corrected?.[1]}.pdf`);
    const read = await extractText(await getDocumentProxy(new Uint8Array(pdf!.content)), { mergePages: true });
    const flat = read.text.replace(/\s+/g, ' ');
    expect(flat).toContain(`Reçu rectificatif : il annule et remplace le n° ${number}`);
    expect(flat).toContain('30,00 €');
  });

  it('a full refund: one mail saying the receipt is cancelled, nothing attached', async () => {
    const person = donor();
    const { paid, number } = await paidGift(person);
    const [mail, ...more] = await mailsAfter(refund(paid, 5000), person, 1);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Votre reçu fiscal n° ${number} est annulé`);
    expect(mail!.attachments).toHaveLength(0);
    const text = mail!.text.replace(/\s+/g, ' ');
    expect(text).toContain('Votre don vous a été remboursé.');
    expect(text).toContain(`Votre reçu fiscal n° ${number} est annulé : il ne peut plus servir pour votre déclaration`);
  });
});

describe('a receipt renumbered while its first mail is rendered', () => {
  it('mails the corrected receipt: the mark is kept for it, never cleared by the older rendering', async () => {
    const person = donor();
    const db = adminFirestore();
    const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
    const paymentIntent = `pi_test_${randomUUID().replaceAll('-', '')}`;
    // A live gift recorded and numbered, its thank-you not queued yet (the webhook's bound ran out).
    await db.collection('dons').doc(id).set({
      montant: 5000,
      devise: 'eur',
      prenom: '',
      nom: person.name,
      email: person.email,
      adresse: '8 quai Rambaud',
      postal: '69002',
      ville: 'Lyon',
      pays: 'FR',
      statut: 'paid',
      nature: 'don',
      livemode: true,
      evenement: 'checkout.session.completed',
      session: id,
      abonnement: '',
      datePaiement: Timestamp.now(),
      date: Timestamp.now(),
      paiement: paymentIntent,
      aNumeroter: true,
    });
    const [[, first] = ['', '']] = await numberReceipts(db, [id]);
    const render = siteNumberedGiftMails();
    let refunded = false;
    // While the first receipt's PDF is rendered, 20 € are refunded and the sweep numbers the corrected receipt.
    const mailsFor: NumberedGiftMails = async (giftId, gift) => {
      const mails = await render(giftId, gift);
      if (!refunded) {
        refunded = true;
        const target = { kind: 'paiement' as const, paymentIntent, invoice: '', ours: true };
        await recordPatch({ target, patch: { rembourse: 2000 }, evenement: 'charge.refunded' });
        await numberReceipts(db, [giftId]);
      }
      return mails;
    };
    const queued = await queueReceiptMails(db, [id], mailsFor);
    await trySend(queued, 5000);
    const gift = (await db.collection('dons').doc(id).get()).data();
    expect(gift).toMatchObject({ recuAEnvoyer: false, rembourse: 2000 });
    expect(gift?.recu).not.toBe(first);
    const mails = world.smtp.mails.filter((mail) => mail.to.includes(person.email));
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Votre reçu fiscal rectificatif n° ${gift?.recu} (remplace le n° ${first})`,
    ]);
    expect(mails[0]!.text.replace(/\s+/g, ' ')).toContain('de 30,00 €, joint à ce message');
  });
});

describe('the receipts of the scheduled jobs (outbox drain, yearly receipts)', () => {
  it('print the association’s lines saved in the space, each field else the environment’s', async () => {
    const firestore = adminFirestore();
    await firestore
      .collection('articles')
      .doc('adresse')
      .set({ titre: 'Association Les Essais', intro: '<p>3 rue des Tests</p><p>69001 Lyon</p>', cat: 'divers' });
    await firestore
      .collection('association')
      .doc('site')
      .set({ objet: '', enregistrement: ' RNA W691234567 ', signataire: 42 });
    const context = await jobReceiptContext(firestore, {
      ASSOCIATION_OBJECT: 'Objet déclaré',
      ASSOCIATION_REGISTRATION: 'RNA W000000000',
      ASSOCIATION_SIGNATORY: 'Sam Trésorier, trésorier',
      SITE_URL: 'https://association.example/soutenir',
    });
    expect(context.issuer).toEqual({
      name: 'Association Les Essais',
      addressLines: ['3 rue des Tests', '69001 Lyon'],
      object: 'Objet déclaré',
      registration: 'RNA W691234567',
      signatory: 'Sam Trésorier, trésorier',
    });
    expect(context.identity.siteUrl).toBe('https://association.example');
  });
});
