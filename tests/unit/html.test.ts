import { describe, expect, it } from 'vitest';
import { asPageSections, htmlToText, sanitizeContentHtml } from '../../src/lib/html.server';

describe('sanitizeContentHtml against hostile HTML', () => {
  it('removes scripts and styles with their content, keeps the text around', () => {
    const html = sanitizeContentHtml('<p>Bonjour</p><script>alert(1)</script><style>p{}</style><p>à tous</p>');
    expect(html).toBe('<p>Bonjour</p><p>à tous</p>');
  });

  it('removes event handlers and javascript:/data: URLs', () => {
    const html = sanitizeContentHtml(
      '<p onclick="steal()">Texte</p><a href="javascript:alert(1)">lien</a><a href="JaVaScRiPt:alert(1)">x</a><img ' +
        'src="data:image/png;base64,AAA" onerror="x()" alt="a">',
    );
    expect(html).not.toMatch(/onclick|onerror|javascript|data:/i);
    expect(html).toContain('<p>Texte</p>');
    expect(html).toContain('lien');
  });

  it('removes unknown iframes, forms and SVG tricks, keeps known video hosts', () => {
    expect(sanitizeContentHtml('<iframe src="https://evil.example/x"></iframe><p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeContentHtml('<form action="/x"><input name="a"></form><svg onload="x()"></svg>')).toBe('');
    const video = sanitizeContentHtml(
      '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Fête de l’école"></iframe>',
    );
    expect(video).toContain('src="https://www.youtube-nocookie.com/embed/abc"');
  });

  it('keeps safe formatting, demotes h1/h2 and protects new-tab links', () => {
    expect(sanitizeContentHtml('<h1>Titre</h1><p><strong>fort</strong> <em>doux</em></p>')).toBe(
      '<h3>Titre</h3><p><strong>fort</strong> <em>doux</em></p>',
    );
    expect(sanitizeContentHtml('<a href="https://exemple.fr" target="_blank">site</a>')).toBe(
      '<a href="https://exemple.fr" target="_blank" rel="noopener noreferrer">site</a>',
    );
  });

  it("reveals '[at]' in text and mailto links", () => {
    expect(sanitizeContentHtml('<a href="mailto:info[at]asso.fr">info[at]asso.fr</a>')).toBe(
      '<a href="mailto:info@asso.fr">info@asso.fr</a>',
    );
  });

  it('turns HTML into plain text for meta descriptions', () => {
    expect(htmlToText('<p>Une <strong>école</strong>&nbsp;pour tous &amp; chacun</p>')).toBe(
      'Une école pour tous & chacun',
    );
  });
});

describe('asPageSections', () => {
  it('turns the article’s h3 sections into the page’s h2 sections, attributes kept', () => {
    expect(asPageSections('<h3 id="a">Horaires</h3><p>texte h3</p><h3>Accès</h3>')).toBe(
      '<h2 id="a">Horaires</h2><p>texte h3</p><h2>Accès</h2>',
    );
  });
});
