/**
 * What a feature hands to the outbox: one mail, already rendered (HTML and plain text), with the id that makes its
 * sending idempotent. Addresses are checked here and header texts cleaned, so that no CR/LF or other control
 * character ever reaches a header (docs/mail.md).
 */
import * as z from 'zod';

/**
 * Days a mail's record stays in the outbox after it was queued (to whom, when, the relay's answer, a failed mail's
 * content for « Réessayer »): then the retention job deletes it, whatever its state (docs/mail.md).
 */
export const OUTBOX_KEPT_DAYS = 30;

/** A file sent with a mail: `content` is the file's bytes. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * One mail to queue. `id` is the outbox document's id: the same id is the same mail (queued and sent at most once);
 * `kind` says what it is in the staff's list (`preinscription-parent`, `newsletter-confirmation`…); `headers` are
 * extra headers (List-Unsubscribe…); `replyTo` where answers go.
 */
export interface OutgoingMail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

/** An outbox id: letters, digits, `-` and `_`, 1 to 200 characters (a Firestore document id, never a path). */
export const MAIL_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

// zod's own email check (the HTML spec's pattern, ASCII only): what a relay accepts in RCPT TO.
const mailAddress = z.email();

/** True for one real email address (`marie@exemple.fr`), with no space, control character or display name. */
export function isMailAddress(value: string): boolean {
  return value.length <= 254 && !/[\p{Cc}\s]/u.test(value) && mailAddress.safeParse(value).success;
}

/**
 * `value` fit for a header (a subject, a display name): every control character (CR, LF, TAB, U+0085, U+2028…) and
 * run of spaces becomes one space, trimmed, at most `max` characters (default 200).
 */
export function headerText(value: string, max = 200): string {
  return [...value.replace(/[\p{Cc}\u2028\u2029\s]+/gu, ' ').trim()].slice(0, max).join('');
}

/** Thrown when a mail cannot be queued as given (a bad address or id): the caller's bug or hostile input. */
export class MailInputError extends Error {
  override name = 'MailInputError';
}

/**
 * `mail` with its subject cleaned (headerText), after checking its id, addresses and headers. @throws MailInputError.
 */
export function checkedMail(mail: OutgoingMail): OutgoingMail {
  if (!MAIL_ID_PATTERN.test(mail.id)) throw new MailInputError(`outbox id "${mail.id}" is not a plain id`);
  for (const address of [mail.to, ...(mail.replyTo ? [mail.replyTo] : [])]) {
    if (!isMailAddress(address)) throw new MailInputError(`mail ${mail.id}: "${address}" is not one email address`);
  }
  const headers = Object.fromEntries(
    Object.entries(mail.headers ?? {}).map(([name, value]) => {
      if (!/^[A-Za-z][A-Za-z0-9-]{0,60}$/.test(name)) throw new MailInputError(`mail ${mail.id}: bad header ${name}`);
      return [name, headerText(value, 900)];
    }),
  );
  return { ...mail, subject: headerText(mail.subject), headers };
}

/** `jeanne@exemple.fr` → `j•••@exemple.fr`: enough to recognise a mail, not to read an address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** `text` with every email address in it masked (relays often quote the refused address). */
export function maskEmails(text: string): string {
  return text.replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g, maskEmail);
}

/** The kind of the newsletter's confirmation mails (the outbox forgets them when their address leaves). */
export const NEWSLETTER_MAIL_KIND = 'newsletter-confirmation';
