/**
 * The articles' rules that keep the site publishable, against the embedded Firestore: a legal page's article is never
 * a draft nor out of its category (by a save or a restore), slugs that the space or the news list use are refused, a
 * title without a usable letter asks for a link, a restore takes only the article's own history and a link still free.
 * Each refusal is in French and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreArticle } from '../../src/features/content/articles/article-history.server';
import { ARTICLE_MESSAGES } from '../../src/features/content/articles/articles';
import { saveArticle, type ArticlePost } from '../../src/features/content/articles/articles.server';
import { HISTORY, loadContent, saveContent } from '../../src/features/content/editing/content-store.server';
import { historyOf } from '../../src/features/content/editing/history.server';
import { EDITING_MESSAGES } from '../../src/features/content/editing/messages';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

const editor: StaffSession = { uid: 'uid-edition', email: 'edition@exemple.org', roles: ['edition'], authTime: 0 };
const origin = 'http://127.0.0.1:9';
const legalText = { slug: '', cat: 'legal', titre: 'Mentions légales', intro: '', contenu: '<p>Éditeur : …</p>' };

/** The form post of the space's article form. */
function form(fields: Record<string, string>): ArticlePost {
  return fields;
}

/** Where article `id` is stored: its public place, its drafts' place, and its number of history entries. */
async function stored(id: string) {
  const db = adminFirestore();
  return {
    public: (await db.doc(`articles/${id}`).get()).data(),
    draft: (await db.doc(`brouillons/${id}`).get()).exists,
    entries: (await db.collection(HISTORY).where('objet', '==', `articles/${id}`).get()).size,
  };
}

describe('the legal pages', () => {
  it('refuses a draft or another category for « Mentions légales », saved or restored, writing nothing', async () => {
    // An old draft version, from before the rule (or typed in the console), then the published page.
    await saveContent(editor, { collection: 'articles', id: 'mentions', data: { ...legalText, brouillon: true } });
    const version = await saveContent(editor, { collection: 'articles', id: 'mentions', data: legalText });
    const before = await stored('mentions');
    expect(before).toMatchObject({ public: legalText, draft: false, entries: 2 });

    const post = { titre: 'Mentions légales', cat: 'legal', contenu: '<p>Nouveau texte</p>', version: String(version) };
    await expect(saveArticle(editor, 'mentions', form({ ...post, brouillon: 'oui' }), origin)).rejects.toMatchObject({
      issues: [{ field: 'brouillon', message: ARTICLE_MESSAGES.legalDraft('Mentions légales') }],
      fields: { contenu: '<p>Nouveau texte</p>', brouillon: true },
    });
    await expect(
      saveArticle(editor, 'mentions', form({ ...post, cat: 'actualites', date: '2026-11-20' }), origin),
    ).rejects.toMatchObject({
      issues: [
        {
          field: 'cat',
          message:
            '« Mentions légales » est une page légale : elle reste dans la rubrique « Pages légales », sinon le ' +
            'site la remplacerait par une page écrite à partir de ses seules informations.',
        },
      ],
    });
    expect(await stored('mentions')).toEqual(before);

    const [modification, creation] = await historyOf(editor, 'articles', 'mentions');
    expect(modification!.avant).toMatchObject({ brouillon: true });
    for (const entry of [modification!, creation!]) {
      await expect(restoreArticle(editor, 'mentions', entry.id)).rejects.toMatchObject({
        status: 409,
        message: ARTICLE_MESSAGES.legalRestore('Mentions légales'),
      });
    }
    expect(await stored('mentions')).toEqual(before);

    // The page stays editable as a published legal page.
    await saveArticle(editor, 'mentions', form(post), origin);
    expect((await stored('mentions')).public).toMatchObject({ cat: 'legal', contenu: '<p>Nouveau texte</p>' });
  });
});

