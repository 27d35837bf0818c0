/**
 * The '[at]' obfuscation of spec §9: emails in the address and contact data
 * are stored as `name[at]domain.fr` and always shown as `name@domain.fr`.
 */

/** Replaces every `[at]` (any case, optional spaces inside the brackets) by `@`. */
export function revealAt(text: string): string {
  return text.replace(/\s*\[\s*at\s*\]\s*/gi, '@');
}

/** One contact line of the `adresse` article, ready to render. */
export interface ContactLine {
  /** Label before " : " (e.g. "Secrétariat"), or '' when there is none. */
  label: string;
  /** Value as shown (with '@' revealed). */
  value: string;
  /** `mailto:` or `tel:` URL, or undefined for plain text. */
  href: string | undefined;
  kind: 'email' | 'phone' | 'text';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s.()-]{8,}$/;

/**
 * Parses plain-text contact lines ("Label : value", one per line) into
 * emails (mailto), phone numbers (tel, digits and leading + kept) and text.
 */
export function parseContactLines(text: string): ContactLine[] {
  return text
    .split(/\r?\n/)
    .map((line) => revealAt(line.trim()))
    .filter(Boolean)
    .map((line) => {
      const separator = line.search(/\s*:\s/);
      const label = separator > 0 ? line.slice(0, separator).trim() : '';
      const value = separator > 0 ? line.slice(line.indexOf(':', separator) + 1).trim() : line;
      if (EMAIL.test(value)) return { label, value, href: `mailto:${value}`, kind: 'email' as const };
      if (PHONE.test(value) && /\d{6,}/.test(value.replace(/\D/g, ''))) {
        return { label, value, href: `tel:${value.replace(/[^\d+]/g, '')}`, kind: 'phone' as const };
      }
      return { label, value, href: undefined, kind: 'text' as const };
    });
}
