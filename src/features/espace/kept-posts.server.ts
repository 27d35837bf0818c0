/**
 * What a form posted after its session ended carried, kept for the person who sent it (docs/espace.md, « Sessions that
 * end »): the guard reads the post's text fields, encrypts them (AES-256-GCM) with a key that only the sender's
 * browser holds (the HttpOnly cookie `__Host-espace-reprise`: the document's id and the key) and stores the cipher in
 * `espaceReprises/<id>` for KEPT_POST_MS, with the account's uid. Once the same account signs in again in the same
 * browser, the form's page gets the fields back (once: the document is then deleted). Another account, another
 * browser, the Firebase console or a client with any rule (firestore.rules refuses every client) read nothing.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AstroCookies, AstroCookieSetOptions } from 'astro';
import type { Firestore } from 'firebase-admin/firestore';
import { mediaType, readBoundedBody } from '../../lib/endpoint.server';

/** How long a post is kept for its sender (ms): a day, time enough to sign in again. */
export const KEPT_POST_MS = 24 * 60 * 60 * 1000;

/** The collection of kept posts (server-only, like every collection outside the public content). */
export const KEPT_POSTS = 'espaceReprises';

/** The cookie holding `<document id>.<key>` in the sender's browser. */
export const KEPT_POST_COOKIE = '__Host-espace-reprise';

/**
 * The cookie naming the account that signs in with this browser (its uid), set at sign-in and cleared at sign-out:
 * a post whose session cookie is gone (the browser drops it after 8 hours) is still known to be this account's.
 */
export const ACCOUNT_COOKIE = '__Host-espace-compte';

/** HttpOnly, Secure, SameSite=Strict, Path=/ for `maxAge` seconds (the space's cookies). */
export const spaceCookie = (maxAge: number): AstroCookieSetOptions => ({
  httpOnly: true,
  secure: true,
  sameSite: 'strict',
  path: '/',
  maxAge,
});

/** Clearing the kept post's cookie (same Secure and Path as it was set with). */
const CLEAR = { path: '/', secure: true, httpOnly: true, sameSite: 'strict' } as const;

/** Largest post read (bytes): an article with its picture; past it nothing is kept. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** Largest text kept (bytes of JSON): far past any of the space's forms, under Firestore's 1 MiB document. */
const MAX_KEPT_BYTES = 512 * 1024;

/** A post given back: its text fields in order, and whether it carried a file (not kept: to choose again). */
export interface KeptPost {
  fields: [name: string, value: string][];
  hadFiles: boolean;
}

/** The form fields of a post (URL-encoded or multipart), or undefined for anything else or past the bounds. */
async function fieldsOfPost(request: Request): Promise<KeptPost | undefined> {
  const type = mediaType(request);
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return undefined;
  try {
    const body = await readBoundedBody(request, MAX_READ_BYTES);
    const form = await new Response(body, { headers: request.headers }).formData();
    const fields: [string, string][] = [];
    let hadFiles = false;
    for (const [name, value] of form) {
      if (typeof value === 'string') fields.push([name, value]);
      else hadFiles ||= value.size > 0;
    }
    return fields.some(([, value]) => value.trim()) ? { fields, hadFiles } : undefined;
  } catch {
    return undefined;
  }
}

/** The additional data the cipher is bound to: a cipher moved to another account or page does not open. */
const boundTo = (uid: string, path: string) => Buffer.from(`${uid}\n${path}`);

/**
 * Keeps the post `request` to `path` (a normalised path of the space) for the account `uid`, and gives the browser
 * its cookie. Returns whether something was kept (nothing: no text field, not a form, too large, Firestore failing).
 */
export async function keepPost(
  db: Firestore,
  cookies: AstroCookies,
  uid: string,
  path: string,
  request: Request,
  now = Date.now(),
): Promise<boolean> {
  const post = await fieldsOfPost(request);
  const plain = post && Buffer.from(JSON.stringify(post));
  if (!plain || plain.byteLength > MAX_KEPT_BYTES) return false;
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(boundTo(uid, path));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  const id = randomBytes(16).toString('hex');
  try {
    await db
      .collection(KEPT_POSTS)
      .doc(id)
      .set({
        uid,
        chemin: path,
        expire: new Date(now + KEPT_POST_MS),
        iv: iv.toString('base64'),
        donnees: sealed.toString('base64'),
      });
  } catch (error) {
    console.error('[espace] kept post', error);
    return false;
  }
  cookies.set(KEPT_POST_COOKIE, `${id}.${key.toString('base64url')}`, spaceCookie(KEPT_POST_MS / 1000));
  return true;
}

/**
 * The post kept in this browser for account `uid` and page `path`, once: the document is deleted and the cookie
 * cleared when it is given back (or found expired or unreadable). Undefined when there is none for them.
 */
export async function takeKeptPost(
  db: Firestore,
  cookies: AstroCookies,
  uid: string,
  path: string,
  now = Date.now(),
): Promise<KeptPost | undefined> {
  const [id, key] = (cookies.get(KEPT_POST_COOKIE)?.value ?? '').split('.');
  if (!id || !key || !/^[0-9a-f]{32}$/.test(id)) return undefined;
  const reference = db.collection(KEPT_POSTS).doc(id);
  const stored = (await reference.get()).data() as
    { uid?: string; chemin?: string; expire?: { toMillis(): number }; iv?: string; donnees?: string } | undefined;
  const forget = async () => {
    cookies.delete(KEPT_POST_COOKIE, CLEAR);
    await reference.delete();
  };
  if (!stored) return void cookies.delete(KEPT_POST_COOKIE, CLEAR);
  // Another account signed in with this browser, or another page: left for its owner and page until it expires.
  if (stored.uid !== uid || stored.chemin !== path) return undefined;
  if (!stored.expire || stored.expire.toMillis() < now || !stored.iv || !stored.donnees) return void (await forget());
  try {
    const sealed = Buffer.from(stored.donnees, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), Buffer.from(stored.iv, 'base64'))
      .setAAD(boundTo(uid, path))
      .setAuthTag(sealed.subarray(-16));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()]);
    const post = JSON.parse(plain.toString('utf8')) as KeptPost;
    await forget();
    return post;
  } catch {
    await forget();
    return undefined;
  }
}

/** Deletes the kept posts whose day has passed (the daily retention job): none outlives KEPT_POST_MS by a day. */
export async function deleteExpiredKeptPosts(db: Firestore, now = Date.now()): Promise<number> {
  const expired = await db.collection(KEPT_POSTS).where('expire', '<', new Date(now)).get();
  await Promise.all(expired.docs.map((document) => document.ref.delete()));
  return expired.size;
}
