/**
 * The retention the privacy page promises, applied by the daily job (netlify/functions/retention.mts, the same code
 * as `npm run retention`): a pre-registration whose deletion date has passed is deleted and the deletion logged;
 * one still within its 12 months, or without a decision, stays; a newsletter sign-up unconfirmed 30 days after its
 * last mail is deleted; the outbox keeps no mail's record past 30 days. On an embedded Firestore of its own.
 */
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, expect, it } from 'vitest';
import retention from '../../netlify/functions/retention.mts';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { deletionDate } from '../../src/features/admissions/admissions';
import { adminFirestoreOf } from '../../src/lib/firebase-app.server';

let emulator: EmbeddedFirestore;
let db: Firestore;
const saved = { project: process.env.FIREBASE_PROJECT_ID, host: process.env.FIRESTORE_EMULATOR_HOST };
const DAY = 86_400_000;

beforeAll(async () => {
  emulator = await startEmbeddedFirestore();
  // The job reads process.env, as on Netlify.
  Object.assign(process.env, { FIREBASE_PROJECT_ID: 'demo-retention', FIRESTORE_EMULATOR_HOST: emulator.address });
  db = adminFirestoreOf(process.env);
});

afterAll(async () => {
  Object.assign(process.env, { FIREBASE_PROJECT_ID: saved.project, FIRESTORE_EMULATOR_HOST: saved.host });
  await db?.terminate();
  emulator?.stop();
});

/** A pre-registration decided `daysAgo` days ago (none: no decision), as the space stores it. */
async function preRegistration(id: string, daysAgo?: number): Promise<void> {
  const decision = daysAgo === undefined ? undefined : new Date(Date.now() - daysAgo * DAY);
  await db
    .collection('inscripitions')
    .doc(id)
    .set({
      enfantPrenom: 'Léa',
      enfantNom: id,
      date: Timestamp.fromMillis(Date.now() - 800 * DAY),
      ...(decision
        ? {
            statut: 'refusee',
            dateDecision: Timestamp.fromDate(decision),
            dateSuppression: Timestamp.fromDate(deletionDate(decision)),
          }
        : { statut: 'contactee', dateDecision: null, dateSuppression: null }),
    });
}

it('deletes what was decided more than 12 months ago, logs each deletion, keeps the rest', async () => {
  await preRegistration('decidee-il-y-a-13-mois', 396);
  await preRegistration('decidee-il-y-a-11-mois', 335);
  await preRegistration('sans-decision');
  // The original admin app's documents: no follow-up fields at all.
  await db.collection('inscripitions').doc('ancienne').set({ enfantNom: 'Ancienne', date: 1_600_000_000, statut: '' });

  const answer = await retention();
  expect({ status: answer.status, text: await answer.text() }).toEqual({
    status: 200,
    text: '1 pre-registration(s), 0 unconfirmed sign-up(s), 0 outbox mail(s), 0 kept post(s) deleted',
  });
  const left = (await db.collection('inscripitions').get()).docs.map((document) => document.id).toSorted();
  expect(left).toEqual(['ancienne', 'decidee-il-y-a-11-mois', 'sans-decision']);
  const log = (await db.collection('espaceJournal').get()).docs.map((document) => document.data());
  expect(log).toEqual([
    expect.objectContaining({
      action: 'suppression',
      objet: 'inscripitions/decidee-il-y-a-13-mois',
      qui: 'Suppression automatique (12 mois)',
      date: expect.any(Timestamp),
    }),
  ]);

  // A second run finds nothing more to delete.
  expect(await (await retention()).text()).toBe(
    '0 pre-registration(s), 0 unconfirmed sign-up(s), 0 outbox mail(s), 0 kept post(s) deleted',
  );
});

it('deletes a newsletter sign-up left unconfirmed 30 days after its last mail, and no other', async () => {
  const signUp = (statut: string, mailedDaysAgo: number | null, extra = {}) => ({
    email: `${statut}-${mailedDaysAgo}@exemple.fr`,
    statut,
    consentement: true,
    consentementVersion: 'newsletter-2026-01',
    date: Timestamp.fromMillis(Date.now() - 90 * DAY),
    confirmationEnvoyeeLe: mailedDaysAgo === null ? null : Timestamp.fromMillis(Date.now() - mailedDaysAgo * DAY),
    ...extra,
  });
  const subscriptions = db.collection('newsletter');
  await subscriptions.doc('en-attente-31-jours').set(signUp('pending', 31));
  await subscriptions.doc('en-attente-29-jours').set(signUp('pending', 29));
  await subscriptions.doc('confirmee').set(signUp('confirmed', null, { confirmeLe: Timestamp.now() }));
  await subscriptions.doc('desinscrite').set(signUp('unsubscribed', null, { email: null }));

  expect(await (await retention()).text()).toBe(
    '0 pre-registration(s), 1 unconfirmed sign-up(s), 0 outbox mail(s), 0 kept post(s) deleted',
  );
  const left = (await subscriptions.get()).docs.map((document) => document.id).toSorted();
  expect(left).toEqual(['confirmee', 'desinscrite', 'en-attente-29-jours']);
});

it('deletes each mail’s record in the outbox 30 days after it was queued, whatever its state', async () => {
  const record = (state: string, queuedDaysAgo: number) => ({
    kind: 'preinscription-parent',
    to: `parent-${queuedDaysAgo}@exemple.fr`,
    subject: state === 'sent' ? '' : 'Pré-inscription de Léa : demande reçue',
    state,
    createdAt: Timestamp.fromMillis(Date.now() - queuedDaysAgo * DAY),
  });
  const outbox = db.collection('outbox');
  await outbox.doc('envoye-31-jours').set(record('sent', 31));
  await outbox.doc('echoue-31-jours').set(record('failed', 31));
  await outbox.doc('envoye-29-jours').set(record('sent', 29));
  await outbox.doc('echoue-29-jours').set(record('failed', 29));

  expect(await (await retention()).text()).toBe(
    '0 pre-registration(s), 0 unconfirmed sign-up(s), 2 outbox mail(s), 0 kept post(s) deleted',
  );
  const left = (await outbox.get()).docs.map((document) => document.id).toSorted();
  expect(left).toEqual(['echoue-29-jours', 'envoye-29-jours']);
});

it('dates the deletion 12 months after the decision, on the last day of a shorter month', () => {
  expect(deletionDate(new Date('2026-01-31T12:00:00Z')).toISOString()).toBe('2027-01-31T12:00:00.000Z');
  expect(deletionDate(new Date('2028-02-29T12:00:00Z')).toISOString()).toBe('2029-02-28T12:00:00.000Z');
});
