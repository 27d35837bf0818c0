/** The '[at]' display of emails (spec §9) and the `adresse` article's contact lines, with tel: and mailto: links. */

/** Replaces every `[at]` (any case, optional spaces inside the brackets) by `@`. */
export function revealAt(text: string): string {
  return text.replace(/\s*\[\s*at\s*\]\s*/gi, '@');
}

/** A piece of a contact line as shown ('@' revealed), with its `mailto:` or `tel:` URL (undefined for plain text). */
export type ContactPart = { text: string; href: string | undefined; kind: 'email' | 'phone' | 'text' };

const EMAIL = /[^\s@<>()[\]:;,«»"]+@[^\s@<>()[\]:;,«»"]+\.[a-z]{2,}/i;
// French numbers (04 78 12 34 56, 04.78.12.34.56, +33 (0)4 78 12 34 56) and other international ones
// (+44 20 7946 0958).
const FRENCH_PHONE = String.raw`\+33[\s.]?(?:\(0\)[\s.]?)?\d(?:[\s.-]?\d{2}){4}|0\d(?:[\s.-]?\d{2}){4}`;
const INTERNATIONAL_PHONE = String.raw`\+\d{1,3}(?:[\s.-]?\d{2,4}){2,5}`;
const PHONE = String.raw`(?<![\w+])(?:${FRENCH_PHONE}|${INTERNATIONAL_PHONE})(?!\d)`;
const LINKABLE = new RegExp(`${EMAIL.source}|${PHONE}`, 'gi');

/** Splits one line into text, emails (mailto:) and phone numbers (tel:, digits and a leading + kept). */
export function linkContacts(line: string): ContactPart[] {
  const parts: ContactPart[] = [];
  let last = 0;
  for (const { 0: text, index } of line.matchAll(LINKABLE)) {
    if (index > last) parts.push({ text: line.slice(last, index), href: undefined, kind: 'text' });
    parts.push(
      text.includes('@')
        ? { text, href: `mailto:${text}`, kind: 'email' }
        : { text, href: `tel:${text.replace(/\(0\)/, '').replace(/[^\d+]/g, '')}`, kind: 'phone' },
    );
    last = index + text.length;
  }
  if (last < line.length) parts.push({ text: line.slice(last), href: undefined, kind: 'text' });
  return parts;
}

/**
 * Parses plain-text contact lines ("Label : value" or a value, one a line) into `{label ('' when none), parts}`, emails
 * and phones linked.
 */
export function parseContactLines(text: string) {
  return text
    .split(/\r?\n/)
    .map((line) => revealAt(line.trim()).replace(/\s+/g, ' '))
    .filter(Boolean)
    .map((line) => {
      const separator = line.search(/\s*:\s/);
      const label = separator > 0 && separator <= 30 ? line.slice(0, separator).trim() : '';
      return { label, parts: linkContacts(label ? line.slice(line.indexOf(':', separator) + 1).trim() : line) };
    });
}

/**
 * The association's contact address: the first email of its contact lines, then of its postal lines (article
 * `adresse`'s contenu, then intro); undefined when none. The footer, the legal pages, the thank-you page and the
 * donors' mails all give this one.
 */
export function firstEmail(...lineGroups: { parts: ContactPart[] }[][]): ContactPart | undefined {
  return lineGroups
    .flat()
    .flatMap((line) => line.parts)
    .find((part) => part.kind === 'email');
}

/** A contact line as plain text: `Label : value`, or the value alone. */
export function contactLineText({ label, parts }: { label: string; parts: ContactPart[] }): string {
  const value = parts.map((part) => part.text).join('');
  return label ? `${label} : ${value}` : value;
}
