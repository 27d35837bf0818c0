/**
 * Netlify Scheduled Function: every 5 minutes, sends what the outbox still holds (retries with backoff, docs/mail.md)
 * with the site's variables (Netlify.env: no astro:env here). Stops claiming mails after 20 s (the limit is 30 s).
 */
import { drainOutbox } from '../../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Runs one drain and answers its report (Netlify ignores the answer of a scheduled run). */
export default async function drainScheduled(): Promise<Response> {
  const transport = transportFrom(mailSettings(process.env));
  const report = await drainOutbox({ firestore: adminFirestoreOf(process.env), transport }, { deadlineMs: 20_000 });
  transport?.close();
  console.log(`[outbox] ${JSON.stringify(report)}`);
  return Response.json(report);
}

/** Netlify's schedule (cron, UTC): every 5 minutes. */
export const config = { schedule: '*/5 * * * *' };
