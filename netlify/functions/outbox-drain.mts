/**
 * Netlify Scheduled Function: every 5 minutes, numbers the receipts still waiting for one (receipt-numbering.server.ts:
 * a card gift whose webhook could not take its number at once) and sends what the outbox then holds (retries with
 * backoff, docs/mail.md), with the site's variables (Netlify.env: no astro:env here). Stops claiming mails after 20 s
 * (the limit is 30 s).
 */
import { jobReceiptContext, numberedGiftMails } from '../../src/features/donations/receipt-mails.server.ts';
import { numberPendingReceipts } from '../../src/features/donations/receipt-numbering.server.ts';
import { drainOutbox } from '../../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Numbers, then runs one drain, and answers its report (Netlify ignores the answer of a scheduled run). */
export default async function drainScheduled(): Promise<Response> {
  const firestore = adminFirestoreOf(process.env);
  const numbering = await numberPendingReceipts(
    firestore,
    numberedGiftMails(() => jobReceiptContext(firestore, process.env)),
    { deadlineMs: 8000 },
  ).catch((error: unknown) => {
    console.error('[receipts] numbering stopped:', error);
    return { numbered: [] };
  });
  if (numbering.numbered.length > 0) console.log(`[receipts] ${numbering.numbered.length} numbered`);
  const transport = transportFrom(mailSettings(process.env));
  const report = await drainOutbox({ firestore, transport }, { deadlineMs: 12_000 });
  transport?.close();
  console.log(`[outbox] ${JSON.stringify(report)}`);
  return Response.json(report);
}

/** Netlify's schedule (cron, UTC): every 5 minutes. */
export const config = { schedule: '*/5 * * * *' };
