/**
 * Netlify Scheduled Function: every 5 minutes, numbers the receipts still waiting for one (receipt-numbering.server.ts:
 * a card gift whose webhook could not take its number at once) and sends what the outbox then holds (retries with
 * backoff, docs/mail.md), with the site's variables (Netlify.env: no astro:env here). Stops claiming mails after 20 s
 * (the limit is 30 s). `npm run outbox` and `npm start`'s own schedule run the same {@link drainOnce}.
 */
import type { Firestore } from 'firebase-admin/firestore';
import { jobReceiptContext, numberedGiftMails } from '../../src/features/donations/receipts/receipt-mails.server.ts';
import { numberPendingReceipts } from '../../src/features/donations/receipts/receipt-numbering.server.ts';
import { drainOutbox, type DrainReport } from '../../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/**
 * One run of the mail jobs with `env`'s variables: numbers the waiting receipts (for at most `numberingMs` ms; a
 * failure is logged and the drain still runs), then drains the outbox (claims stop after `drainMs` ms, at most `limit`
 * mails). Returns how many receipts were numbered and the drain's report (`notConfigured` without SMTP_URL/MAIL_FROM).
 */
export async function drainOnce(
  firestore: Firestore,
  env: NodeJS.ProcessEnv,
  { numberingMs, drainMs, limit }: { numberingMs: number; drainMs: number; limit?: number },
): Promise<{ numbered: number; report: DrainReport }> {
  const numbering = await numberPendingReceipts(
    firestore,
    numberedGiftMails(() => jobReceiptContext(firestore, env)),
    { deadlineMs: numberingMs },
  ).catch((error: unknown) => {
    console.error('[receipts] numbering stopped:', error);
    return { numbered: [] };
  });
  const transport = transportFrom(mailSettings(env));
  try {
    const report = await drainOutbox({ firestore, transport }, { deadlineMs: drainMs, ...(limit && { limit }) });
    return { numbered: numbering.numbered.length, report };
  } finally {
    transport?.close();
  }
}

/** Numbers, then runs one drain, and answers its report (Netlify ignores the answer of a scheduled run). */
export default async function drainScheduled(): Promise<Response> {
  const { numbered, report } = await drainOnce(adminFirestoreOf(process.env), process.env, {
    numberingMs: 8000,
    drainMs: 12_000,
  });
  if (numbered > 0) console.log(`[receipts] ${numbered} numbered`);
  console.log(`[outbox] ${JSON.stringify(report)}`);
  return Response.json(report);
}

/** Netlify's schedule (cron, UTC): every 5 minutes. */
export const config = { schedule: '*/5 * * * *' };
