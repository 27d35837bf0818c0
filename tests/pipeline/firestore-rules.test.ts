/**
 * firestore.rules: only the server writes (firebase-admin, to which rules do not apply); clients
 * read the public content and nothing else. Checked statically (always), then in Google's Firestore
 * emulator when Java and its jar are here (Debian's google-cloud-cli-firestore-emulator, or
 * FIRESTORE_EMULATOR_JAR; under CI their absence fails the file): every client write refused, and the endpoints still
 * write.
 */
import { readFileSync } from 'node:fs';
import { FIREBASE_PROJECT_ID } from 'astro:env/server';
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import {
  addDoc,
  collection,
  connectFirestoreEmulator,
  deleteDoc,
  doc,
  getDocFromServer,
  getDocsFromServer,
  getFirestore,
  limit,
  query,
  serverTimestamp,
  setDoc,
  setLogLevel,
  Timestamp,
  updateDoc,
  writeBatch,
  type Firestore,
} from 'firebase/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleEmulatorJar, sharedGoogleFirestore } from '../fixtures/google-emulator';
import { closeAdminFirestore } from '../../src/lib/firebase-admin.server';
import * as newsletterRoute from '../../src/pages/api/newsletter';
import * as preRegistrationRoute from '../../src/pages/api/preinscription';
import { startFirestoreGateway, type FirestoreGateway } from '../fixtures/firestore-gateway';
import { newsletterConsent, storedConsent, validPreRegistration } from '../fixtures/submissions';

const SOURCE = readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8');
const CONTENT = ['menus', 'categories', 'articles', 'partenaires', 'association'];
const PRIVATE = ['newsletter', 'inscripitions', 'dons', 'brouillons'];

