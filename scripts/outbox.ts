/**
 * `npm run outbox`: numbers the receipts still waiting for one (src/features/donations/receipts/receipt-numbering.server.ts),
 * then one drain of the outbox (src/features/mail/drain.server.ts) from a terminal, through the scheduled function's
 * own drainOnce, with the site's environment (.env applies, the environment wins): FIREBASE_PROJECT_ID and its
 * credentials or emulator, SMTP_URL, MAIL_FROM; without a project, those of the running `npm start`
 * (scripts/lib/dev-session.ts). Prints what it sent, retried and marked failed; exits 1 when mail is not configured.
 */
import { mailSettings } from '../src/features/mail/transport.server.ts';
import { adminFirestoreOf } from '../src/lib/firebase-app.server.ts';
import { drainOnce } from '../netlify/functions/outbox-drain.mts';
import { exitWithError } from './lib/content-source.ts';
import { loadScriptEnvironment } from './lib/dev-session.ts';

loadScriptEnvironment();
const settings = mailSettings(process.env);
if (!settings.smtpUrl || !settings.from) exitWithError(new Error(settings.problems.join('\n')));
const firestore = (() => {
  try {
    return adminFirestoreOf(process.env);
  } catch (error) {
    return exitWithError(error);
  }
})();
const { numbered, report } = await drainOnce(firestore, process.env, {
  numberingMs: 60_000,
  drainMs: 120_000,
  limit: 500,
});
if (numbered > 0) console.log(`Receipts: ${numbered} numbered.`);
console.log(
  `Outbox: ${report.sent} sent, ${report.retried} to retry later, ${report.failed} failed, ` +
    `${report.left} left for the next drain.`,
);
await firestore.terminate();
