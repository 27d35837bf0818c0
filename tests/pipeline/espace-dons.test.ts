/**
 * The treasurer's ledger in the space against the embedded Firestore and the SMTP catcher: a cheque recorded takes the
 * next number of the year after card gifts (the same gap-free series), once per form; a receipt sent again queues
 * exactly one mail with the PDF and never a second number; the CSV export read back; other roles refused, nothing
 * written. Concurrency of the numbering: tests/pipeline/receipt-numbers.test.ts (Google's emulator).
 */
import { createHash, randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportGifts, listGifts, receiptOf } from '../../src/features/donations/ledger/ledger-reads.server';
import {
  offlineGiftSchema,
  recordOfflineGift,
  resendReceipt,
} from '../../src/features/donations/ledger/gift-entry.server';
import { receiptYear } from '../../src/features/donations/checkout/donations';
import { SITE_MARKER } from '../../src/features/donations/checkout/stripe.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { paidSession, stripeEvent, type FAKE_DONOR } from '../fixtures/fake-stripe';
import { outboxDocuments, startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { deliver } from '../fixtures/webhook';
import { staffSession } from '../fixtures/staff';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

const staff = staffSession;
const treasurer = staff('tresorerie');
const year = receiptYear(new Date());
const today = new Date().toISOString().slice(0, 10);

/** Delivers a paid one-off card gift of `cents` by `name` (live unless `livemode` is false); its session id. */
async function cardGift(cents: number, name: string, livemode = true): Promise<string> {
  const email = `donateur-${randomUUID().slice(0, 8)}@exemple.fr`;
  const donor = {
    name,
    email,
    address: { line1: '8 quai Rambaud', postal_code: '69002', city: 'Lyon', country: 'FR' },
  };
  const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
  const session = { id, object: 'checkout.session', amount_total: cents, currency: 'eur', mode: 'payment' };
  const object = paidSession({ ...session, metadata: { ...SITE_MARKER } }, donor as unknown as typeof FAKE_DONOR);
  expect(await deliver({ ...stripeEvent('checkout.session.completed', object), livemode })).toBe(200);
  return id;
}

/** How outbox ids name a gift (a session id opens a receipt): 12 hex digits of its SHA-256. */
const hashed = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 12);
const stored = async (id: string) => (await adminFirestore().collection('dons').doc(id).get()).data();
const lastNumber = async () =>
  Number((await adminFirestore().collection('compteurs').doc(`recus-${year}`).get()).data()?.dernier ?? 0);
const cheque = (fields: Record<string, string> = {}) =>
  offlineGiftSchema.parse({
    cle: randomUUID(),
    moyen: 'cheque',
    date: today,
    montant: '150,50',
    prenom: 'Paul',
    nom: 'Lefèvre',
    adresse: '12 rue Victor Hugo',
    postal: '69002',
    ville: 'Lyon',
    email: '',
    ...fields,
  });

describe('a cheque recorded in the space', () => {
  it('takes the next number of the year after card gifts, and a second post of the form takes none', async () => {
    const card = await cardGift(5000, 'Jeanne Dupont');
    const cardNumber = (await stored(card))!.recu as string;
    expect(cardNumber).toMatch(new RegExp(`^${year}-\\d{5}$`));
    const entry = cheque();
    const { id, recu } = await recordOfflineGift(treasurer, entry);
    expect(recu).toBe(`${year}-${String(Number(cardNumber.slice(5)) + 1).padStart(5, '0')}`);
    expect(await lastNumber()).toBe(Number(cardNumber.slice(5)) + 1);
    expect(await stored(id)).toMatchObject({ montant: 15050, moyen: 'cheque', statut: 'paid', recu, livemode: true });
    expect(await recordOfflineGift(treasurer, entry)).toEqual({ id, recu });
    expect(await lastNumber()).toBe(Number(cardNumber.slice(5)) + 1);
    const next = await cardGift(2500, 'Ana García');
    expect((await stored(next))!.recu).toBe(`${year}-${String(Number(recu.slice(5)) + 1).padStart(5, '0')}`);

    const { pdf } = await receiptOf(treasurer, id);
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain('Chèque');
    expect(text).not.toContain('Carte bancaire');
    expect(text).toContain('150,50');
    expect(text).toContain(`Reçu n° ${recu}`);
  });

  it('refuses bad input in French', () => {
    const bad = (fields: Record<string, string>) =>
      offlineGiftSchema.safeParse({ ...cheque(), montant: '150', ...fields }).error?.issues[0]?.message;
    expect(bad({ montant: 'cent' })).toBe('Merci de saisir le montant en euros, par exemple 150,00');
    expect(bad({ montant: '0' })).toBe('Le montant doit être compris entre 0,01 € et 1 000 000 €');
    expect(bad({ nom: '  ' })).toBe('Merci de saisir le nom du donateur');
    expect(bad({ prenom: '' })).toBe('Merci de saisir le prénom du donateur');
    expect(bad({ donateur: 'entreprise', entreprise: ' ' })).toBe('Merci de saisir la dénomination de l’entreprise');
    expect(bad({ donateur: 'entreprise', entreprise: 'SARL', siren: '732829321' })).toBe(
      'Ce numéro SIREN n’existe pas : vérifiez ses 9 chiffres (ou laissez le champ vide)',
    );
    expect(bad({ date: '2999-01-01' })).toBe('La date du versement doit être valide et au plus tard aujourd’hui');
    expect(bad({ moyen: 'especes' })).toBe('Merci de choisir le moyen de paiement : chèque ou virement');
    expect(bad({ email: 'paul@' })).toBe('Merci de saisir une adresse email valide, ou rien');
  });
});

