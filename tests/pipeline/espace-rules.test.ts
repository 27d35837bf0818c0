/**
 * firestore.rules against staff accounts, in Google's Firestore emulator: a browser signed in with any role of the
 * space (an editor's above all) reads and writes nothing personal; the space reads it only on the server with
 * firebase-admin. Under CI=true a missing Java or emulator jar fails the run instead of skipping.
 */
import { readFileSync } from 'node:fs';
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import {
  collection,
  connectFirestoreEmulator,
  doc,
  getDocFromServer,
  getDocsFromServer,
  getFirestore,
  setDoc,
  setLogLevel,
  updateDoc,
  type Firestore,
} from 'firebase/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleEmulatorJar, sharedGoogleFirestore } from '../fixtures/google-emulator';
import { ROLES } from '../../src/features/espace/roles';

const jar = googleEmulatorJar('espace-rules.test.ts', 'the rules with role tokens');
const PROJECT = 'demo-espace-rules';
/** Server-only collections: personal data, the mail queue (addresses), receipts, the editors' drafts and history. */
const PERSONAL = [
  ...['inscripitions', 'newsletter', 'dons', 'espaceJournal', 'espaceComptes'],
  ...['outbox', 'recusAnnuels', 'historique', 'brouillons'],
];

describe.skipIf(!jar)('firestore.rules with the space’s role tokens', { timeout: 60_000 }, () => {
  const apps: FirebaseApp[] = [];
  let emulator: { port: number };
  let owner: Firestore;

  function client(name: string, mockUserToken: 'owner' | ({ sub: string } & Record<string, unknown>)): Firestore {
    const app = initializeApp({ projectId: PROJECT, apiKey: 'public-web-key' }, `espace-${name}-${process.pid}`);
    apps.push(app);
    const db = getFirestore(app);
    connectFirestoreEmulator(db, '127.0.0.1', emulator.port, { mockUserToken });
    return db;
  }

  async function outcome(operation: Promise<unknown>): Promise<'allowed' | 'denied'> {
    try {
      await operation;
      return 'allowed';
    } catch (error) {
      if ((error as { code?: string }).code === 'permission-denied') return 'denied';
      throw error;
    }
  }

  beforeAll(async () => {
    setLogLevel('silent');
    emulator = await sharedGoogleFirestore();
    const rules = readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8');
    const loaded = await fetch(`http://127.0.0.1:${emulator.port}/emulator/v1/projects/${PROJECT}:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
    });
    expect(loaded.status).toBe(200);
    owner = client('owner', 'owner');
    for (const name of PERSONAL) await setDoc(doc(owner, name, 'existant'), { email: 'parent@exemple.fr', notes: 'x' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => deleteApp(app)));
  }, 30_000);

  it.each(ROLES)('a browser signed in as %s reads, lists and writes no personal collection', async (role) => {
    const db = client(role, { sub: `staff-${role}`, email: `${role}@demo.test`, email_verified: true, roles: [role] });
    for (const name of PERSONAL) {
      expect(await outcome(getDocFromServer(doc(db, name, 'existant'))), `${role} get ${name}`).toBe('denied');
      expect(await outcome(getDocsFromServer(collection(db, name))), `${role} list ${name}`).toBe('denied');
      expect(
        await outcome(updateDoc(doc(db, name, 'existant'), { statut: 'acceptee' })),
        `${role} update ${name}`,
      ).toBe('denied');
      expect(await outcome(setDoc(doc(db, name, 'nouveau'), { email: 'x@exemple.fr' })), `${role} create ${name}`).toBe(
        'denied',
      );
    }
    // The public content stays readable: the check above is not a blanket failure.
    expect(await outcome(getDocsFromServer(collection(db, 'articles'))), `${role} list articles`).toBe('allowed');
  });
});
