/**
 * `npm run outbox`: numbers the receipts still waiting for one (src/features/donations/receipt-numbering.server.ts),
 * then one drain of the outbox (src/features/mail/drain.server.ts) from a terminal, with the site's
 * environment (.env applies, the environment wins): FIREBASE_PROJECT_ID and its credentials or emulator, SMTP_URL,
 * MAIL_FROM. Prints what it sent, retried and marked failed; exits 1 when mail is not configured.
 */
import { existsSync } from 'node:fs';
import { jobReceiptContext, numberedGiftMails } from '../src/features/donations/receipt-mails.server.ts';
import { numberPendingReceipts } from '../src/features/donations/receipt-numbering.server.ts';
import { drainOutbox } from '../src/features/mail/drain.server.ts';
import { mailSettings, transportFrom } from '../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { exitWithError } from './lib/content-source.ts';

if (existsSync('.env')) process.loadEnvFile('.env');
const settings = mailSettings(process.env);
const transport = transportFrom(settings);
if (!transport) exitWithError(new Error(settings.problems.join('\n')));
const firestore = (() => {
  try {
    return adminFirestoreOf(process.env);
  } catch (error) {
    return exitWithError(error);
  }
})();
const mailsFor = numberedGiftMails(() => jobReceiptContext(firestore, process.env));
const numbering = await numberPendingReceipts(firestore, mailsFor, { deadlineMs: 60_000 });
if (numbering.numbered.length > 0) console.log(`Receipts: ${numbering.numbered.length} numbered.`);
const report = await drainOutbox({ firestore, transport }, { deadlineMs: 120_000, limit: 500 });
console.log(
  `Outbox: ${report.sent} sent, ${report.retried} to retry later, ${report.failed} failed, ` +
    `${report.left} left for the next drain.`,
);
transport.close();
await firestore.terminate();
