/**
 * Yearly receipts of monthly gifts corrected after issuing, in Google's Firestore emulator (real transactions: two runs
 * overlap and the treasurer records cheques of the same year meanwhile): an instalment refunded in part → a corrected
 * receipt with the next number of the year's series, the old number void, one mail with the PDF naming it; every
 * instalment refunded → the receipt cancelled, one mail, nothing attached; a dispute lost → corrected; running again
 * changes nothing; the space's rows, totals and download. Without Java or the emulator's jar: skipped with a message,
 * a failure under CI (tests/fixtures/google-emulator.ts).
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { siteReceiptContext } from '../../src/features/donations/receipts/gift-mails.server';
import { receiptYear } from '../../src/features/donations/checkout/donations';
import { YEARLY_RECEIPTS } from '../../src/features/donations/yearly/stored-receipt.server';
import { issueYearlyReceipts, yearsToRun } from '../../src/features/donations/yearly/issue-receipts.server';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { listGifts, yearlyReceiptOf } from '../../src/features/donations/ledger/ledger-reads.server';
import { offlineGiftSchema, recordOfflineGift } from '../../src/features/donations/ledger/gift-entry.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { logId } from '../../src/lib/log-id.server';
import { withDeadlines } from '../fixtures/deadlines';
import { googleFirestoreForFile } from '../fixtures/firestore-gateway';

const jar = googleFirestoreForFile('yearly-corrections', 'the yearly receipts’ corrections');

/** Last year: its receipts are issued this year, and corrected all year long. */
const year = receiptYear(new Date()) - 1;
const number = (sequence: number) => `${year}-${String(sequence).padStart(5, '0')}`;

const treasurer: StaffSession = {
  uid: 'uid-tresorerie',
  email: 'tresorerie@exemple.org',
  roles: ['tresorerie'],
  authTime: Math.floor(Date.now() / 1000),
};

/** A paid live instalment of `cents` by the customer `client`, paid on the 15th of `month` (1–12) of `year`. */
function instalment(client: string, month: number, cents: number, fields: Record<string, unknown> = {}) {
  return {
    montant: cents,
    devise: 'eur',
    prenom: '',
    nom: `Donateur ${client}`,
    email: `${client}@exemple.fr`,
    adresse: '3 rue de la République',
    postal: '69001',
    ville: 'Lyon',
    pays: 'FR',
    statut: 'paid',
    nature: 'mensualite',
    livemode: true,
    evenement: 'invoice.paid',
    session: '',
    abonnement: `sub_${client}`,
    client,
    datePaiement: Timestamp.fromDate(new Date(Date.UTC(year, month - 1, 15, 10))),
    date: Timestamp.now(),
    ...fields,
  };
}

const issue = (db: Firestore) => issueYearlyReceipts(db, year, siteReceiptContext, { deadlineMs: 60_000 });
const receiptOf = async (db: Firestore, client: string) =>
  (await db.collection(YEARLY_RECEIPTS).doc(`${client}-${year}`).get()).data()!;
const outbox = async (db: Firestore) => (await db.collection('outbox').get()).docs;
/** A queued mail as the outbox holds it. */
interface QueuedMail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; content: Uint8Array }[];
}
/** The mails of `client`'s receipt, the first receipt's first (outbox ids sort so). */
const mailsOf = async (db: Firestore, client: string) =>
  (await outbox(db))
    .filter((document) => document.id.startsWith(`recus-annuels-${logId(`${client}-${year}`)}`))
    .map((document) => ({ id: document.id, ...document.data() }) as QueuedMail);
const pdfText = async (mail: QueuedMail) => {
  const pdf = new Uint8Array(mail.attachments[0]!.content);
  // One line of text per line of the page: a sentence may wrap.
  return (await extractText(await getDocumentProxy(pdf), { mergePages: true })).text.replace(/\s+/g, ' ');
};
const counter = async (db: Firestore) => (await db.collection('compteurs').doc(`recus-${year}`).get()).data();

