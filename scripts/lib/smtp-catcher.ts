/**
 * A local SMTP server that keeps every mail instead of delivering it (smtp-server + mailparser): `npm start`'s mail
 * catcher, the tests' SMTP server and the bench's. It can also refuse (5xx), defer (4xx), be slow or be down, and
 * serve what it caught over HTTP (an HTML list, and `/mails.json` for browser tests in another process).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A caught mail: the envelope (`from`, `to`), the parsed message, its raw source (`raw`). */
export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every header, lower-cased names, values as sent (unfolded). */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
  receivedAt: number;
}

/** How the server answers: accept, refuse for good (550), defer (451), or accept after `delayMs`. */
export type CatcherMode = 'accept' | 'refuse' | 'defer' | { delayMs: number };

/** A running catcher: see startSmtpCatcher. */
export type SmtpCatcher = Awaited<ReturnType<typeof startSmtpCatcher>>;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * Starts a catcher on 127.0.0.1:`port` (0: a free port). `dir`: each mail is also written there as `<n>.eml` and
 * `<n>.html`; `httpPort`: its web view; `onMail` is told of each mail. `url` is an SMTP_URL for it.
 */
export async function startSmtpCatcher({
  port = 0,
  dir,
  httpPort,
  onMail,
}: { port?: number; dir?: string; httpPort?: number; onMail?: (mail: CaughtMail, files?: string) => void } = {}) {
  const mails: CaughtMail[] = [];
  let mode: CatcherMode = 'accept';
  const waiters = new Set<() => void>();
  if (dir) mkdirSync(dir, { recursive: true });

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Any user name and password: the developer's SMTP_URL may carry some.
    onAuth: (_auth, _session, callback) => callback(null, { user: 'catcher' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const current = mode;
        // Quoting the recipient, as real relays do (the outbox masks it in logs and in the space).
        const recipient = session.envelope.rcptTo.map((rcpt) => `<${rcpt.address}>`).join(' ');
        if (current === 'refuse')
          return callback(smtpError(550, `${recipient} mailbox unavailable (catcher refusing)`));
        if (current === 'defer') return callback(smtpError(451, 'Try again later (catcher deferring)'));
        if (typeof current === 'object') await new Promise((resolve) => setTimeout(resolve, current.delayMs));
        const raw = Buffer.concat(chunks);
        const parsed = await simpleParser(raw);
        const headers: Record<string, string> = {};
        for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
        const mail: CaughtMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
          headers,
          attachments: parsed.attachments.map((file) => ({
            filename: file.filename ?? '',
            contentType: file.contentType,
            content: file.content,
          })),
          raw: raw.toString('utf8'),
          receivedAt: Date.now(),
        };
        mails.push(mail);
        let files: string | undefined;
        if (dir) {
          files = join(dir, String(mails.length).padStart(4, '0'));
          writeFileSync(`${files}.eml`, raw);
          writeFileSync(`${files}.html`, mail.html || `<pre>${escapeHtml(mail.text)}</pre>`);
        }
        onMail?.(mail, files);
        waiters.forEach((wake) => wake());
        callback(null, 'OK: caught');
      });
    },
  });

  const listen = (on: number) =>
    new Promise<number>((resolve, reject) => {
      smtp.server.once('error', reject);
      smtp.listen(on, '127.0.0.1', () => resolve((smtp.server.address() as { port: number }).port));
    });
  const boundPort = await listen(port);
  const http = httpPort === undefined ? undefined : await serveMails(mails, httpPort);

  return {
    port: boundPort,
    url: `smtp://127.0.0.1:${boundPort}`,
    httpUrl: http ? `http://127.0.0.1:${(http.address() as { port: number }).port}` : undefined,
    mails,
    /** Changes how the next mails are answered. */
    setMode(next: CatcherMode) {
      mode = next;
    },
    /** Stops listening (connections are refused) until resume(). */
    pause: () => new Promise<void>((resolve) => smtp.server.close(() => resolve())),
    /** Listens again on the same port. */
    resume: () => listen(boundPort),
    /** Resolves once `count` mails have been caught in all; rejects after `timeoutMs` (default 20 s). */
    async waitForMails(count: number, timeoutMs = 20_000): Promise<CaughtMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`${mails.length} mails caught, ${count} expected`);
        await new Promise<void>((resolve) => {
          const wake = () => (waiters.delete(wake), resolve());
          waiters.add(wake);
          setTimeout(wake, 200);
        });
      }
      return mails;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        http?.close();
        smtp.close(() => resolve());
      }),
  };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/** The web view on 127.0.0.1:`port`: `/` lists the mails, `/mails/<n>` shows one, `/mails.json` gives them all. */
async function serveMails(mails: CaughtMail[], port: number): Promise<HttpServer> {
  const server = createHttpServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const one = /^\/mails\/(\d+)$/.exec(path);
    if (path === '/mails.json') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const attachments = (mail: CaughtMail) =>
        mail.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, size: content.length }));
      return response.end(JSON.stringify(mails.map((mail) => ({ ...mail, attachments: attachments(mail) }))));
    }
    if (one && mails[Number(one[1])]) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(mails[Number(one[1])]!.html);
    }
    if (path !== '/') return response.writeHead(404).end();
    const rows = mails
      .map(
        (mail, index) =>
          `<li><a href="/mails/${index}">${escapeHtml(mail.subject)}</a> — à ${escapeHtml(mail.to.join(', '))}, ` +
          `${new Date(mail.receivedAt).toLocaleString('fr-FR')}</li>`,
      )
      .toReversed()
      .join('');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Emails du site (npm start)</title>' +
        `<h1>Emails reçus par le serveur local</h1><ol reversed>${rows}</ol>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