/** Every `match` path and `allow` statement of the rules, in order (comments removed). */
function statements(source: string): string[] {
  const code = source.replace(/\/\/[^\n]*/g, '');
  return [...code.matchAll(/match\s+(\S+)\s*\{|allow\s+([^:]+):\s*if\s+([^;]+);/g)].map((found) =>
    found[1] ? `match ${found[1]}` : `allow ${(found[2] as string).replace(/\s+/g, '')}: ${found[3]?.trim()}`,
  );
}

describe('firestore.rules, read statically', () => {
  it('lets clients read the four content collections, and denies every other read and every write', () => {
    expect(statements(SOURCE)).toEqual([
      'match /databases/{database}/documents',
      ...CONTENT.flatMap((name) => [`match /${name}/{id}`, 'allow read: true']),
      'match /{document=**}',
      'allow read,write: false',
    ]);
  });

  it('fails on a rule that grants a write (the check can fail)', () => {
    const loosened = SOURCE.replace('allow read: if true;', 'allow read, create: if true;');
    expect(statements(loosened)).toContain('allow read,create: true');
    expect(statements(loosened)).not.toEqual(statements(SOURCE));
  });
});

// ---------------------------------------------------------------------------
// Google's rules engine: the official Cloud Firestore emulator

const EMULATOR_JAR = googleEmulatorJar(
  'firestore-rules',
  "the rules in Google's engine and the endpoints' writes through firebase-admin there",
);
const CAN_EMULATE = Boolean(EMULATOR_JAR);

/** The site's project (tests/fixtures/site-env.ts), where the endpoints write. */
const PROJECT = FIREBASE_PROJECT_ID as string;

/** 'allowed', or 'denied' for PERMISSION_DENIED. */
async function outcome(operation: Promise<unknown>): Promise<'allowed' | 'denied'> {
  try {
    await operation;
    return 'allowed';
  } catch (error) {
    if ((error as { code?: string }).code === 'permission-denied') return 'denied';
    throw error;
  }
}

/** A forged ledger entry: marked paid, 999 999,99 €, reusing a session id. */
const forgedDonation = (session: string) => ({
  montant: 99_999_999,
  devise: 'eur',
  prenom: 'Faux',
  nom: 'Don',
  email: 'faux@exemple.fr',
  adresse: '',
  postal: '',
  ville: '',
  pays: 'FR',
  statut: 'paid',
  livemode: true,
  evenement: 'checkout.session.completed',
  session,
  date: serverTimestamp(),
});

/** What a client could try to create in each collection: valid-looking documents. */
function plausibleDocument(name: string): Record<string, unknown> {
  if (name === 'newsletter') return { email: 'robot@exemple.fr', consentement: true, date: serverTimestamp() };
  if (name === 'inscripitions') return { ...validPreRegistration, date: serverTimestamp() };
  if (name === 'dons') return forgedDonation('cs_test_reused');
  return { titre: 'Vandalisme', date: serverTimestamp() };
}

describe.skipIf(!CAN_EMULATE)('firestore.rules in Google’s Firestore emulator', { timeout: 60_000 }, () => {
  const apps: FirebaseApp[] = [];
  let emulator: { port: number };
  let gateway: FirestoreGateway;
  let loaded: { status: number; body: unknown };
  /** A client holding the public API key and nothing else. */
  let stranger: Firestore;
  /** A signed-in client (the site has no accounts; a token proves nothing here). */
  let signedIn: Firestore;
  /** The emulator's owner (rules bypassed): seeds and reads back. */
  let owner: Firestore;

  function client(name: string, mockUserToken?: string | { sub: string }): Firestore {
    const app = initializeApp({ projectId: PROJECT, apiKey: 'public-web-key' }, `rules-${name}-${process.pid}`);
    apps.push(app);
    const db = getFirestore(app);
    connectFirestoreEmulator(db, '127.0.0.1', emulator.port, mockUserToken ? { mockUserToken } : {});
    return db;
  }

  beforeAll(async () => {
    setLogLevel('silent');
    emulator = await sharedGoogleFirestore();
    const response = await fetch(`http://127.0.0.1:${emulator.port}/emulator/v1/projects/${PROJECT}:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: SOURCE }] } }),
    });
    loaded = { status: response.status, body: await response.json() };
    gateway = await startFirestoreGateway(emulator.port);
    stranger = client('stranger');
    signedIn = client('signed-in', { sub: 'parent-1' });
    owner = client('owner', 'owner');
    for (const name of [...CONTENT, ...PRIVATE, 'autres']) {
      await setDoc(doc(owner, name, 'existant'), { ...plausibleDocument(name), date: Timestamp.now() });
    }
  }, 120_000);

  afterAll(async () => {
    await closeAdminFirestore();
    await Promise.all(apps.map((app) => deleteApp(app)));
    await gateway?.stop();
  }, 30_000);

  it('compiles the rules without an error or a warning', () => {
    expect(loaded).toEqual({ status: 200, body: {} });
  });

  it.each(CONTENT)('%s: anyone reads it', async (name) => {
    expect(await outcome(getDocFromServer(doc(stranger, name, 'existant')))).toBe('allowed');
    expect(await outcome(getDocsFromServer(collection(stranger, name)))).toBe('allowed');
  });

  it.each([...PRIVATE, 'autres'])('%s: no client reads or lists it', async (name) => {
    for (const db of [stranger, signedIn]) {
      expect(await outcome(getDocFromServer(doc(db, name, 'existant')))).toBe('denied');
      expect(await outcome(getDocsFromServer(collection(db, name)))).toBe('denied');
      expect(await outcome(getDocsFromServer(query(collection(db, name), limit(1))))).toBe('denied');
    }
  });

  it.each([...CONTENT, ...PRIVATE, 'autres'])('%s: every client create, update and delete is refused', async (name) => {
    for (const db of [stranger, signedIn]) {
      const data = plausibleDocument(name);
      expect(await outcome(addDoc(collection(db, name), data)), 'addDoc').toBe('denied');
      expect(await outcome(setDoc(doc(db, name, 'nouveau'), data)), 'setDoc new').toBe('denied');
      expect(await outcome(setDoc(doc(db, name, 'existant'), data)), 'setDoc over').toBe('denied');
      expect(await outcome(updateDoc(doc(db, name, 'existant'), { date: serverTimestamp() })), 'update').toBe('denied');
      expect(await outcome(deleteDoc(doc(db, name, 'existant'))), 'delete').toBe('denied');
      expect(await outcome(setDoc(doc(db, name, 'existant', 'notes', 'x'), { a: 1 })), 'sub-collection').toBe('denied');
    }
  });

  it('refuses forged donations under any id: a session id, the former HMAC shape, a random one', async () => {
    const ids = ['cs_test_a1b2c3', `don_${'a'.repeat(64)}`, 'n-importe-quoi'];
    for (const id of ids) {
      expect(await outcome(setDoc(doc(stranger, 'dons', id), forgedDonation('cs_test_a1b2c3'))), id).toBe('denied');
    }
    expect(await outcome(addDoc(collection(stranger, 'dons'), forgedDonation('cs_live_x')))).toBe('denied');
    const snapshot = await getDocsFromServer(collection(owner, 'dons'));
    expect(snapshot.docs.map((document) => document.id)).toEqual(['existant']);
  });

  it('refuses a 500-document batch of newsletter sign-ups in one request, writing none', async () => {
    const before = (await getDocsFromServer(collection(owner, 'newsletter'))).size;
    const batch = writeBatch(stranger);
    for (let index = 0; index < 500; index += 1) {
      batch.set(doc(collection(stranger, 'newsletter')), {
        email: `robot-${index}@exemple.fr`,
        consentement: true,
        date: serverTimestamp(),
      });
    }
    expect(await outcome(batch.commit())).toBe('denied');
    expect((await getDocsFromServer(collection(owner, 'newsletter'))).size).toBe(before);
  });

  it('lets the endpoints write through firebase-admin (rules do not apply to it), with the consent proof', async () => {
    const email = `admin-${Date.now()}@exemple.fr`;
    const requests = [
      [newsletterRoute, '/api/newsletter', { email, ...newsletterConsent }, 'newsletter'],
      [preRegistrationRoute, '/api/preinscription', { ...validPreRegistration, email }, 'inscripitions'],
    ] as const;
    for (const [route, path, payload, name] of requests) {
      const request = new Request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const response = await route.POST({ request });
      expect({ status: response.status, body: await response.json() }).toMatchObject({
        status: 200,
        body: { ok: true },
      });
      const stored = (await getDocsFromServer(collection(owner, name))).docs
        .map((document) => document.data())
        .filter((data) => data.email === email);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject(storedConsent(name === 'newsletter' ? 'newsletter' : 'preinscription'));
      expect(stored[0]?.date).toBeInstanceOf(Timestamp);
    }
  });
});
