/**
 * Mail under load: a burst of pre-registrations through the built function, each queuing two mails (the parent's
 * acknowledgement, the staff's notice) in the outbox and trying them at once against a local SMTP server
 * (scripts/lib/smtp-catcher.ts); then one drain for what the endpoints left (as the scheduled function would).
 * Every stored submission (answered or not: a 503 after the write's deadline may still land) must give exactly its
 * two mails: none lost, none twice.
 */
import { randomUUID } from 'node:crypto';
import { currentConsent } from '../../src/features/forms/form-rules.ts';
import { drainOutbox } from '../../src/features/mail/drain.server.ts';
import { smtpTransport } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';
import { startSmtpCatcher } from '../../scripts/lib/smtp-catcher.ts';
import { serveBuiltSite, SERVED_PROJECT_ID } from './server.ts';

/** What the burst gave. */
export interface MailLoad {
  submissions: number;
  /** Submissions answered 200 at the first try. */
  answeredFirst: number;
  /** Submissions answered 200 after at most four retries of the others with their key, as the form offers. */
  answered: number;
  /** First answers by HTTP status (0: no answer). */
  statusCounts: Record<string, number>;
  /** Submissions stored (read back): each must give its two mails, whatever it was answered. */
  stored: number;
  /** Seconds from the first request to the last answer. */
  burstSeconds: number;
  /** Mails the relay had when the last answer came (sent by the endpoints' first try). */
  sentByEndpoints: number;
  /** Mails sent by the drain after the burst. */
  sentByDrain: number;
  /** Expected mails (two per answered submission) missing after the drain. */
  lost: number;
  /** Mails received more than once. */
  duplicated: number;
}

const FROM = 'Banc d’essai <site@exemple.org>';

/**
 * Sends `count` pre-registrations at once to the built site in `dir` (served on `port` with its embedded emulator on
 * `emulatorPort`), sends again with its key each one not answered 200 (up to four rounds), then drains the outbox
 * once. @throws when the site does not start.
 */
export async function measureMailLoad(dir: string, port: number, emulatorPort: number, count = 200): Promise<MailLoad> {
  const smtp = await startSmtpCatcher();
  Object.assign(process.env, { SMTP_URL: smtp.url, MAIL_FROM: FROM, ASSOCIATION_EMAIL: 'equipe@exemple.org' });
  const site = await serveBuiltSite(dir, port, emulatorPort);
  try {
    const consent = currentConsent('preinscription');
    const keys: string[] = Array.from({ length: count }, () => randomUUID());
    const submit = (envoi: string, index: number) =>
      fetch(`${site.url}/api/preinscription`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: site.url },
        body: JSON.stringify({
          enfantPrenom: 'Léa',
          enfantNom: 'Banc',
          parentPrenom: 'Sophie',
          parentNom: 'Banc',
          email: `parent-${index}@exemple.fr`,
          consentement: true,
          consentementVersion: consent.version,
          envoi,
        }),
        signal: AbortSignal.timeout(60_000),
      })
        .then((response) => response.status)
        .catch(() => 0);
    const started = performance.now();
    const statuses = await Promise.all(keys.map(submit));
    const firstStatuses = [...statuses];
    // What a parent does after « peut-être enregistré ; réessayer ne crée pas de doublon »: the same key again.
    for (let round = 0; round < 4 && statuses.some((status) => status !== 200); round++) {
      await Promise.all(
        keys.map(async (envoi, index) => {
          if (statuses[index] !== 200) statuses[index] = await submit(envoi, index);
        }),
      );
    }
    const burstSeconds = (performance.now() - started) / 1000;
    const sentByEndpoints = smtp.mails.length;
    const firestore = adminFirestoreOf({
      FIREBASE_PROJECT_ID: SERVED_PROJECT_ID,
      FIRESTORE_EMULATOR_HOST: site.emulatorAddress,
    });
    const transport = smtpTransport(smtp.url, FROM);
    // An hour later: every retry left by the burst is due.
    await drainOutbox(
      { firestore, transport, now: () => Date.now() + 3_600_000 },
      { deadlineMs: 300_000, limit: 5000 },
    );
    transport.close();
    await firestore.terminate();
    const answered = keys.filter((_, index) => statuses[index] === 200);
    const statusCounts: Record<string, number> = {};
    for (const status of firstStatuses) statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    const reader = adminFirestoreOf({
      FIREBASE_PROJECT_ID: SERVED_PROJECT_ID,
      FIRESTORE_EMULATOR_HOST: site.emulatorAddress,
    });
    const stored = (await reader.collection('inscripitions').get()).docs
      .map((document) => document.id)
      .filter((id) => keys.includes(id));
    await reader.terminate();
    const received = smtp.mails.map((mail) => mail.headers['message-id'] ?? '');
    const expected = stored.flatMap((key) => [
      `<inscripitions-${key}-parent@exemple.org>`,
      `<inscripitions-${key}-equipe@exemple.org>`,
    ]);
    return {
      submissions: count,
      answeredFirst: firstStatuses.filter((status) => status === 200).length,
      answered: answered.length,
      statusCounts,
      stored: stored.length,
      burstSeconds,
      sentByEndpoints,
      sentByDrain: smtp.mails.length - sentByEndpoints,
      lost: expected.filter((id) => !received.includes(id)).length,
      duplicated: received.length - new Set(received).size,
    };
  } finally {
    await site.stop();
    await smtp.stop();
  }
}
