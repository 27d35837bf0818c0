/**
 * The one rule for every address an editor gives a link (menus, articles' and partners' rich text, the space's forms):
 * read as a browser reads it, then only the kinds a visitor may follow.
 */

/** Schemes a link may have; any other (`javascript:`, `data:`, `vbscript:`, `file:`…) is refused. */
const SCHEMES = new Set(['https', 'http', 'mailto', 'tel']);

/**
 * The link address `raw` as a browser reads it (WHATWG URL parsing drops the C0 controls and spaces around it and every
 * tab and line break inside it, so `java\tscript:` is `javascript:`), when it is an `https:`, `http:`, `mailto:` or
 * `tel:` address, a site path (`/…`, not `//…` nor `/\…`, which browsers send to another host) or a fragment of the
 * page (`#…`); undefined for anything else, an empty address or one holding another control character.
 * @example safeLinkAddress(' java\tscript:alert(1)') // undefined
 * @example safeLinkAddress(' /ecole ') // '/ecole'
 */
export function safeLinkAddress(raw: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the controls browsers strip are the point
  const href = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  // eslint-disable-next-line no-control-regex -- a control character left has no place in an address
  if (!href || /[\u0000-\u001f\u007f]/.test(href)) return undefined;
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (!SCHEMES.has(scheme)) return undefined;
    return scheme.startsWith('http') && !URL.canParse(href) ? undefined : href;
  }
  return href.startsWith('#') || /^\/(?![/\\])/.test(href) ? href : undefined;
}

/** The French reason a link address is refused (the pull's report and the space's forms say it by the field). */
export const LINK_REFUSED =
  'n’est pas un lien autorisé : écrivez une adresse https://…, mailto:…, tel:… ou /page du site';

/** A refused address as a message may quote it: control characters as spaces, at most `max` characters. */
export function quotedLinkAddress(raw: string, max = 60): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex -- shown, never followed
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .trim()
      .slice(0, max)
  );
}
