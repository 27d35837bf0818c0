/**
 * The failed mails' « Réessayer » in the server module, against a local SMTP server (tests/fixtures/mail-setup.ts):
 * the module checks the role itself (not only the guard), a retried mail gets exactly one more attempt (a new
 * refusal marks it failed again, never retried forever), a mail that is not failed cannot be queued again, and the
 * staff's list masks every address, the relay's answer included.
 */
import { randomUUID } from 'node:crypto';
import { MAIL_FROM, SMTP_URL } from 'astro:env/server';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { listFailedMails, retryMail } from '../../src/features/espace/failed-mails.server';
import { drainOutbox, MAX_ATTEMPTS } from '../../src/features/mail/drain.server';
import { enqueueMails } from '../../src/features/mail/outbox.server';
import { smtpTransport } from '../../src/features/mail/transport.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { outboxDocument, startMailWorld, type MailWorld } from '../fixtures/mail-setup';

let world: MailWorld;
const transport = smtpTransport(SMTP_URL as string, MAIL_FROM as string);
const drain = (id: string) =>
  drainOutbox({ firestore: adminFirestore(), transport }, { ids: [id], deadlineMs: 20_000 });
const session = (role: StaffSession['roles'][number]): StaffSession => ({
  uid: `uid-${role}`,
  email: `${role}@demo.test`,
  roles: [role],
  authTime: Math.floor(Date.now() / 1000),
});

beforeAll(async () => {
  world = await startMailWorld();
});

afterAll(async () => {
  transport.close();
  await world?.stop();
});

/** Queues one mail to `to` and lets the relay refuse it (550): a failed mail; its id. */
async function failedMail(to: string): Promise<string> {
  const firestore = adminFirestore();
  const batch = firestore.batch();
  const [id] = enqueueMails(firestore, batch, [
    { id: `test-${randomUUID()}`, kind: 'don-merci', to, subject: 'Merci', html: '<p>Merci</p>', text: 'Merci' },
  ]);
  await batch.commit();
  world.smtp.setMode('refuse');
  await drain(id!);
  world.smtp.setMode('accept');
  expect(await outboxDocument(id!)).toMatchObject({ state: 'failed', attempts: 1 });
  return id!;
}

const caught = (to: string) => world.smtp.mails.filter((mail) => mail.to.includes(to));

it('refuses every role but admin in the module itself; the mail stays failed', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const to = `refus-${randomUUID().slice(0, 8)}@exemple.fr`;
  const id = await failedMail(to);
  for (const role of ['admissions', 'tresorerie', 'edition'] as const) {
    await expect(retryMail(session(role), id)).rejects.toMatchObject({ status: 403 });
    await expect(listFailedMails(session(role))).rejects.toMatchObject({ status: 403 });
  }
  await expect(retryMail(undefined, id)).rejects.toMatchObject({ status: 403 });
  expect(await outboxDocument(id)).toMatchObject({ state: 'failed', attempts: 1 });
});

it('gives a retried mail one more attempt: failed again if refused, else sent once', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const to = `jeanne-${randomUUID().slice(0, 8)}@exemple.fr`;
  const id = await failedMail(to);
  const listed = (await listFailedMails(session('admin'))).find((mail) => mail.id === id);
  expect(listed).toMatchObject({ kind: 'Remerciement et reçu fiscal', to: 'j•••@exemple.fr' });
  expect(JSON.stringify(listed)).not.toContain(to);

  await retryMail(session('admin'), id);
  expect(await outboxDocument(id)).toMatchObject({ state: 'pending', attempts: MAX_ATTEMPTS - 1 });
  // A deferral (451) would be retried with backoff for a fresh mail; after a retry it ends as failed at once.
  world.smtp.setMode('defer');
  expect(await drain(id)).toMatchObject({ failed: 1, retried: 0 });
  world.smtp.setMode('accept');
  expect(await outboxDocument(id)).toMatchObject({ state: 'failed', nextAttemptAt: null });

  await retryMail(session('admin'), id);
  expect(await drain(id)).toMatchObject({ sent: 1 });
  expect(await drain(id)).toMatchObject({ sent: 0 });
  expect(caught(to)).toHaveLength(1);
  // Sent: it is no longer failed, so it cannot be queued again.
  await expect(retryMail(session('admin'), id)).rejects.toMatchObject({
    status: 404,
    message: 'Ce courriel n’est plus en échec : il a déjà été remis dans la file ou envoyé.',
  });
  expect(await outboxDocument(id)).toMatchObject({ state: 'sent' });
});

it('masks the addresses the relay quotes in its answer', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const id = await failedMail(`paul-${randomUUID().slice(0, 8)}@exemple.fr`);
  await adminFirestore()
    .collection('outbox')
    .doc(id)
    .update({ lastError: 'EENVELOPE 550 5.1.1 <paul.durand@exemple.fr>: Recipient address rejected' });
  const listed = (await listFailedMails(session('admin'))).find((mail) => mail.id === id);
  expect(listed?.lastError).toBe('EENVELOPE 550 5.1.1 <p•••@exemple.fr>: Recipient address rejected');
});
