/**
 * The space's editing layer against the embedded Firestore: a save validated by the pull's schema writes the document
 * and its history entry, a stale form is refused, a restore puts back the previous version and is itself recorded;
 * other roles and refused data write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContentRejected,
  HISTORY,
  deleteContent,
  listContent,
  loadContent,
  saveContent,
} from '../../src/features/content/editing/content-store.server';
import { historyOf, restoreVersion } from '../../src/features/content/editing/history.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { staffSession } from '../fixtures/staff';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

const staff = staffSession;
const editor = staff('edition');
const article = (titre: string) => ({
  slug: 'fete-ecole',
  cat: 'actualites',
  titre,
  intro: '<p>Intro</p>',
  contenu: '',
  date: 1760000000,
  img: '',
});
const historyCount = async () => (await adminFirestore().collection(HISTORY).get()).size;

describe('saving content through the editing layer', () => {
  it('writes the document and its history entry, then restores the previous version', async () => {
    const created = await saveContent(editor, {
      collection: 'articles',
      id: 'fete-ecole',
      data: article('Fête'),
      expectedVersion: 0,
    });
    expect(created).toBeGreaterThan(0);
    await saveContent(editor, {
      collection: 'articles',
      id: 'fete-ecole',
      data: article('Fête de l’école'),
      expectedVersion: created,
    });
    expect((await loadContent(editor, 'articles', 'fete-ecole')).data?.titre).toBe('Fête de l’école');
    const history = await historyOf(editor, 'articles', 'fete-ecole');
    expect(history.map((entry) => [entry.action, entry.qui, entry.avant?.titre ?? null])).toEqual([
      ['modification', 'edition@exemple.org', 'Fête'],
      ['creation', 'edition@exemple.org', null],
    ]);
    await restoreVersion(staff('admin'), history[0]!.id);
    expect((await loadContent(editor, 'articles', 'fete-ecole')).data).toEqual(article('Fête'));
    const after = await historyOf(editor, 'articles', 'fete-ecole');
    expect(after[0]).toMatchObject({ action: 'restauration', qui: 'admin@exemple.org' });
    expect(after[0]!.avant?.titre).toBe('Fête de l’école');
  });

  it('keeps a draft where no browser reads it, and moves it back and forth as it is marked and restored', async () => {
    const stored = async () => ({
      public: (await adminFirestore().doc('articles/sortie-lac').get()).data()?.titre,
      draft: (await adminFirestore().doc('brouillons/sortie-lac').get()).data()?.titre,
    });
    const draft = { ...article('Sortie au lac'), slug: 'sortie-lac', brouillon: true };
    const created = await saveContent(editor, { collection: 'articles', id: 'sortie-lac', data: draft });
    expect(await stored()).toEqual({ public: undefined, draft: 'Sortie au lac' });
    expect((await loadContent(editor, 'articles', 'sortie-lac')).version).toBe(created);
    expect((await listContent(editor, 'articles')).find(({ id }) => id === 'sortie-lac')?.data).toEqual(draft);

    const published = { ...article('Sortie au lac, en ligne'), slug: 'sortie-lac' };
    await saveContent(editor, { collection: 'articles', id: 'sortie-lac', data: published, expectedVersion: created });
    expect(await stored()).toEqual({ public: 'Sortie au lac, en ligne', draft: undefined });

    const [change] = await historyOf(editor, 'articles', 'sortie-lac');
    expect(change).toMatchObject({ action: 'modification', avant: draft });
    await restoreVersion(editor, change!.id);
    expect(await stored()).toEqual({ public: undefined, draft: 'Sortie au lac' });
    await deleteContent(editor, 'articles', 'sortie-lac');
    expect(await stored()).toEqual({ public: undefined, draft: undefined });
    expect((await historyOf(editor, 'articles', 'sortie-lac')).map((entry) => entry.action)).toEqual([
      'suppression',
      'restauration',
      'modification',
      'creation',
    ]);
  });

  it('refuses a stale form, data the pull would leave out and other roles, writing nothing', async () => {
    const before = await historyCount();
    const stale = saveContent(editor, {
      collection: 'articles',
      id: 'fete-ecole',
      data: article('X'),
      expectedVersion: 1,
    });
    await expect(stale).rejects.toMatchObject({ status: 409 });
    const empty = saveContent(editor, { collection: 'articles', id: 'vide', data: article(' ') });
    await expect(empty).rejects.toBeInstanceOf(ContentRejected);
    await expect(empty).rejects.toMatchObject({ issues: [{ field: 'titre', message: 'Son titre est vide' }] });
    const badDate = saveContent(editor, {
      collection: 'articles',
      id: 'vide',
      data: { ...article('A'), date: 'hier' },
    });
    await expect(badDate).rejects.toMatchObject({ issues: [{ field: 'date', message: 'Sa date est illisible' }] });
    for (const role of ['admissions', 'tresorerie'] as const) {
      const refused = saveContent(staff(role), { collection: 'articles', id: 'vide', data: article('A') });
      await expect(refused).rejects.toMatchObject({ status: 403 });
    }
    expect((await loadContent(editor, 'articles', 'vide')).data).toBeUndefined();
    expect(await historyCount()).toBe(before);
  });
});