describe('links of new articles', () => {
  it('refuses « nouveau », a number alone and a title without a usable letter, keeping what was typed', async () => {
    const typed = { cat: 'actualites', date: '2026-11-20', intro: '<p>Bientôt</p>' };
    const refusal = (titre: string) => saveArticle(editor, 'nouveau', form({ ...typed, titre }), origin);
    await expect(refusal('Nouveau')).rejects.toMatchObject({
      issues: [
        {
          field: 'slug',
          message: 'Le lien « nouveau » est réservé à l’écriture d’un nouvel article : choisissez-en un autre.',
        },
      ],
      fields: { titre: 'Nouveau', slug: 'nouveau', intro: '<p>Bientôt</p>' },
    });
    await expect(refusal('2026')).rejects.toMatchObject({
      issues: [{ field: 'slug', message: ARTICLE_MESSAGES.slugNumber }],
    });
    for (const titre of ['« !!! »', '東京の学校']) {
      await expect(refusal(titre)).rejects.toMatchObject({
        issues: [{ field: 'slug', message: ARTICLE_MESSAGES.slugEmpty }],
        fields: { titre, slug: '', cat: 'actualites', intro: '<p>Bientôt</p>' },
      });
    }
    await expect(refusal('')).rejects.toMatchObject({ issues: [{ field: 'titre', message: 'Son titre est vide.' }] });
    for (const id of ['nouveau', '2026'])
      expect(await stored(id)).toEqual({ public: undefined, draft: false, entries: 0 });

    // The editor's own link saves it.
    const saved = await saveArticle(
      editor,
      'nouveau',
      form({ ...typed, titre: '東京の学校', slug: 'ecole-tokyo' }),
      origin,
    );
    expect(saved).toEqual({ id: 'ecole-tokyo', brouillon: false });
  });
});

describe('dates', () => {
  it('refuses a news article without a date (it would sort after all the others), writing nothing', async () => {
    const undated = { cat: 'actualites', titre: 'Sans date', intro: '<p>Quand ?</p>' };
    await expect(saveArticle(editor, 'nouveau', form(undated), origin)).rejects.toMatchObject({
      issues: [{ field: 'date', message: ARTICLE_MESSAGES.dateMissing }],
      fields: { titre: 'Sans date', date: '' },
    });
    expect(await stored('sans-date')).toEqual({ public: undefined, draft: false, entries: 0 });
    // Another category does not show nor sort by its date: none is needed.
    expect(await saveArticle(editor, 'nouveau', form({ ...undated, cat: 'asso' }), origin)).toEqual({
      id: 'sans-date',
      brouillon: false,
    });
  });
});

describe('restoring an article', () => {
  it('takes only an entry of that article, and a link no other article has taken meanwhile', async () => {
    const sortie = { cat: 'actualites', date: '2026-11-20', intro: '<p>Au lac</p>' };
    await saveArticle(editor, 'nouveau', form({ ...sortie, titre: 'Sortie' }), origin);
    const { version } = await loadContent(editor, 'articles', 'sortie');
    const post = { ...sortie, titre: 'Sortie', slug: 'sortie-au-lac', version: String(version) };
    await saveArticle(editor, 'sortie', form(post), origin);
    await saveArticle(editor, 'nouveau', form({ ...sortie, titre: 'Kermesse' }), origin);
    const kermesse = await stored('kermesse');

    const [renamed] = await historyOf(editor, 'articles', 'sortie');
    expect(renamed!.avant).toMatchObject({ slug: 'sortie' });
    // An entry of another article, posted from this one's page.
    await expect(restoreArticle(editor, 'kermesse', renamed!.id)).rejects.toMatchObject({
      status: 404,
      message: EDITING_MESSAGES.versionNotFound,
    });
    expect(await stored('kermesse')).toEqual(kermesse);

    // Meanwhile another article took the old link.
    const taken = await loadContent(editor, 'articles', 'kermesse');
    const takeLink = { ...sortie, titre: 'Kermesse', slug: 'sortie', version: String(taken.version) };
    await saveArticle(editor, 'kermesse', form(takeLink), origin);
    const before = await stored('sortie');
    await expect(restoreArticle(editor, 'sortie', renamed!.id)).rejects.toMatchObject({
      status: 409,
      message:
        'Rien n’a été rétabli : le lien de cette version (sortie) est aujourd’hui celui de l’article « Kermesse ». ' +
        'Changez d’abord le lien de l’un des deux.',
    });
    expect(await stored('sortie')).toEqual(before);
  });
});
