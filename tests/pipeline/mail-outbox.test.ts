/**
 * The outbox's promises against a local SMTP server: nothing is lost when SMTP is down (the mail waits, then goes
 * once), a refusal (5xx) is recorded at once and never retried, a deferral (4xx) is retried with backoff until the
 * last attempt, and no CR/LF ever reaches a header. Drains run as the scheduled function runs them (drainOutbox).
 */
import { randomUUID } from 'node:crypto';
import { MAIL_FROM, SMTP_URL } from 'astro:env/server';
import { DocumentReference } from 'firebase-admin/firestore';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { drainOutbox, MAX_ATTEMPTS, RETRY_DELAYS_MINUTES } from '../../src/features/mail/drain.server';
import { MailInputError, type OutgoingMail } from '../../src/features/mail/mail';
import { enqueueMails } from '../../src/features/mail/outbox.server';
import { smtpTransport } from '../../src/features/mail/transport.server';
import * as preinscription from '../../src/pages/api/preinscription';
import { validPreRegistration } from '../fixtures/submissions';
import { outboxDocument, outboxDocuments, startMailWorld, type MailWorld } from '../fixtures/mail-setup';

let world: MailWorld;
const transport = smtpTransport(SMTP_URL as string, MAIL_FROM as string);
/** A drain at `now` (ms), as the scheduled function runs one. */
const drain = (ids: string[], now = Date.now()) =>
  drainOutbox({ firestore: adminFirestore(), transport, now: () => now }, { ids, deadlineMs: 20_000 });

beforeAll(async () => {
  world = await startMailWorld();
});

afterEach(() => {
  vi.restoreAllMocks();
  world.smtp.setMode('accept');
});

afterAll(async () => {
  transport.close();
  await world?.stop();
});

/** Queues `mails` in a batch of their own, as an endpoint does with its submission. */
async function queue(...mails: Partial<OutgoingMail>[]): Promise<string[]> {
  const firestore = adminFirestore();
  const batch = firestore.batch();
  const ids = enqueueMails(
    firestore,
    batch,
    mails.map((mail) => ({
      id: `test-${randomUUID()}`,
      kind: 'test',
      to: 'destinataire@exemple.fr',
      subject: 'Un essai',
      html: '<p>Bonjour</p>',
      text: 'Bonjour',
      ...mail,
    })),
  );
  await batch.commit();
  return ids;
}

const caughtWithId = (id: string) =>
  world.smtp.mails.filter((mail) => mail.headers['message-id'] === `<${id}@exemple.org>`);

describe('SMTP down, then back', () => {
  it(
    'keeps a pre-registration’s mails when SMTP is down during the submission, ' +
      'then sends each exactly once over two drains',
    async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      await world.smtp.pause();
      const envoi = randomUUID();
      const response = await preinscription.POST({
        request: new Request('http://127.0.0.1:4321/api/preinscription', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...validPreRegistration, email: `panne-${envoi.slice(0, 8)}@exemple.fr`, envoi }),
        }),
      });
      // The visitor is told it worked: it did, the mails wait in the outbox.
      expect(response.status).toBe(200);
      const waiting = await outboxDocuments(`inscripitions-${envoi}-`);
      expect(waiting.size).toBe(2);
      for (const document of waiting.values()) {
        expect(document).toMatchObject({ state: 'pending', attempts: 1 });
        expect(document.lastError).toMatch(/ECONNECTION|ECONNREFUSED/);
        const delay = document.nextAttemptAt.toMillis() - Date.now();
        expect(delay).toBeGreaterThan(30_000);
        expect(delay).toBeLessThanOrEqual(RETRY_DELAYS_MINUTES[0] * 60_000);
      }

      await world.smtp.resume();
      const ids = [...waiting.keys()];
      // Not due yet: a drain right now sends nothing.
      expect(await drain(ids)).toMatchObject({ sent: 0 });
      const later = Date.now() + 2 * 60_000;
      const [first, second] = [await drain(ids, later), await drain(ids, later)];
      expect(first).toMatchObject({ sent: 2, retried: 0, failed: 0 });
      expect(second).toMatchObject({ sent: 0, retried: 0, failed: 0 });
      for (const id of ids) {
        expect(caughtWithId(id)).toHaveLength(1);
        expect(await outboxDocument(id)).toMatchObject({ state: 'sent', attempts: 2, lastError: '' });
      }
    },
  );

  it('drains the whole outbox without ids (the scheduled function), oldest due first', async () => {
    const ids = await queue({}, {});
    const report = await drainOutbox(
      { firestore: adminFirestore(), transport, now: () => Date.now() + 1000 },
      { deadlineMs: 20_000 },
    );
    expect(report.sent).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(caughtWithId(id)).toHaveLength(1);
  });
});