describe.skipIf(!jar)('yearly receipts corrected after issuing, in Google’s emulator', () => {
  it('issues, then corrects, cancels and mails once each, beside cheques of the same year', async () => {
    const db = adminFirestore();
    const gifts: Record<string, ReturnType<typeof instalment>> = {
      in_anne_01: instalment('cus_anne', 1, 2500),
      in_anne_02: instalment('cus_anne', 2, 2500),
      in_anne_03: instalment('cus_anne', 3, 2500),
      in_bruno_01: instalment('cus_bruno', 1, 2000),
      in_bruno_02: instalment('cus_bruno', 2, 2000),
      in_chloe_01: instalment('cus_chloe', 4, 3000),
      in_chloe_02: instalment('cus_chloe', 5, 3000),
      in_chloe_03: instalment('cus_chloe', 6, 3000),
      in_dora_01: instalment('cus_dora', 7, 1000),
    };
    for (const [id, gift] of Object.entries(gifts)) await db.collection('dons').doc(id).set(gift);

    const first = await issue(db);
    expect(first.issued).toEqual([
      [`cus_anne-${year}`, number(1)],
      [`cus_bruno-${year}`, number(2)],
      [`cus_chloe-${year}`, number(3)],
      [`cus_dora-${year}`, number(4)],
    ]);
    expect(first.mails).toHaveLength(4);

    // After issuing: 10 € of Anne's February refunded, both of Bruno's refunded in full, Chloé's June lost in a
    // dispute. Dora's stays as it was.
    await db.collection('dons').doc('in_anne_02').update({ rembourse: 1000, evenement: 'charge.refunded' });
    await db.collection('dons').doc('in_bruno_01').update({ rembourse: 2000, evenement: 'charge.refunded' });
    await db.collection('dons').doc('in_bruno_02').update({ rembourse: 2000, evenement: 'charge.refunded' });
    await db.collection('dons').doc('in_chloe_03').update({ litige: 'perdu', evenement: 'charge.dispute.closed' });
    const outboxBefore = (await outbox(db)).length;

    // Two runs overlapping (the daily job and the treasurer's button) while cheques of the same year are recorded.
    const cheques = Array.from({ length: 5 }, (_, index) =>
      offlineGiftSchema.parse({
        cle: randomUUID(),
        moyen: 'cheque',
        date: `${year}-11-0${index + 1}`,
        montant: '40',
        prenom: 'Jeanne',
        nom: `Donateur chèque ${index}`,
        adresse: '12 rue Victor Hugo',
        postal: '69002',
        ville: 'Lyon',
        email: '',
      }),
    );
    // Long deadlines: seven writers contend for one counter in Java's emulator, beside other files on a busy machine.
    const [runA, runB, recorded] = await withDeadlines(60_000, () =>
      Promise.all([issue(db), issue(db), Promise.all(cheques.map((entry) => recordOfflineGift(treasurer, entry)))]),
    );
    const corrected = [...runA.corrected, ...runB.corrected].toSorted((a, b) => a[0].localeCompare(b[0]));
    expect(corrected.map(([id, cancelled]) => [id, cancelled])).toEqual([
      [`cus_anne-${year}`, number(1)],
      [`cus_bruno-${year}`, number(2)],
      [`cus_chloe-${year}`, number(3)],
    ]);
    expect(runA.issued).toEqual([]);
    expect(runB.issued).toEqual([]);

    // Numbers unique and gap-free: 4 first receipts, 5 cheques, 2 corrected receipts (Bruno's takes none).
    const anne = await receiptOf(db, 'cus_anne');
    const bruno = await receiptOf(db, 'cus_bruno');
    const chloe = await receiptOf(db, 'cus_chloe');
    const dora = await receiptOf(db, 'cus_dora');
    const taken = [...recorded.map((gift) => gift.recu), anne.numero, chloe.numero, ...[1, 2, 3, 4].map(number)];
    expect(taken.toSorted()).toEqual(Array.from({ length: 11 }, (_, index) => number(index + 1)));
    expect(await counter(db)).toEqual({ annee: year, dernier: 11 });
    expect(corrected.map(([, , numero]) => numero)).toEqual([anne.numero, '', chloe.numero]);

    expect(anne).toMatchObject({
      montant: 6500,
      mensualites: ['in_anne_01', 'in_anne_02', 'in_anne_03'],
      annule: number(1),
      recusAnnules: [{ numero: number(1), motif: 'remboursement' }],
      aEnvoyer: false,
    });
    expect(bruno).toMatchObject({
      numero: '',
      montant: 0,
      mensualites: [],
      annule: number(2),
      recusAnnules: [{ numero: number(2), motif: 'remboursement' }],
      aEnvoyer: false,
    });
    expect(chloe).toMatchObject({
      montant: 6000,
      mensualites: ['in_chloe_01', 'in_chloe_02'],
      annule: number(3),
      recusAnnules: [{ numero: number(3), motif: 'litige' }],
    });
    expect(dora).toMatchObject({ numero: number(4), montant: 1000 });
    expect(dora.recusAnnules).toBeUndefined();

    // One mail per cancelled number, each once, none for Dora.
    expect((await outbox(db)).length).toBe(outboxBefore + 3);
    const [, anneChange] = await mailsOf(db, 'cus_anne');
    expect(anneChange).toMatchObject({
      id: `recus-annuels-${logId(`cus_anne-${year}`)}-annule-${number(1)}`,
      kind: 'recu-annuel-rectificatif',
      to: 'cus_anne@exemple.fr',
      subject: `Votre reçu fiscal ${year} rectificatif n° ${anne.numero} (remplace le n° ${number(1)})`,
    });
    const anneText = anneChange!.text.replace(/\s+/g, ' ');
    expect(anneText).toContain(
      `Une partie de vos dons mensuels de ${year} vous a été remboursée. Vos dons de ${year} s’élèvent désormais à ` +
        '65,00 € (3 versements).',
    );
    expect(anneText).toContain(
      `Votre reçu fiscal n° ${number(1)} est annulé. Il est remplacé par le reçu fiscal rectificatif n° ` +
        `${anne.numero}, joint à ce message (fichier PDF).`,
    );
    expect(anneText).toContain('Pour votre déclaration de revenus, utilisez ce nouveau reçu et non l’ancien.');
    expect(anneChange!.attachments[0]!.filename).toBe(`recu-fiscal-${anne.numero}.pdf`);
    const annePdf = await pdfText(anneChange!);
    expect(annePdf).toContain(`Reçu n° ${anne.numero}`);
    expect(annePdf).toContain(
      `Reçu rectificatif : il annule et remplace le n° ${number(1)} (dons remboursés en partie).`,
    );
    expect(annePdf).toMatch(/Montant\s+65,00\s€/);
    expect(annePdf).toContain('Nombre de versements 3 ');
    expect(annePdf).toContain(`Dons mensuels du 1er janvier au 31 décembre ${year}`);

    const [, brunoChange] = await mailsOf(db, 'cus_bruno');
    expect(brunoChange).toMatchObject({
      id: `recus-annuels-${logId(`cus_bruno-${year}`)}-annule-${number(2)}`,
      kind: 'recu-annuel-annule',
      subject: `Votre reçu fiscal ${year} n° ${number(2)} est annulé`,
    });
    expect(brunoChange!.attachments ?? []).toEqual([]);
    const brunoText = brunoChange!.text.replace(/\s+/g, ' ');
    expect(brunoText).toContain(`Vos dons mensuels de ${year} vous ont été remboursés.`);
    expect(brunoText).toContain(
      `Votre reçu fiscal n° ${number(2)} pour l’année ${year} est annulé : il ne peut plus servir pour votre ` +
        'déclaration de revenus.',
    );

    const [, chloeChange] = await mailsOf(db, 'cus_chloe');
    expect(chloeChange!.subject).toBe(
      `Votre reçu fiscal ${year} rectificatif n° ${chloe.numero} (remplace le n° ${number(3)})`,
    );
    expect(chloeChange!.text.replace(/\s+/g, ' ')).toContain(
      `Un versement de vos dons mensuels de ${year} a été contesté auprès de votre banque, qui vous l’a rendu. ` +
        `Vos dons de ${year} s’élèvent désormais à 60,00 € (2 versements).`,
    );
    const chloePdf = await pdfText(chloeChange!);
    expect(chloePdf).toContain(
      `Reçu rectificatif : il annule et remplace le n° ${number(3)} (versement contesté et rendu par la banque).`,
    );
    expect(chloePdf).toMatch(/Montant\s+60,00\s€/);
    expect(await mailsOf(db, 'cus_dora')).toHaveLength(1);

    // Again: nothing is numbered, rewritten or mailed.
    const written = (await db.collection(YEARLY_RECEIPTS).get()).docs.map((document) => document.updateTime);
    const again = await issue(db);
    expect(again).toEqual({ issued: [], corrected: [], existing: 4, left: 0, mails: [] });
    expect((await outbox(db)).length).toBe(outboxBefore + 3);
    expect(await counter(db)).toEqual({ annee: year, dernier: 11 });
    expect((await db.collection(YEARLY_RECEIPTS).get()).docs.map((document) => document.updateTime)).toEqual(written);

    // The space: cancelled numbers listed, only valid receipts declared, a cancelled receipt never served.
    const ledger = await listGifts(treasurer, year);
    expect(ledger.yearly.map((row) => [row.numero, row.recusAnnules, row.montant])).toEqual([
      ['', [number(2)], 0],
      [number(4), [], 1000],
      [anne.numero, [number(1)], 6500],
      [chloe.numero, [number(3)], 6000],
    ]);
    expect(ledger.totals).toMatchObject({
      receipts: 5 + 3,
      receiptsCents: 5 * 4000 + 1000 + 6500 + 6000,
      cancelledReceipts: 3,
    });
    await expect(yearlyReceiptOf(treasurer, `cus_bruno-${year}`)).rejects.toMatchObject({
      status: 410,
      message: `Les dons mensuels de ${year} ont été remboursés : le reçu annuel n° ${number(2)} est annulé.`,
    });
    expect(await yearlyReceiptOf(treasurer, `cus_anne-${year}`)).toMatchObject({ recu: anne.numero });
  }, 600_000);

  it('a donor whose customer id was recorded after issuing keeps the receipt: not cancelled, not doubled', async () => {
    const db = adminFirestore();
    const legacy = (month: number) => {
      const { client: _client, ...gift } = instalment('cus_eve', month, 1500, { abonnement: 'sub_eve' });
      return gift;
    };
    await db.collection('dons').doc('in_eve_01').set(legacy(1));
    await db.collection('dons').doc('in_eve_02').set(legacy(2));
    const first = await issue(db);
    const before = Number((await counter(db))?.dernier);
    expect(first.issued).toEqual([[`sub-sub_eve-${year}`, number(before)]]);
    // This year's instalment of the same subscription carries the customer id: the donor's key becomes cus_eve.
    const nextYear = Timestamp.fromDate(new Date(Date.UTC(year + 1, 0, 15)));
    await db
      .collection('dons')
      .doc('in_eve_next')
      .set(instalment('cus_eve', 1, 1500, { abonnement: 'sub_eve', datePaiement: nextYear }));
    const outboxBefore = (await outbox(db)).length;
    const again = await issue(db);
    expect(again).toMatchObject({ issued: [], corrected: [], mails: [] });
    expect(await counter(db)).toEqual({ annee: year, dernier: before });
    expect((await outbox(db)).length).toBe(outboxBefore);
    expect((await receiptOf(db, 'sub-sub_eve')).numero).toBe(number(before));
  });

  it('runs every day on last year, and in January on the year before it too', () => {
    expect(yearsToRun(new Date('2027-03-15T05:23:00Z'))).toEqual([2026]);
    expect(yearsToRun(new Date('2027-01-01T05:23:00Z'))).toEqual([2026, 2025]);
    // February 1st, 00:30 in Paris: January is over.
    expect(yearsToRun(new Date('2027-01-31T23:30:00Z'))).toEqual([2026]);
    expect(yearsToRun(new Date('2026-12-31T23:30:00Z'))).toEqual([2026, 2025]);
  });
});
