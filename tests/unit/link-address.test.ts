import { describe, expect, it } from 'vitest';
import { safeLinkAddress } from '../../src/lib/link-address';
import { refusedLinks, sanitizeContentHtml } from '../../src/lib/html.server';

/** The spellings that passed the menus' old check and ran as `javascript:` or left the site. */
const SMUGGLED = [
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u0001javascript:alert(1)',
  'javascript\t:alert(1)',
];
const OTHER_HOST = ['//evil.example', '/\\evil.example', ' //evil.example/x'];

describe('safeLinkAddress', () => {
  it.each([...SMUGGLED, ...OTHER_HOST])('refuses %j', (href) => {
    expect(safeLinkAddress(href)).toBeUndefined();
  });

  it.each([
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'https://exa\u0000mple.org/',
    'contact',
    '',
    ' \t ',
  ])('refuses %j', (href) => {
    expect(safeLinkAddress(href)).toBeUndefined();
  });

  it.each([
    ['https://www.helloasso.com/associations/x', 'https://www.helloasso.com/associations/x'],
    ['http://example.org', 'http://example.org'],
    ['mailto:contact@ecole.fr', 'mailto:contact@ecole.fr'],
    ['tel:+33123456789', 'tel:+33123456789'],
    ['/', '/'],
    ['/ecole/schema?x=1#y', '/ecole/schema?x=1#y'],
    ['#preinscription', '#preinscription'],
    // Read as a browser reads it: spaces around, tabs and line breaks inside are dropped.
    ['  https://exam\tple.org/a\nb  ', 'https://example.org/ab'],
  ])('accepts %j as %j', (href, read) => {
    expect(safeLinkAddress(href)).toBe(read);
  });
});

describe('the rich text’s links', () => {
  const html = [...SMUGGLED, ...OTHER_HOST, 'https://ok.example/'].map((href) => `<a href="${href}">x</a>`).join(' ');

  it('names every refused address, and the sanitiser keeps none of them', () => {
    expect(refusedLinks(html)).toEqual([...SMUGGLED, ...OTHER_HOST]);
    expect(sanitizeContentHtml(html).match(/href="[^"]*"/g)).toEqual(['href="https://ok.example/"']);
  });
});
