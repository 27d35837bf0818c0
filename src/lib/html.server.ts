/**
 * Build-time sanitising (sanitize-html) of editors' `intro`/`contenu` HTML, and its plain text; '[at]' becomes '@'
 * first (spec §9).
 */
import { DomUtils, Parser, parseDocument } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { safeLinkAddress } from './link-address.ts';
import { revealAt } from './obfuscation.ts';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'mark', 'abbr', 'span', 'blockquote', 'q', 'cite'],
    ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'a'],
    ...['img', 'figure', 'figcaption', 'iframe', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel', 'hreflang'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    abbr: ['title'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    iframe: ['src', 'title', 'width', 'height', 'allow', 'allowfullscreen', 'loading'],
    '*': ['lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Videos without tracking cookies.
  allowedIframeHostnames: ['www.youtube-nocookie.com', 'player.vimeo.com'],
  disallowedTagsMode: 'discard',
  // sanitize-html strips an unknown iframe's src but keeps the element: drop it whole.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
  transformTags: {
    h1: 'h3',
    h2: 'h3',
    // sanitize-html checks schemes too; safeLinkAddress also drops `/\\host` and relative paths, as menus do.
    a: (tagName, { target, href, ...rest }) => {
      const safe = href === undefined ? undefined : safeLinkAddress(href);
      const attribs = safe === undefined ? rest : { ...rest, href: safe };
      return { tagName, attribs: target === '_blank' ? { ...attribs, target, rel: 'noopener noreferrer' } : attribs };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { loading: 'lazy', alt: '', ...attribs } }),
  },
};

/** Safe HTML for `set:html` from untrusted Firestore HTML (or plain text). */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(revealAt(html), OPTIONS).trim();
}

/**
 * Raises sanitizeContentHtml's <h3> sections to <h2> on a page whose subject is one article, so headings follow the
 * <h1> without a gap (WCAG 1.3.1).
 */
export function asPageSections(html: string): string {
  return html.replace(/<(\/?)h3\b/g, '<$1h2');
}

/** Plain text of some HTML (tags dropped, entities decoded), for meta descriptions. */
export function htmlToText(html: string): string {
  const text = sanitizeHtml(revealAt(html), { allowedTags: [], allowedAttributes: {} });
  return DomUtils.textContent(parseDocument(text)).replace(/\s+/g, ' ').trim();
}

const LINE_BREAKING = new Set(['br', 'p', 'li', 'div', 'ul', 'ol', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Plain text of HTML with its lines kept (`<br>`, `<p>`, `<li>`, `<div>`, headings end a line), entities decoded: for
 * `adresse`.
 */
export function htmlToLines(html: string): string {
  let text = '';
  const parser = new Parser(
    {
      ontext: (chunk) => (text += chunk),
      onopentag: (name) => LINE_BREAKING.has(name) && (text += '\n'),
      onclosetag: (name) => LINE_BREAKING.has(name) && (text += '\n'),
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return text.replace(/\u00a0/g, ' ');
}

/**
 * What the editors' forms store for `intro`/`contenu`: the same sanitiser and rules as sanitizeContentHtml, without
 * revealing '[at]' (the stored text keeps the editor's spelling; the build reveals it).
 */
export function sanitizeEditorHtml(html: string): string {
  // An editor leaves empty paragraphs where the cursor was: none at the start or the end.
  const empty = String.raw`(?:<p>(?:\s|&nbsp;|<br\s*/?>)*</p>\s*)+`;
  return sanitizeHtml(html, OPTIONS)
    .trim()
    .replace(new RegExp(`^${empty}|${empty}$`, 'g'), '')
    .trim();
}

/** Tags whose content is code, and attributes that run it. */
const SCRIPT_TAGS = new Set(['script', 'style', 'object', 'embed', 'applet', 'base', 'meta', 'link']);

/**
 * True when `html` holds something that runs code (a <script>, <style> or <object> element, an `on…` attribute, a
 * `javascript:`, `vbscript:` or `data:` address): the forms refuse it rather than silently drop it.
 */
export function holdsScript(html: string): boolean {
  let found = false;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (SCRIPT_TAGS.has(name)) found = true;
      for (const [attribute, value] of Object.entries(attributes)) {
        // Browsers ignore spaces and control characters in an address: `java\tscript:` still runs.
        const address = [...value].filter((character) => character.charCodeAt(0) > 0x20).join('');
        if (/^on/i.test(attribute) || /^(javascript|vbscript|data):/i.test(address)) found = true;
      }
    },
  });
  parser.end(html);
  return found;
}

/** The `href` of each `<a>` in `html` that safeLinkAddress refuses (as written), in order: the forms name them. */
export function refusedLinks(html: string): string[] {
  const links = DomUtils.getElementsByTagName('a', parseDocument(html));
  return links.flatMap(({ attribs: { href } }) => (href?.trim() && safeLinkAddress(href) === undefined ? [href] : []));
}
