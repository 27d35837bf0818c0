/**
 * The space's forms under attack, rendered by Astro as the site answers them, against the embedded Firestore and
 * Firebase's Auth emulator, each form posted to its Astro Action as Astro does (tests/fixtures/action-post.ts): a
 * cheque with a NUL in its donor's name gets a French 400 and nothing is written (the structure forms are attacked on
 * the built site: tests/e2e/espace-structure.spec.ts); the roles page answers an address of 5,000 characters, or an
 * error of Firebase, in French without a stack trace; a session whose role is taken away is refused at its next
 * request, even within the second of its sign-in.
 */
import { randomUUID } from 'node:crypto';
import { FIREBASE_AUTH_EMULATOR_HOST, FIREBASE_PROJECT_ID } from 'astro:env/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAuthEmulator, type AuthEmulator } from '../../scripts/lib/auth-emulator';
import { adminAuth, openSession, signInWithPassword, verifySession } from '../../src/features/espace/auth.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { postAction } from '../fixtures/action-post';
import { staffSession } from '../fixtures/staff';
import { rolesActions } from '../../src/features/espace/roles-actions.server';
import { donationActions } from '../../src/features/donations/ledger/ledger-actions.server';

let world: MailWorld;
let emulator: AuthEmulator;
beforeAll(async () => {
  world = await startMailWorld();
  // Where the site's Auth looks (tests/fixtures/site-env.ts).
  emulator = await startAuthEmulator(FIREBASE_PROJECT_ID!, Number(FIREBASE_AUTH_EMULATOR_HOST!.split(':')[1]));
}, 180_000);
afterAll(async () => {
  await emulator?.stop();
  await world?.stop();
});

/** What a reader sees of a page: its text without tags. */
const visible = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the treasurer’s cheque form', () => {
  it('refuses a control character in the donor’s name in French, recording no gift', async () => {
    const cle = randomUUID();
    const fields = {
      cle,
      moyen: 'cheque',
      date: new Date().toISOString().slice(0, 10),
      montant: '20',
      nom: 'Jean\u0000Dupont',
      adresse: '12 rue Victor Hugo',
      postal: '69002',
      ville: 'Lyon',
      email: '',
    };
    const [path, treasurer] = ['/espace/dons/nouveau', staffSession('tresorerie')];
    const record = donationActions.record;
    const answer = await postAction('dons/nouveau.astro', path, 'donations.record', record, fields, treasurer);
    expect(answer.status).toBe(400);
    expect(visible(answer.text)).toContain('un champ contient un caractère invisible interdit');
    expect(answer.text).not.toContain('\u0000');
    expect((await adminFirestore().collection('dons').where('nom', '==', fields.nom).get()).size).toBe(0);
  });
});

describe('the roles page', () => {
  const admin = staffSession('admin');
  const role = async (email: string) => {
    const fields = { email, role: 'edition' };
    const answer = await postAction('roles.astro', '/espace/roles', 'roles.invite', rolesActions.invite, fields, admin);
    return { ...answer, text: visible(answer.text) };
  };

  it('answers an address of 5,000 characters with a French 400, changing nothing', async () => {
    const answer = await role(`${'a'.repeat(4990)}@exemple.fr`);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Merci de saisir une adresse email valide');
    expect(answer.text).not.toMatch(/\bat \S+ \(|Error:/);
  });

  it('answers an unexpected error of Firebase with a logged 503 in French, without its stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = Object.assign(new Error('Internal error encountered.'), { code: 'auth/internal-error' });
    vi.spyOn(adminAuth(), 'getUserByEmail').mockRejectedValueOnce(failure);
    const answer = await role('benevole@exemple.fr');
    vi.restoreAllMocks();
    expect(answer.status).toBe(503);
    expect(answer.text).toContain('Le service est momentanément indisponible : rien n’a été modifié.');
    expect(answer.text).not.toContain('Internal error');
    expect(answer.text).not.toMatch(/\bat \S+ \(/);
    expect(logged).toHaveBeenCalled();
  });
});

describe('a session whose role is taken away', () => {
  /** A staff account with `roles`, signed in: its session cookie and session. */
  async function signedIn(roles: string[]) {
    const email = `personne-${randomUUID().slice(0, 8)}@exemple.fr`;
    const user = await adminAuth().createUser({ email, password: 'un-mot-de-passe' });
    await adminAuth().setCustomUserClaims(user.uid, { roles });
    const { cookie, session } = await openSession(await signInWithPassword(email, 'un-mot-de-passe'));
    expect(await verifySession(cookie)).toMatchObject({ uid: user.uid, roles });
    return { uid: user.uid, cookie, session };
  }

  it('is refused at its next request when the revocation falls in the second of its sign-in', async () => {
    const { uid, cookie, session } = await signedIn(['tresorerie']);
    await adminAuth().setCustomUserClaims(uid, { roles: [] });
    // What revokeRefreshTokens records, in whole seconds: here the very second the session was opened.
    const answer = await fetch(
      `http://${emulator.address}/identitytoolkit.googleapis.com/v1/projects/${FIREBASE_PROJECT_ID}/accounts:update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: uid, validSince: String(session.authTime) }),
      },
    );
    expect(answer.ok).toBe(true);
    expect(Date.parse((await adminAuth().getUser(uid)).tokensValidAfterTime!)).toBe(session.authTime * 1000);
    expect(await verifySession(cookie)).toBeUndefined();
  });

  it('takes the account’s roles as they are now, at every request', async () => {
    const { uid, cookie } = await signedIn(['admin', 'tresorerie']);
    await adminAuth().setCustomUserClaims(uid, { roles: ['tresorerie'] });
    expect(await verifySession(cookie)).toMatchObject({ roles: ['tresorerie'] });
    await adminAuth().updateUser(uid, { disabled: true });
    expect(await verifySession(cookie)).toBeUndefined();
  });
});
