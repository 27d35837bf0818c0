/**
 * The mail feature inside the site (endpoints and pages): settings from astro:env, the sender's identity from the
 * content, and trySend, the bounded first attempt an endpoint makes right after its transaction committed.
 */
import { ASSOCIATION_EMAIL, MAIL_FROM, SMTP_URL } from 'astro:env/server';
import { association, contactEmail } from '../../association';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { contactLineText } from '../../lib/obfuscation';
import { siteOrigin } from '../../lib/site-origin';
import { drainOutbox, type DrainReport } from './drain.server';
import { mailSettings, transportFrom, type MailSettings, type MailTransport } from './transport.server';
import type { MailIdentity } from './templates/MailLayout';

/** The site's mail settings (SMTP_URL, MAIL_FROM, ASSOCIATION_EMAIL) and their problems in French. */
export function siteMailSettings(): MailSettings {
  return mailSettings({ SMTP_URL, MAIL_FROM, ASSOCIATION_EMAIL });
}

/** Who the mails come from: the association's name and address (the content's `adresse` article) and the site. */
export async function mailIdentity(): Promise<MailIdentity> {
  const info = await association();
  return { name: info.name, addressLines: info.lines.map(contactLineText), siteUrl: siteOrigin() };
}

/**
 * Where a donor's answer goes and the address their mails give: the association's contact address from the content
 * (the one the thank-you page and the footer show), else ASSOCIATION_EMAIL; undefined when neither.
 */
export async function contactAddress(): Promise<string | undefined> {
  return (await contactEmail())?.text ?? siteMailSettings().staff;
}

let transport: { key: string; value: MailTransport | undefined } | undefined;

/** One transport a process, remade when the settings change (tests change them). */
function siteTransport(settings: MailSettings): MailTransport | undefined {
  const key = `${settings.smtpUrl} ${settings.from}`;
  if (transport?.key !== key) transport = { key, value: transportFrom(settings) };
  return transport.value;
}

/**
 * Tries to send the outbox mails `ids` now, giving up waiting after `deadlineMs` (what is left goes with the next
 * drain: the scheduled function, `npm run outbox`). Never throws; without SMTP_URL it sends nothing.
 */
export async function trySend(ids: readonly string[], deadlineMs: number): Promise<DrainReport> {
  const transport = siteTransport(siteMailSettings());
  return drainOutbox({ firestore: adminFirestore(), transport }, { ids, deadlineMs });
}
