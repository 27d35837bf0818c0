/**
 * A post sent after its session ended (kept-posts.server.ts): kept encrypted for its sender, given back once to the
 * same account on the same page, to nobody else, and never past its day.
 */
import type { AstroCookies } from 'astro';
import type { Firestore } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { KEPT_POST_COOKIE, KEPT_POST_MS, keepPost, takeKeptPost } from '../../src/features/espace/kept-posts.server';

/** A Firestore of one collection in memory, enough for the module (doc set, get, delete). */
function memoryDb() {
  const docs = new Map<string, Record<string, unknown>>();
  const db = {
    collection: () => ({
      doc: (id: string) => ({
        set: async (data: Record<string, unknown>) => void docs.set(id, data),
        get: async () => ({
          data: () => {
            const data = docs.get(id);
            const expire = data?.expire as Date | undefined;
            return data && { ...data, expire: expire && { toMillis: () => expire.getTime() } };
          },
        }),
        delete: async () => void docs.delete(id),
      }),
    }),
  } as unknown as Firestore;
  return { db, docs };
}

/** A browser's cookies, as Astro's. */
function jar() {
  const values = new Map<string, string>();
  return {
    get: (name: string) => (values.has(name) ? { value: values.get(name)! } : undefined),
    set: (name: string, value: string) => void values.set(name, value),
    delete: (name: string) => void values.delete(name),
    has: (name: string) => values.has(name),
  } as unknown as AstroCookies;
}

const articlePost = () => {
  const form = new FormData();
  form.set('titre', 'Kermesse de juin');
  form.set('contenu', '<p>Des jeux toute l’après-midi</p>');
  form.set('image', new File([new Uint8Array([1, 2, 3])], 'photo.jpg', { type: 'image/jpeg' }));
  return new Request('https://site.test/espace/articles/nouveau', { method: 'POST', body: form });
};

describe('a post kept after the session ended', () => {
  it('is stored encrypted, then given back once to its account on its page, files left out', async () => {
    const { db, docs } = memoryDb();
    const cookies = jar();
    expect(await keepPost(db, cookies, 'uid-edition', '/espace/articles/nouveau', articlePost())).toBe(true);
    expect(JSON.stringify([...docs.values()])).not.toMatch(/Kermesse|jeux/);
    expect(cookies.get(KEPT_POST_COOKIE)?.value).toMatch(/^[0-9a-f]{32}\.[\w-]{43}$/);

    expect(await takeKeptPost(db, cookies, 'uid-admin', '/espace/articles/nouveau')).toBeUndefined();
    expect(await takeKeptPost(db, cookies, 'uid-edition', '/espace/articles/autre')).toBeUndefined();
    expect(await takeKeptPost(db, cookies, 'uid-edition', '/espace/articles/nouveau')).toEqual({
      fields: [
        ['titre', 'Kermesse de juin'],
        ['contenu', '<p>Des jeux toute l’après-midi</p>'],
      ],
      hadFiles: true,
    });
    expect(docs.size).toBe(0);
    expect(await takeKeptPost(db, cookies, 'uid-edition', '/espace/articles/nouveau')).toBeUndefined();
  });

  it('opens only with the key of the browser that sent it', async () => {
    const { db } = memoryDb();
    const sender = jar();
    await keepPost(db, sender, 'uid-edition', '/espace/articles/nouveau', articlePost());
    const [id] = sender.get(KEPT_POST_COOKIE)!.value.split('.');
    const other = jar();
    other.set(KEPT_POST_COOKIE, `${id}.${Buffer.alloc(32).toString('base64url')}`);
    expect(await takeKeptPost(db, other, 'uid-edition', '/espace/articles/nouveau')).toBeUndefined();
  });

  it('is gone after its day', async () => {
    const { db, docs } = memoryDb();
    const cookies = jar();
    await keepPost(db, cookies, 'uid-edition', '/espace/articles/nouveau', articlePost(), 0);
    expect(
      await takeKeptPost(db, cookies, 'uid-edition', '/espace/articles/nouveau', KEPT_POST_MS + 1),
    ).toBeUndefined();
    expect(docs.size).toBe(0);
  });

  it('keeps nothing without a text typed', async () => {
    const { db, docs } = memoryDb();
    const empty = new Request('https://site.test/espace/session', {
      method: 'POST',
      body: new URLSearchParams({ version: '' }),
    });
    expect(await keepPost(db, jar(), 'uid-edition', '/espace/session', empty)).toBe(false);
    expect(docs.size).toBe(0);
  });
});