describe('sending a receipt again', () => {
  it('queues one mail with the PDF per form, however often it is posted, and never a second number', async () => {
    const id = await cardGift(10000, 'Chloé Bernard');
    const before = await stored(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const to = before!.email as string;
    expect(world.smtp.mails.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    const counter = await lastNumber();
    const key = randomUUID();
    // A double click: the same form posted twice at once, then once more.
    expect(await Promise.all([resendReceipt(treasurer, id, key), resendReceipt(treasurer, id, key)])).toEqual([to, to]);
    expect(await resendReceipt(treasurer, id, key)).toBe(to);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...(await outboxDocuments(`dons-${hashed(id)}-renvoi-`)).keys()]).toHaveLength(1);
    const mails = world.smtp.mails.filter((mail) => mail.to.includes(to));
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(`Merci pour votre don : votre reçu fiscal n° ${before!.recu}`);
    expect(mails[1]!.attachments[0]!.filename).toBe(`recu-fiscal-${before!.recu}.pdf`);
    expect(await lastNumber()).toBe(counter);
    expect((await stored(id))!.recu).toBe(before!.recu);
  });
});

describe('the ledger of a year', () => {
  it('shows test gifts apart, outside the totals, and exports the live ones for a spreadsheet', async () => {
    const { totals: before } = await listGifts(treasurer, year);
    const test = await cardGift(777700, 'Test Payeur', false);
    await recordOfflineGift(treasurer, cheque({ nom: '=HYPERLINK("http://x")', moyen: 'virement', montant: '20' }));
    const ledger = await listGifts(treasurer, year);
    expect(ledger.test.map((row) => row.id)).toContain(test);
    expect(ledger.live.map((row) => row.id)).not.toContain(test);
    // The 20 € transfer counts, as one more receipt; the 7 777 € test payment does not.
    expect(ledger.totals.receipts).toBe(before.receipts + 1);
    expect(ledger.totals.receiptsCents).toBe(before.receiptsCents + 2000);
    expect(ledger.totals.receivedCents).toBe(before.receivedCents + 2000);

    const csv = await exportGifts(treasurer, year);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows: string[][] = parse(csv.slice(1), { delimiter: ';' });
    expect(rows[0]).toEqual([
      'date',
      'nom',
      'prénom',
      'email',
      'montant en euros',
      'nature',
      'moyen',
      'statut',
      'reçu',
      'remboursé en euros',
      'litige',
      'reçus annulés',
    ]);
    expect(rows).toHaveLength(ledger.live.length + 1);
    expect(rows.some((row) => row[1]!.includes('Test Payeur'))).toBe(false);
    const transfer = rows.find((row) => row[1] === '\'=HYPERLINK("http://x")');
    expect(transfer?.slice(4, 8)).toEqual(['20,00', 'virement', 'Virement', 'payé']);
    expect(rows.find((row) => row[1] === 'Lefèvre' && row[2] === 'Paul')?.[4]).toBe('150,50');
  });

  it('is refused to admissions and edition, who write nothing', async () => {
    const id = await cardGift(1000, 'Louis Martin');
    const counter = await lastNumber();
    for (const role of ['admissions', 'edition'] as const) {
      const session = staff(role);
      await expect(listGifts(session, year)).rejects.toMatchObject({ status: 403 });
      await expect(exportGifts(session, year)).rejects.toMatchObject({ status: 403 });
      await expect(receiptOf(session, id)).rejects.toMatchObject({ status: 403 });
      await expect(resendReceipt(session, id, randomUUID())).rejects.toMatchObject({ status: 403 });
      await expect(recordOfflineGift(session, cheque())).rejects.toMatchObject({ status: 403 });
    }
    expect(await lastNumber()).toBe(counter);
    expect([...(await outboxDocuments(`dons-${hashed(id)}-renvoi-`)).keys()]).toHaveLength(0);
  });

  it('logs every view, export, download, sending and record', async () => {
    const log = await adminFirestore().collection('espaceJournal').where('qui', '==', treasurer.email).get();
    const actions = new Set(log.docs.map((document) => document.data().action));
    expect([...actions].toSorted()).toEqual(['consultation', 'creation', 'envoi', 'export']);
    // A Checkout Session id opens its receipt: the journal names a card gift by its logId, never by the id.
    const objects = log.docs.map((document) => String(document.data().objet));
    const gifts = (await adminFirestore().collection('dons').get()).docs.map((document) => document.id);
    for (const id of gifts.filter((giftId) => giftId.startsWith('cs_'))) {
      expect(objects.filter((objet) => objet.includes(id))).toEqual([]);
    }
    const receipts = objects.filter((objet) => /^dons\/.* \(reçu .*, (PDF|email)\)$/.test(objet));
    expect(receipts.length).toBeGreaterThanOrEqual(2);
    for (const objet of receipts) expect(objet).toMatch(/^dons\/[0-9a-f]{12} \(reçu /);
  });
});
