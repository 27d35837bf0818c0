/**
 * A local SMTP catcher in a process of its own (scripts/lib/smtp-catcher.ts), for the browser tests and a developer:
 * `tsx scripts/mail-catcher.ts <smtp port> <http port>`. Mails are kept in memory and listed on the HTTP port.
 */
import { startSmtpCatcher } from './lib/smtp-catcher.ts';

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
const catcher = await startSmtpCatcher({ port: smtpPort ?? 0, httpPort: httpPort ?? 0 });
console.log(`SMTP catcher on ${catcher.url}; mails on ${catcher.httpUrl}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void catcher.stop().then(() => process.exit(0)));
