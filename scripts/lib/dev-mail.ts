/**
 * `npm start`'s mail: SMTP_URL as set (a developer's own catcher or relay), else a local catcher (smtp-catcher.ts)
 * whose mails are written to a temporary folder and listed on a web page; the sender, the staff inbox and the site's
 * address (the links in mails) get local defaults when unset.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/**
 * Sets the session's mail variables in process.env, so that Astro can start with them at once: the sender, the staff
 * inbox and the site's address when unset (`args`: astro dev's, for `--port`), and unless SMTP_URL is set, the address
 * of a local catcher on a free port. Returns the catcher's start, to call once Astro is on its way: it loads the
 * catcher's modules (smtp-server, mailparser) and listens on that port, and resolves to its stop().
 * @throws Error (from the start) when the port was taken meanwhile.
 */
export async function prepareDevMail(args: readonly string[]): Promise<() => Promise<() => void>> {
  const portFlag = args.indexOf('--port');
  process.env.SITE_URL ||= `http://127.0.0.1:${portFlag >= 0 ? args[portFlag + 1] : 4321}`;
  process.env.MAIL_FROM ||= 'Site de l’association (npm start) <site@localhost.test>';
  process.env.ASSOCIATION_EMAIL ||= 'equipe@localhost.test';
  if (process.env.SMTP_URL?.trim()) {
    console.log(`Mail: sent through SMTP_URL (${new URL(process.env.SMTP_URL).host})`);
    return async () => () => {};
  }
  const port = await freePort();
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  return async () => {
    const { startSmtpCatcher } = await import('./smtp-catcher.ts');
    const dir = mkdtempSync(join(tmpdir(), 'site-mails-'));
    const catcher = await startSmtpCatcher({
      port,
      dir,
      httpPort: 0,
      onMail: (mail, files) => console.log(`✉ « ${mail.subject} » → ${mail.to.join(', ')}: ${files}.html`),
    });
    console.log(`Mail: caught locally, nothing leaves this machine. Read them on ${catcher.httpUrl} or in ${dir}/`);
    return () => void catcher.stop();
  };
}

/**
 * Drains the outbox every `everyMs` ms (0: never) as the Netlify Scheduled Function does in production, through its
 * own module (netlify/functions/outbox-drain.mts drainOnce), on the database and mail server of process.env: a mail
 * queued while the mail server was down leaves once it is back. Prints a line only when a mail moved or a receipt was
 * numbered. Returns stop(), which resolves once a drain under way has ended and its database client is closed.
 */
export function scheduleOutboxDrain(everyMs: number): () => Promise<void> {
  if (everyMs <= 0) return async () => {};
  let running: Promise<void> | undefined;
  let firestore: import('firebase-admin/firestore').Firestore | undefined;
  const tick = () => {
    running ??= (async () => {
      // Loaded at the first tick: firebase-admin is not needed to start the dev server.
      const [{ drainOnce }, { adminFirestoreOf }] = await Promise.all([
        import('../../netlify/functions/outbox-drain.mts'),
        import('../../src/lib/firebase-app.server.ts'),
      ]);
      firestore ??= adminFirestoreOf(process.env);
      const { numbered, report } = await drainOnce(firestore, process.env, { numberingMs: 10_000, drainMs: 20_000 });
      if (numbered + report.sent + report.retried + report.failed > 0) {
        console.log(
          `Outbox (every ${everyMs / 1000} s): ${numbered} receipt(s) numbered, ${report.sent} sent, ` +
            `${report.retried} to retry later, ${report.failed} failed.`,
        );
      }
    })()
      .catch((error: unknown) => console.error(`Outbox: the drain failed: ${(error as Error).message ?? error}`))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    // A drain under way still uses the client: closing it first would fail its pending calls.
    await running;
    await firestore?.terminate();
  };
}
