/**
 * The articles' rich-text field (src/features/content/articles/RichTextField.tsx) on stored HTML: the editor and its toolbar
 * for what it can hold whole; the HTML textarea, with its note, for what it would lose (a picture, a video, a table, a
 * fifth-level heading, a language mark), the form then posting the stored HTML with the editor's change. Saving and
 * the page: tests/e2e/espace-articles.spec.ts.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';
import RichTextField from '../../src/features/content/articles/RichTextField';
import { linkTargets } from '../../src/features/content/articles/link-targets';

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
});

describe('the link dialog', () => {
  // jsdom lays nothing out: ProseMirror's scroll to the cursor after a focus needs rectangles, empty ones do.
  beforeAll(() => {
    const empty = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
    Range.prototype.getClientRects ??= empty;
    Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  });

  const links = linkTargets([
    { id: 'kermesse', titre: 'Kermesse de juin', cat: 'actualites', slug: 'kermesse-2026', brouillon: false },
    { id: 'secret', titre: 'Kermesse en préparation', cat: 'actualites', slug: 'secret', brouillon: true },
  ]);

  function renderWithLinks(initial: string) {
    const { container } = render(
      <form>
        <label id="l" htmlFor="texte-contenu">
          Texte complet
        </label>
        <RichTextField
          name="contenu"
          label="Texte complet"
          id="texte-contenu"
          labelId="l"
          initial={initial}
          links={links}
        />
      </form>,
    );
    return () => new FormData(container.querySelector('form')!).get('contenu');
  }

  it('searches the site’s pages and articles by title, and puts the chosen one as a link', async () => {
    const user = userEvent.setup();
    const posted = renderWithLinks('<p>Le club</p>');
    await screen.findByRole('toolbar');
    await user.click(screen.getByRole('button', { name: 'Lien' }));
    const dialog = screen.getByRole('dialog', { name: 'Lien' });
    const search = within(dialog).getByRole('searchbox', { name: 'Chercher une page ou un article du site' });
    expect(search).toHaveFocus();
    await user.type(search, 'KERMESSE');
    // The draft's page is not online: not offered.
    expect(within(dialog).getByText('1 page trouvée :')).toBeVisible();
    await user.clear(search);
    await user.type(search, 'ecole');
    expect(
      within(dialog)
        .getAllByRole('button', { name: /Page · \/ecole/ })
        .map((button) => button.textContent),
    ).toEqual(['L’école Page · /ecole', 'Préinscription à l’école Page · /ecole#preinscription']);
    await user.clear(search);
    await user.type(search, 'kermesse');
    await user.click(
      within(dialog).getByRole('button', { name: 'Kermesse de juin Article · /actualites/kermesse-2026' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    // Nothing was selected: the article's title is written as the link.
    expect(posted()).toMatch(/<a href="\/actualites\/kermesse-2026">Kermesse de juin<\/a>/);
  });

  it('takes an address the site publishes, refuses another in French, and Annuler changes nothing', async () => {
    const user = userEvent.setup();
    const posted = renderWithLinks('<p>Le club</p>');
    await screen.findByRole('toolbar');
    await user.click(screen.getByRole('button', { name: 'Lien' }));
    const dialog = screen.getByRole('dialog', { name: 'Lien' });
    const address = within(dialog).getByRole('textbox', { name: 'Ou l’adresse du lien' });
    for (const href of ['java\tscript:alert(1)', '//evil.example']) {
      await user.clear(address);
      await user.type(address, href);
      await user.click(within(dialog).getByRole('button', { name: 'Mettre ce lien' }));
      expect(within(dialog).getByRole('alert')).toHaveTextContent(ARTICLE_MESSAGES.badLink(href));
      expect(address).toHaveAttribute('aria-invalid', 'true');
    }
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted()).toBe('<p>Le club</p>');

    await user.click(screen.getByRole('button', { name: 'Lien' }));
    const again = screen.getByRole('dialog', { name: 'Lien' });
    // Opened again, it starts afresh.
    expect(within(again).queryByRole('alert')).toBeNull();
    await user.type(within(again).getByRole('textbox', { name: 'Ou l’adresse du lien' }), 'https://exemple.org/club');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted()).toMatch(/<a href="https:\/\/exemple.org\/club">https:\/\/exemple.org\/club<\/a>/);
  });
});
