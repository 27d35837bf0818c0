/**
 * The articles' form helpers (src/features/content/articles/articles.ts) and the editors' HTML checks (src/lib/html.server.ts):
 * slugs from titles, the date picker in the original admin's seconds, scripts found in any disguise, the stored HTML
 * sanitised by the build's own rules, drafts as the pull recognises them.
 */
import { describe, expect, it } from 'vitest';
import {
  dateInputToSeconds,
  megabytes,
  secondsToDateInput,
  slugify,
} from '../../src/features/content/articles/articles';
import { isDraft } from '../../src/lib/drafts';
import { holdsScript, sanitizeEditorHtml } from '../../src/lib/html.server';

describe('slugify', () => {
  it('keeps letters and digits without accents, one dash between words, at most 80 characters', () => {
    expect(slugify('Fête de l’école 2026 !')).toBe('fete-de-l-ecole-2026');
    expect(slugify('  Œuvres & cœur — Noël ')).toBe('oeuvres-coeur-noel');
    expect(slugify('!!!')).toBe('');
    const long = slugify('Une très longue sortie '.repeat(10));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('the date picker in seconds', () => {
  it('stores noon UTC of the chosen day, shown back as the same day in Paris in winter and summer', () => {
    expect(dateInputToSeconds('2026-11-20')).toBe(Date.UTC(2026, 10, 20, 12) / 1000);
    for (const day of ['2026-01-01', '2026-07-14', '2026-03-29', '2026-10-25']) {
      expect(secondsToDateInput(dateInputToSeconds(day))).toBe(day);
    }
  });

  it('reads what the console holds (seconds as text, milliseconds, a Timestamp); refuses an impossible day', () => {
    expect(secondsToDateInput('1760000000')).toBe('2025-10-09');
    expect(secondsToDateInput(1760000000000)).toBe('2025-10-09');
    expect(secondsToDateInput({ seconds: 1760000000, nanoseconds: 0 })).toBe('2025-10-09');
    expect(secondsToDateInput('')).toBe('');
    expect(dateInputToSeconds('2026-02-31')).toBe('2026-02-31');
    expect(dateInputToSeconds('')).toBe('');
  });
});

describe('editors’ HTML', () => {
  it('finds code in any disguise', () => {
    for (const html of [
      '<p>a</p><script>alert(1)</script>',
      '<img src="x" onerror="alert(1)">',
      '<a href="javascript:alert(1)">lien</a>',
      '<a href=" java\tscript:alert(1)">lien</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD4=">lien</a>',
      '<style>body{display:none}</style>',
      '<P ONCLICK="x()">a</P>',
    ]) {
      expect(holdsScript(html), html).toBe(true);
    }
    expect(holdsScript('<p>Écrivez à contact[at]exemple.fr, <a href="https://exemple.fr">lien</a></p>')).toBe(false);
  });

  it('stores what the build will show, keeping the editor’s [at]', () => {
    expect(sanitizeEditorHtml('<div class="x"><h2>Titre</h2><p>contact[at]exemple.fr</p></div>')).toBe(
      '<h3>Titre</h3><p>contact[at]exemple.fr</p>',
    );
    expect(sanitizeEditorHtml('<p></p><h3>Le programme</h3><p>Jeux.</p><p><br></p><p></p>')).toBe(
      '<h3>Le programme</h3><p>Jeux.</p>',
    );
  });
});

describe('drafts and sizes', () => {
  it('recognises a draft as the space stores it and as the console types it', () => {
    expect([true, 'true', ' TRUE ', false, 'false', '', undefined].map((brouillon) => isDraft({ brouillon }))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('says sizes in megabytes, French style', () => {
    expect([megabytes(30 * 1024 * 1024), megabytes(2.5 * 1024 * 1024)]).toEqual(['30 Mo', '2,5 Mo']);
  });
});
