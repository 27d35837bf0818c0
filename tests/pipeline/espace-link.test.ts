/**
 * Asking for a sign-in link answers at the same time for a staff account and for an unknown address, even when SMTP
 * is slow: the known address's sending try gets only the time left before the answer (trySend's own 3 s would show),
 * and its mail waits in the outbox for the scheduled drain. Firebase Auth is a local stand-in of its REST API on the
 * port tests/fixtures/site-env.ts gave astro:env; Firestore and SMTP are the mail tests' (startMailWorld).
 */
import { createServer, type Server } from 'node:http';
import { FIREBASE_AUTH_EMULATOR_HOST } from 'astro:env/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_ANSWER_MS, requestSignInLink } from '../../src/features/espace/email-link.server';
import { outboxDocuments, startMailWorld, type MailWorld } from '../fixtures/mail-setup';

const STAFF = 'benevole@exemple.fr';
/** Time (ms) allowed past LINK_ANSWER_MS on a busy machine: less than the 3 s a full sending try would add. */
const MARGIN_MS = 450;

describe('asking for a sign-in link', () => {
  let world: MailWorld;
  let auth: Server;

  beforeAll(async () => {
    world = await startMailWorld();
    auth = createServer(async (request, response) => {
      const body = JSON.parse(Buffer.concat(await request.toArray()).toString()) as { email: string | string[] };
      const email = [body.email].flat()[0];
      let answer: object = {};
      if (request.url?.endsWith('accounts:lookup') && email === STAFF) {
        answer = { users: [{ localId: 'u1', email, customAttributes: JSON.stringify({ roles: ['edition'] }) }] };
      } else if (request.url?.endsWith('accounts:sendOobCode')) {
        answer = { email, oobLink: 'http://127.0.0.1/__/auth/action?mode=signIn&oobCode=code-de-test' };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
    const port = Number(new URL(`http://${FIREBASE_AUTH_EMULATOR_HOST}`).port);
    await new Promise<void>((done) => auth.listen(port, '127.0.0.1', done));
  });

  afterAll(async () => {
    auth?.close();
    await world?.stop();
  });

  /** How long (ms) requestSignInLink takes for `email`. */
  async function answerTime(email: string): Promise<number> {
    const started = performance.now();
    await requestSignInLink(email);
    return performance.now() - started;
  }

  it('answers at the same time for a staff account and an unknown address, the mail queued for the drain', async () => {
    // SMTP answers after 10 s: a try given trySend's 3 s would end well after the answer time.
    world.smtp.setMode({ delayMs: 10_000 });
    const unknown = await answerTime('inconnu@exemple.fr');
    const known = await answerTime(STAFF);
    for (const [who, time] of [
      ['unknown', unknown],
      ['known', known],
    ] as const) {
      expect(time, who).toBeGreaterThanOrEqual(LINK_ANSWER_MS - 5);
      expect(time, who).toBeLessThan(LINK_ANSWER_MS + MARGIN_MS);
    }
    const queued = [...(await outboxDocuments('espace-lien-')).values()];
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to: STAFF });
    expect(world.smtp.mails).toEqual([]);
  });
});
