/**
 * The articles' rich-text field (src/features/content/articles/RichTextField.tsx) on stored HTML: the editor and its toolbar
 * for what it can hold whole; the HTML textarea, with its note, for what it would lose (a picture, a video, a table, a
 * fifth-level heading, a language mark), the form then posting the stored HTML with the editor's change. Saving and
 * the page: tests/e2e/espace-articles.spec.ts.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';
import RichTextField from '../../src/features/content/articles/RichTextField';

function renderField(initial: string) {
  const { container } = render(
    <form>
      <label id="contenu-label" htmlFor="texte-contenu">
        Texte complet
      </label>
      <RichTextField
        name="contenu"
        label="Texte complet"
        id="texte-contenu"
        labelId="contenu-label"
        initial={initial}
      />
    </form>,
  );
  return () => new FormData(container.querySelector('form')!).get('contenu');
}

describe('RichTextField on stored HTML', () => {
  it.each([
    '<p>Bonjour <b>à tous</b>, <a href="https://exemple.org" target="_blank" rel="noopener noreferrer">lien</a></p>',
    '<h3>Programme</h3><ul><li>Jeux</li></ul><blockquote><p>Merci</p></blockquote><hr>',
    'Du texte sans balises',
  ])('opens the editor on what it holds whole: %s', async (initial) => {
    render(<RichTextField name="contenu" label="Texte complet" id="texte-contenu" labelId="l" initial={initial} />);
    expect(await screen.findByRole('toolbar', { name: 'Mise en forme : Texte complet' })).toBeVisible();
    expect(screen.queryByText(ARTICLE_MESSAGES.htmlOnly)).toBeNull();
  });

  it.each([
    ['a picture', '<p>Avant</p><figure><img src="https://exemple.org/a.jpg" alt="La cour"></figure>'],
    ['a video', '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Vidéo"></iframe>'],
    ['a table', '<table><tbody><tr><td>Lundi</td><td>8 h</td></tr></tbody></table>'],
    ['a fifth-level heading', '<h5>Détail</h5><p>Texte</p>'],
    ['a language mark', '<p>Il a dit <span lang="en">hello</span>.</p>'],
  ])('keeps the HTML textarea, with its note, for %s', async (_, initial) => {
    const posted = renderField(initial);
    const note = await screen.findByText(ARTICLE_MESSAGES.htmlOnly);
    const field = screen.getByRole('textbox', { name: 'Texte complet' });
    expect(field.tagName).toBe('TEXTAREA');
    expect(field).toHaveAccessibleDescription(ARTICLE_MESSAGES.htmlOnly);
    expect(note).toBeVisible();
    expect(screen.queryByRole('toolbar')).toBeNull();
    await userEvent.type(field, '<p>Ajouté</p>');
    expect(posted()).toBe(`${initial}<p>Ajouté</p>`);
  });

  it('refuses a link the site would not publish, in French, and sets none', async () => {
    const posted = renderField('<p>Le club</p>');
    await screen.findByRole('toolbar');
    const prompt = vi.spyOn(window, 'prompt');
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    for (const href of ['java\tscript:alert(1)', '\u0001javascript:alert(1)', '//evil.example']) {
      prompt.mockReturnValueOnce(href);
      await userEvent.click(screen.getByRole('button', { name: 'Lien' }));
      expect(alert).toHaveBeenLastCalledWith(ARTICLE_MESSAGES.badLink(href));
    }
    expect(posted()).toBe('<p>Le club</p>');
    vi.restoreAllMocks();
  });
});
