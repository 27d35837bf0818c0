/**
 * The SMTP side: nodemailer over SMTP_URL, and the mail settings read from plain variables (SMTP_URL, MAIL_FROM,
 * ASSOCIATION_EMAIL), without astro:env, so that the scheduled function and `npm run outbox` read them alike.
 */
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { isMailAddress } from './mail';
import type { OutboxDocument } from './outbox.server';

/** What the drain hands a mail to: `send` resolves once the relay accepted it; `close` ends its connections. */
export interface MailTransport {
  send(id: string, mail: OutboxDocument): Promise<{ response?: string }>;
  close(): void;
}

/** The three mail variables (docs/mail.md, .env.example). */
export type MailVariables = Partial<Record<'SMTP_URL' | 'MAIL_FROM' | 'ASSOCIATION_EMAIL', string>>;

/**
 * The mail settings of `variables`: `smtpUrl` (smtp:// or smtps://), `from` (the sender, `Nom <adresse>`), `staff`
 * (the association's inbox), each undefined when unset or unusable, and `problems` in French for « Publier » and logs.
 */
export function mailSettings(variables: MailVariables) {
  const problems: string[] = [];
  const smtpUrl = variables.SMTP_URL?.trim() || undefined;
  const url = smtpUrl ? URL.parse(smtpUrl) : undefined;
  const usableUrl = url && /^smtps?:$/.test(url.protocol) && url.hostname ? smtpUrl : undefined;
  if (!smtpUrl) problems.push('SMTP_URL n’est pas défini : aucun email n’est envoyé, ils attendent dans la file.');
  else if (!usableUrl) problems.push('SMTP_URL doit être de la forme smtp://utilisateur:motdepasse@serveur:587.');
  const fromValue = variables.MAIL_FROM?.trim() ?? '';
  const [sender] = addressparser(fromValue, { flatten: true }) as { address: string }[];
  const from = sender && isMailAddress(sender.address) && !/[\r\n]/.test(fromValue) ? fromValue : undefined;
  if (!from)
    problems.push('MAIL_FROM doit être l’expéditeur des emails, par exemple « Association <site@exemple.fr> ».');
  const staffValue = variables.ASSOCIATION_EMAIL?.trim() ?? '';
  const staff = isMailAddress(staffValue) ? staffValue : undefined;
  if (!staff) problems.push('ASSOCIATION_EMAIL doit être l’adresse de l’équipe : elle ne reçoit aucun avis.');
  return { smtpUrl: usableUrl, from, fromAddress: sender?.address, staff, problems };
}

/** Settings as mailSettings returns them. */
export type MailSettings = ReturnType<typeof mailSettings>;

/**
 * A nodemailer transport to `smtpUrl` sending as `from`; each mail gets the Message-ID `<id@domain of from>` (the same
 * on every attempt). Waits are bounded: 10 s to connect and for the greeting, 20 s of silence.
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const [sender] = addressparser(from, { flatten: true }) as { address: string }[];
  const domain = sender?.address.split('@')[1] ?? 'localhost';
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(id, mail) {
      return transporter.sendMail({
        from,
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        messageId: `<${id}@${domain}>`,
        attachments: (mail.attachments ?? []).map(({ filename, contentType, content }) => ({
          filename,
          contentType,
          content: Buffer.from(content),
        })),
      });
    },
    close: () => transporter.close(),
  };
}

/** The transport of `settings`, undefined when SMTP_URL or MAIL_FROM is missing (then nothing is sent). */
export function transportFrom(settings: MailSettings): MailTransport | undefined {
  return settings.smtpUrl && settings.from ? smtpTransport(settings.smtpUrl, settings.from) : undefined;
}
