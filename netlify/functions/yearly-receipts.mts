/**
 * Netlify Scheduled Function, every day: issues the yearly receipts of the monthly gifts of the year before
 * (src/features/donations/yearly/issue-receipts.server.ts) and corrects those already issued whose total changed since (an
 * instalment refunded or lost in a dispute, one recorded late): a correction takes a new number and mails the donor
 * once. In January it also corrects the year before that, for events of its last days that reached the ledger after
 * December's last run. A receipt that is right is neither rewritten nor mailed again, and costs no PDF: most days read
 * the ledger's instalments and one or two years of `recusAnnuels`, and write nothing. `npm run yearly-receipts` does
 * the same for one year from a terminal. Reads the site's variables.
 */
import { jobReceiptContext } from '../../src/features/donations/receipts/receipt-mails.server.ts';
import { issueYearlyReceipts, yearsToRun } from '../../src/features/donations/yearly/issue-receipts.server.ts';
import { drainOutbox } from '../../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server.ts';

/** Issues what is missing and corrects what changed, tries to send the mails; 200 with the counts, 500 (logged). */
export default async function yearlyReceipts(): Promise<Response> {
  try {
    const firestore = adminFirestoreOf(process.env);
    const started = Date.now();
    const mails: string[] = [];
    const counts = [];
    for (const year of yearsToRun(new Date())) {
      // One budget for both years (Netlify stops a scheduled function at 30 s): what is left waits for tomorrow.
      const deadlineMs = Math.max(0, 18_000 - (Date.now() - started));
      const report = await issueYearlyReceipts(firestore, year, () => jobReceiptContext(firestore, process.env), {
        deadlineMs,
      });
      console.log(
        `[yearly-receipts] ${year}: ${report.issued.length} issued, ${report.corrected.length} corrected, ` +
          `${report.existing} unchanged, ${report.left} left` +
          (report.unsigned ? ' (waiting: no signatory named on /espace/dons/signataire)' : ''),
      );
      mails.push(...report.mails);
      counts.push({
        year,
        issued: report.issued.length,
        corrected: report.corrected.length,
        existing: report.existing,
        left: report.left,
      });
    }
    if (mails.length > 0) {
      const transport = transportFrom(mailSettings(process.env));
      await drainOutbox({ firestore, transport }, { ids: mails, deadlineMs: 8000 });
      transport?.close();
    }
    return Response.json(counts);
  } catch (error) {
    console.error('[yearly-receipts]', error);
    return new Response('failed', { status: 500 });
  }
}

/** Every day at 05:23 UTC (Netlify's cron syntax): January 1st issues, the other days catch up and correct. */
export const config = { schedule: '23 5 * * *' };