describe('refusals and deferrals', () => {
  it(
    'marks a mail the relay refuses (550) failed at once, with the relay’s answer, and never sends it again; ' +
      'the log masks the address the relay quotes',
    async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      world.smtp.setMode('refuse');
      const [id] = await queue({});
      expect(await drain([id!])).toMatchObject({ failed: 1 });
      world.smtp.setMode('accept');
      expect(await drain([id!], Date.now() + 86_400_000)).toMatchObject({ sent: 0, failed: 0 });
      expect(caughtWithId(id!)).toHaveLength(0);
      const document = await outboxDocument(id!);
      expect(document).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
      expect(document?.lastError).toContain('550 <destinataire@exemple.fr>');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`${id} (test), attempt 1: `));
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('550 <d•••@exemple.fr>'));
      expect(JSON.stringify(warn.mock.calls)).not.toContain('destinataire@');
    },
  );

  it(
    'retries a deferred mail (451) after 1, 5, 15… minutes, ' + `and marks it failed after ${MAX_ATTEMPTS} attempts`,
    async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      world.smtp.setMode('defer');
      const [id] = await queue({});
      let now = Date.now();
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const report = await drain([id!], now);
        const document = await outboxDocument(id!);
        expect(document?.attempts).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          expect(report).toMatchObject({ retried: 1 });
          expect(document?.state).toBe('pending');
          const delay = RETRY_DELAYS_MINUTES[attempt - 1]! * 60_000;
          expect(document?.nextAttemptAt.toMillis()).toBe(now + delay);
          // One millisecond early: nothing happens.
          expect(await drain([id!], now + delay - 1)).toMatchObject({ retried: 0 });
          now += delay;
        } else {
          expect(report).toMatchObject({ failed: 1 });
          expect(document).toMatchObject({ state: 'failed', nextAttemptAt: null });
          expect(document?.lastError).toContain('451');
        }
      }
      expect(caughtWithId(id!)).toHaveLength(0);
    },
  );
});

describe('a mail the relay accepted', () => {
  it('is never sent again when recording it fails at first; its record keeps no content nor subject', async () => {
    const [id] = await queue({ subject: 'Pré-inscription de Léa : demande reçue' });
    // The first write after the send (recording `sent`) fails, as Firestore may for a moment.
    vi.spyOn(DocumentReference.prototype, 'update').mockRejectedValueOnce(new Error('14 UNAVAILABLE'));
    expect(await drain([id!])).toMatchObject({ sent: 1, retried: 0 });
    expect(await drain([id!], Date.now() + 86_400_000)).toMatchObject({ sent: 0, retried: 0 });
    expect(caughtWithId(id!)).toHaveLength(1);
    expect(await outboxDocument(id!)).toMatchObject({
      state: 'sent',
      subject: '',
      html: '',
      text: '',
      attachments: [],
    });
  });
});

describe('header injection', () => {
  it('cleans CR/LF and other control characters out of subjects and header values', async () => {
    const [id] = await queue({
      subject: 'Bonjour\r\nBcc: victime@exemple.fr\u0085\u2028suite',
      headers: { 'List-Unsubscribe': '<https://exemple.org/x>\r\nBcc: victime@exemple.fr' },
    });
    await drain([id!]);
    const [mail] = caughtWithId(id!);
    expect(mail?.to).toEqual(['destinataire@exemple.fr']);
    expect(mail?.subject).toBe('Bonjour Bcc: victime@exemple.fr suite');
    expect(mail?.headers).not.toHaveProperty('bcc');
    expect(mail?.raw).not.toMatch(/^Bcc:/im);
  });

  it.each([
    ['a recipient with a line break', { to: 'destinataire@exemple.fr\r\nBcc: victime@exemple.fr' }],
    ['two recipients', { to: 'a@exemple.fr, b@exemple.fr' }],
    ['a display name in the address', { to: 'Victime <victime@exemple.fr>' }],
    ['a reply-to with a line break', { replyTo: 'equipe@exemple.org\nBcc: x@exemple.fr' }],
    ['a header name with a colon', { headers: { 'X-A: b\r\nBcc': 'x' } }],
    ['an id that is a path', { id: '../inscripitions/x' }],
  ])('refuses %s before anything is written', async (_label, mail) => {
    const before = (await outboxDocuments('test-')).size;
    await expect(queue(mail)).rejects.toBeInstanceOf(MailInputError);
    expect((await outboxDocuments('test-')).size).toBe(before);
  });
});
