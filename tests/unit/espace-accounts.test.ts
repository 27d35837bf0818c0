/**
 * The roles and access-log modules check the role themselves, after the guard: a session that is not an admin's is
 * refused before Auth or Firestore is asked. A role change whose sessions cannot be revoked is logged and said,
 * never left silent. Auth and Firestore are stand-ins that record what they are asked.
 */
import type { Auth } from 'firebase-admin/auth';
import type { Firestore } from 'firebase-admin/firestore';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { latestAccess } from '../../src/features/espace/access-log.server';
import { changeRole, listAccounts, removeAccess } from '../../src/features/espace/accounts.server';
import type { StaffSession } from '../../src/features/espace/auth.server';
import type { Role } from '../../src/features/espace/roles';
import { HttpError } from '../../src/lib/http';

const session = (role: Role): StaffSession => ({
  uid: `uid-${role}`,
  email: `${role}@demo.test`,
  roles: [role],
  authTime: 0,
});

/**
 * An Auth with one account (`benevole@demo.test`, edition) whose revocation fails `revokeFailures` times; `admins`:
 * the uids listUsers answers, each an admin (getUser answers any uid as an admin).
 */
function fakeAuth(revokeFailures = 0, admins: string[] = []) {
  const calls: string[] = [];
  let failures = revokeFailures;
  const auth = {
    getUserByEmail: async (email: string) => {
      calls.push(`getUserByEmail ${email}`);
      return { uid: 'u1', email, customClaims: { roles: ['edition'] } };
    },
    listUsers: async () => (
      calls.push('listUsers'),
      { users: admins.map((uid) => ({ uid, customClaims: { roles: ['admin'] } })) }
    ),
    getUser: async (uid: string) => (
      calls.push(`getUser ${uid}`),
      { uid, email: `${uid}@demo.test`, customClaims: { roles: ['admin'], x: 1 } }
    ),
    setCustomUserClaims: async (_uid: string, claims: object) => void calls.push(`claims ${JSON.stringify(claims)}`),
    revokeRefreshTokens: async () => {
      calls.push('revoke');
      if (failures-- > 0) throw new Error('auth/internal-error');
    },
  };
  return { auth: auth as unknown as Auth, calls };
}

/** A Firestore whose access log records its entries; any read of it is recorded too. */
function fakeFirestore() {
  const logged: Record<string, unknown>[] = [];
  const reads: string[] = [];
  const db = {
    collection: (name: string) => ({
      add: async (entry: Record<string, unknown>) => (logged.push({ collection: name, ...entry }), { id: 'x' }),
      orderBy: () => ({ limit: () => ({ get: async () => (reads.push(name), { docs: [] }) }) }),
    }),
  };
  return { db: db as unknown as Firestore, logged, reads };
}

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => 'allowed',
    (error: unknown) => (error instanceof HttpError ? `${error.status} ${error.message}` : error),
  );
const FORBIDDEN = '403 Cette page n’est pas accessible avec votre rôle.';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the admin modules refuse every other role themselves', () => {
  it.each(['admissions', 'tresorerie', 'edition'] as const)(
    '%s: no role change, account list or access log',
    async (role) => {
      const { auth, calls } = fakeAuth();
      const { db, logged, reads } = fakeFirestore();
      expect(await refusal(changeRole(session(role), auth, db, 'benevole@demo.test', 'admin', true))).toBe(FORBIDDEN);
      expect(await refusal(listAccounts(session(role), auth))).toBe(FORBIDDEN);
      expect(await refusal(latestAccess(session(role), db))).toBe(FORBIDDEN);
      expect(await refusal(latestAccess(undefined, db))).toBe(FORBIDDEN);
      expect([calls, logged, reads]).toEqual([[], [], []]);
    },
  );

  it('an admin lists the accounts and reads the log', async () => {
    const { auth, calls } = fakeAuth();
    const { db, reads } = fakeFirestore();
    expect(await listAccounts(session('admin'), auth)).toEqual([]);
    expect(await latestAccess(session('admin'), db)).toEqual({ entries: [] });
    expect([calls, reads]).toEqual([['listUsers'], ['espaceJournal']]);
  });
});

describe('a role change by an admin', () => {
  it('sets the claims, then revokes the sessions, trying again once; logged', async () => {
    const { auth, calls } = fakeAuth(1);
    const { db, logged } = fakeFirestore();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await changeRole(session('admin'), auth, db, ' benevole@demo.test ', 'admissions', true)).toEqual([
      'admissions',
      'edition',
    ]);
    expect(calls).toEqual([
      'getUserByEmail benevole@demo.test',
      'claims {"roles":["admissions","edition"]}',
      'revoke',
      'revoke',
    ]);
    expect(logged).toMatchObject([{ collection: 'espaceJournal', qui: 'admin@demo.test', action: 'role' }]);
    expect(logged[0]!.objet).toBe('benevole@demo.test : + admissions');
  });

  it('whose sessions cannot be revoked is logged and refused in French: the old sessions stay, it says', async () => {
    const { auth, calls } = fakeAuth(2);
    const { db, logged } = fakeFirestore();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await refusal(changeRole(session('admin'), auth, db, 'benevole@demo.test', 'edition', false))).toBe(
      '503 Le rôle est changé, mais les sessions ouvertes de la personne n’ont pas pu être fermées : elles gardent ' +
        'l’ancien rôle. Refaites la même demande dans quelques minutes pour les fermer.',
    );
    expect(calls.filter((call) => call === 'revoke')).toHaveLength(2);
    expect(logged).toMatchObject([{ action: 'role', objet: 'benevole@demo.test : − edition' }]);
  });
});

describe('« Retirer » by an admin', () => {
  const LAST =
    '409 Vous êtes la seule personne de l’administration : donnez d’abord ce rôle à quelqu’un d’autre, sinon plus ' +
    'personne ne pourrait gérer les comptes.';

  it('takes every role away, keeps the other claims, closes the sessions; logged', async () => {
    const { auth, calls } = fakeAuth(0, ['uid-admin']);
    const { db, logged } = fakeFirestore();
    expect(await removeAccess(session('admin'), auth, db, 'u9')).toBe('u9@demo.test');
    expect(calls).toEqual(['getUser u9', 'claims {"roles":[],"x":1}', 'revoke']);
    expect(logged).toMatchObject([{ action: 'role', objet: 'u9@demo.test : accès retiré' }]);
  });

  it('refuses the last admin removing themself, or their admin role, and changes nothing', async () => {
    const { auth, calls } = fakeAuth(0, ['uid-admin']);
    const { db, logged } = fakeFirestore();
    expect(await refusal(removeAccess(session('admin'), auth, db, 'uid-admin'))).toBe(LAST);
    expect(await refusal(changeRole(session('admin'), auth, db, 'Admin@demo.test', 'admin', false))).toBe(LAST);
    expect(calls.filter((call) => call.startsWith('claims') || call === 'revoke')).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('lets an admin remove themself when another admin remains', async () => {
    const { auth } = fakeAuth(0, ['uid-admin', 'uid-autre']);
    const { db } = fakeFirestore();
    expect(await removeAccess(session('admin'), auth, db, 'uid-admin')).toBe('uid-admin@demo.test');
  });
});
