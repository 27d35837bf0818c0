/**
 * Netlify Scheduled Function: every day of January, issues the yearly receipts of the year before for the monthly
 * gifts (src/features/donations/yearly-receipts.server.ts) and queues their mails; a receipt already issued is never
 * issued or sent again, so later days only catch what an earlier run left (a late instalment's donor, a run cut by
 * the time limit). `npm run yearly-receipts` does the same from a terminal. Reads the site's variables.
 */
import { jobReceiptContext } from '../../src/features/donations/receipt-mails.server.ts';
import { issueYearlyReceipts, previousYear } from '../../src/features/donations/yearly-receipts.server.ts';
import { drainOutbox } from '../../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Issues what is missing, tries to send the mails; 200 with the counts, 500 (logged) on a failure. */
export default async function yearlyReceipts(): Promise<Response> {
  try {
    const firestore = adminFirestoreOf(process.env);
    const year = previousYear(new Date());
    const report = await issueYearlyReceipts(firestore, year, () => jobReceiptContext(firestore, process.env), {
      deadlineMs: 18_000,
    });
    console.log(
      `[yearly-receipts] ${year}: ${report.issued.length} issued, ${report.existing} already, ${report.left} left`,
    );
    const transport = transportFrom(mailSettings(process.env));
    await drainOutbox({ firestore, transport }, { ids: report.mails, deadlineMs: 8000 });
    transport?.close();
    return Response.json({ year, issued: report.issued.length, existing: report.existing, left: report.left });
  } catch (error) {
    console.error('[yearly-receipts]', error);
    return new Response('failed', { status: 500 });
  }
}

/** Every day of January at 05:23 UTC (Netlify's cron syntax): the first run on January 1st, the others catch up. */
export const config = { schedule: '23 5 * 1 *' };
