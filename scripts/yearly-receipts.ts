/**
 * `npm run yearly-receipts [year]`: issues the yearly receipts of the monthly gifts of `year` (the year before today's
 * by default) that do not exist yet and corrects those whose total changed since (refunds, disputes lost), as the
 * daily scheduled function does (netlify/functions/yearly-receipts.mts), queues their mails and sends them when mail
 * is configured (else they wait in the outbox for `npm run outbox`).
 * Database: FIREBASE_PROJECT_ID with the service account, or FIRESTORE_EMULATOR_HOST; .env applies.
 */
import { jobReceiptContext } from '../src/features/donations/receipts/receipt-mails.server.ts';
import { issueYearlyReceipts, previousYear } from '../src/features/donations/yearly/issue-receipts.server.ts';
import { drainOutbox } from '../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { exitWithError as fail } from './lib/content-source.ts';
import { loadScriptEnvironment } from './lib/dev-session.ts';

loadScriptEnvironment();
const asked = process.argv[2];
const year = asked === undefined ? previousYear(new Date()) : Number(asked);
if (!Number.isInteger(year) || year < 2000 || year > previousYear(new Date()) + 1) {
  fail(new Error(`Usage: npm run yearly-receipts [year], e.g. ${previousYear(new Date())}.`));
}
try {
  const db = adminFirestoreOf(process.env);
  const report = await issueYearlyReceipts(db, year, () => jobReceiptContext(db, process.env), {
    deadlineMs: 600_000,
  });
  if (report.unsigned) {
    console.log(`Yearly receipts ${year}: none issued: name the receipts' signatory on /espace/dons/signataire first.`);
  }
  console.log(
    `Yearly receipts ${year}: ${report.issued.length} issued, ${report.corrected.length} corrected, ` +
      `${report.existing} issued before and unchanged` +
      (report.left ? `, ${report.left} left for a new run.` : '.'),
  );
  const transport = transportFrom(mailSettings(process.env));
  if (transport) {
    const sent = await drainOutbox({ firestore: db, transport }, { ids: report.mails, deadlineMs: 120_000 });
    console.log(`Mails: ${sent.sent} sent, ${sent.retried + sent.left} waiting in the outbox.`);
    transport.close();
  } else if (report.mails.length > 0) {
    console.log(`Mails: ${report.mails.length} waiting in the outbox (mail is not configured).`);
  }
  await db.terminate();
  process.exit(0);
} catch (error) {
  fail(error);
}
