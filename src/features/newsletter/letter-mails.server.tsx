/**
 * A letter's mails, rendered (react-email: HTML and plain text) for the outbox: to one subscriber, with the headers
 * of one-click unsubscription (RFC 2369, RFC 8058) and their own link, or a test to the sender. The editors' HTML is
 * narrowed for mail clients first (letterBodyHtml).
 */
import type { CSSProperties } from 'react';
import sanitizeHtml from 'sanitize-html';
import { htmlToText } from '../../lib/html.server';
import { headerText, type OutgoingMail } from '../mail/mail';
import { newsletterHeaders, renderMail, type MailIdentity } from '../mail/mails.server';
import { COLORS, link, paragraph, subheading } from '../mail/templates/MailLayout';
import { NEWSLETTER_PAGES } from './subscription.server';
import { LetterMail } from './LetterMail';
import { LETTER_MAIL_KIND, LETTER_TEST_KIND, letterMailId } from './letters';

/** A React style object as an inline `style` attribute. */
const css = (style: CSSProperties) =>
  Object.entries(style as Record<string, string | number>)
    .map(([name, value]) => `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}:${value}`)
    .join(';');

const PARAGRAPH = css(paragraph);
const STYLES: Record<string, string> = {
  p: PARAGRAPH,
  ul: `${PARAGRAPH};padding-left:28px`,
  ol: `${PARAGRAPH};padding-left:28px`,
  li: 'margin:0 0 8px',
  h3: css(subheading),
  h4: css({ ...subheading, fontSize: '18px', lineHeight: '24px' }),
  blockquote: `${PARAGRAPH};margin:0 0 16px;padding:0 0 0 16px;border-left:4px solid ${COLORS.border}`,
  a: css(link),
};

/**
 * The stored body (sanitizeEditorHtml's output) made fit for a mail: only the editor's own tags (no picture, frame
 * or table, which mail clients show badly or not at all), each with the mail's inline style (any other style is
 * replaced), and site paths (`/ecole`) made absolute on `siteUrl`, since a mail has no page to be relative to. The
 * editor's intertitles (<h3>, <h4>) follow the mail's <h1> as <h2>, <h3>. `forPage`: the same for a page's preview
 * under its own <h2>: intertitles kept as <h3>, <h4>, and no inline style (the page's own, with the reader's text size).
 */
export function letterBodyHtml(html: string, siteUrl: string, { forPage = false } = {}): string {
  const headingsFrom = forPage ? 3 : 2;
  const style = (tagName: string): sanitizeHtml.Attributes => (forPage ? {} : { style: STYLES[tagName] ?? '' });
  // Every tag with a style goes through here (an <h1>, <h2> as an intertitle): any style it came with is replaced.
  const styled = (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const { style: _given, ...kept } = attribs;
    if (!/^h[1-4]$/.test(tagName)) return { tagName, attribs: { ...kept, ...style(tagName) } };
    const sub = tagName === 'h4' ? 1 : 0;
    return { tagName: `h${headingsFrom + sub}`, attribs: { ...kept, ...style(sub ? 'h4' : 'h3') } };
  };
  const tags = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'a'];
  return sanitizeHtml(html, {
    // The names after transformTags: the intertitles as they come out.
    allowedTags: [...tags, `h${headingsFrom}`, `h${headingsFrom + 1}`],
    // Only the tags given a style here keep one: transformTags runs before the attributes are filtered.
    allowedAttributes: {
      ...Object.fromEntries([...Object.keys(STYLES), 'h2'].map((tag) => [tag, ['style']])),
      a: ['href', 'style'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
    transformTags: {
      ...Object.fromEntries([...Object.keys(STYLES), 'h1', 'h2'].map((tag) => [tag, styled])),
      a: (tagName, { href }) => {
        const attribs: sanitizeHtml.Attributes = {};
        if (href) attribs.href = href.startsWith('/') ? `${siteUrl}${href}` : href;
        return { tagName, attribs: { ...attribs, ...style('a') } };
      },
    },
  });
}

/** The line mail clients show after the subject: the body's first 120 characters of text. */
const previewOf = (html: string) => [...htmlToText(html)].slice(0, 120).join('');

/** What stands for the subscriber's token while the letter is rendered once for all (replaced per subscriber). */
const TOKEN_SLOT = 'JETON-DU-DESTINATAIRE';

/**
 * The letter rendered once, ready to be addressed: `to(subscriber)` is the mail to one subscriber (outbox id
 * letterMailId: one per letter and person), with `List-Unsubscribe` (their own link) and `List-Unsubscribe-Post`.
 * Rendering once keeps a send of a thousand mails within the request's time.
 */
export async function letterMails(input: { identity: MailIdentity; letterId: string; objet: string; contenu: string }) {
  const { identity, letterId } = input;
  const unsubscribeUrl = `${identity.siteUrl}${NEWSLETTER_PAGES.unsubscribe}?jeton=${TOKEN_SLOT}`;
  const rendered = await renderMail(
    <LetterMail
      identity={identity}
      subject={headerText(input.objet)}
      preview={previewOf(input.contenu)}
      bodyHtml={letterBodyHtml(input.contenu, identity.siteUrl)}
      unsubscribeUrl={unsubscribeUrl}
    />,
  );
  return (subscriber: { id: string; email: string; token: string }): OutgoingMail => ({
    id: letterMailId(letterId, subscriber.id),
    kind: LETTER_MAIL_KIND,
    to: subscriber.email,
    subject: input.objet,
    headers: newsletterHeaders(unsubscribeUrl.replace(TOKEN_SLOT, subscriber.token)),
    html: rendered.html.replaceAll(TOKEN_SLOT, subscriber.token),
    text: rendered.text.replaceAll(TOKEN_SLOT, subscriber.token),
  });
}

/**
 * The test of a letter to its sender `email`: the very mail a subscriber gets, its subject after « [Test] », its
 * unsubscribe link without a token (it unsubscribes nobody). Outbox id `lettres-<id>-test-<minute>`: one a minute.
 */
export async function letterTestMail(input: {
  identity: MailIdentity;
  letterId: string;
  objet: string;
  contenu: string;
  email: string;
  minute: number;
}): Promise<OutgoingMail> {
  const { identity } = input;
  const unsubscribeUrl = `${identity.siteUrl}${NEWSLETTER_PAGES.unsubscribe}`;
  return {
    id: `lettres-${input.letterId}-test-${input.minute}`,
    kind: LETTER_TEST_KIND,
    to: input.email,
    subject: `[Test] ${input.objet}`,
    headers: newsletterHeaders(unsubscribeUrl),
    ...(await renderMail(
      <LetterMail
        identity={identity}
        subject={headerText(input.objet)}
        preview={previewOf(input.contenu)}
        bodyHtml={letterBodyHtml(input.contenu, identity.siteUrl)}
        unsubscribeUrl={unsubscribeUrl}
      />,
    )),
  };
}
