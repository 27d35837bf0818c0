/**
 * Each mail is sent at most once however many drains run at once (the endpoints' first tries, the scheduled
 * function, `npm run outbox`): their claims are Firestore transactions, so this runs in Google's emulator (real
 * transactions; the embedded one loses concurrent updates). Without Java or the jar: skipped with a message, a
 * failure under CI=true.
 */
import { randomUUID } from 'node:crypto';
import { MAIL_FROM, SMTP_URL } from 'astro:env/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from '../../scripts/lib/smtp-catcher';
import { adminFirestore, closeAdminFirestore } from '../../src/lib/firebase-admin.server';
import { drainOutbox } from '../../src/features/mail/drain.server';
import { enqueueMails } from '../../src/features/mail/outbox.server';
import { smtpTransport } from '../../src/features/mail/transport.server';
import { googleFirestoreForFile } from '../fixtures/firestore-gateway';

const jar = googleFirestoreForFile('mail-concurrency.test.ts', 'the concurrent drains test');

let smtp: SmtpCatcher | undefined;

beforeAll(async () => {
  if (jar) smtp = await startSmtpCatcher({ port: Number(new URL(SMTP_URL as string).port) });
});

afterAll(async () => {
  await closeAdminFirestore();
  await smtp?.stop();
});

const MAILS = 30;
const DRAINS = 4;

describe.skipIf(!jar)('concurrent drains in Google’s emulator', () => {
  it(`${DRAINS} drains at once over ${MAILS} mails send each exactly once`, async () => {
    const firestore = adminFirestore();
    // The emulator's first answers take seconds on a loaded machine: warm it up first.
    await firestore.runTransaction(async (transaction) =>
      transaction.set(firestore.collection('chauffe').doc('x'), {}),
    );
    const batch = firestore.batch();
    const ids = enqueueMails(
      firestore,
      batch,
      Array.from({ length: MAILS }, (_, index) => ({
        id: `concurrent-${randomUUID()}`,
        kind: 'test',
        to: `lecteur-${index}@exemple.fr`,
        subject: `Essai ${index}`,
        html: '<p>Bonjour</p>',
        text: 'Bonjour',
      })),
    );
    await batch.commit();
    const transports = Array.from({ length: DRAINS }, () => smtpTransport(SMTP_URL as string, MAIL_FROM as string));
    const reports = await Promise.all(
      transports.map((transport, index) =>
        drainOutbox(
          { firestore, transport, now: () => Date.now() + 1000 },
          // Half the drains go through the ids (an endpoint's try), half query the outbox (the scheduled one).
          { deadlineMs: 120_000, ...(index % 2 === 0 ? { ids: ids.toReversed() } : {}) },
        ),
      ),
    );
    transports.forEach((transport) => transport.close());
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(MAILS);
    const received = smtp!.mails.map((mail) => mail.headers['message-id']);
    for (const id of ids) expect(received.filter((messageId) => messageId === `<${id}@exemple.org>`)).toHaveLength(1);
    const states = (await firestore.collection('outbox').get()).docs.map((document) => document.get('state'));
    expect(states).toEqual(Array(MAILS).fill('sent'));
  }, 300_000);
});
