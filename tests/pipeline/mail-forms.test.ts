/**
 * The forms' mails end to end: POST /api/preinscription and /api/newsletter (the exported handlers) write to the
 * embedded Firestore, and the mails arrive at a local SMTP server (scripts/lib/smtp-catcher.ts) — their recipients,
 * subjects, bodies and headers. The newsletter's double opt-in and one-click unsubscription on the data side.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { confirmSubscription, subscriptionId, unsubscribe } from '../../src/features/newsletter/subscription.server';
import * as newsletter from '../../src/pages/api/newsletter';
import * as preinscription from '../../src/pages/api/preinscription';
import { newsletterConsent, storedConsent, validPreRegistration } from '../fixtures/submissions';
import { outboxDocuments, startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { siteAddress } from '../../scripts/lib/site-address';
import { preRegistrationMails } from '../../src/features/mail/mails.server';
import { mailIdentity } from '../../src/features/mail/mail-env.server';

/** The site the mails link to (astro.config.mjs's `site`), escaped for a RegExp. */
const SITE = siteAddress().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

let world: MailWorld;

beforeAll(async () => {
  world = await startMailWorld();
});

afterEach(() => {
  vi.restoreAllMocks();
  world.smtp.setMode('accept');
});

afterAll(() => world?.stop());

const post = (handler: typeof newsletter, path: string, body: unknown) =>
  handler.POST({
    request: new Request(`http://127.0.0.1:4321/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });

/** What a reader sees of an HTML mail: its text without tags and React's `<!-- -->` markers. */
const visibleText = (html: string) => html.replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, '');

/** The mails caught to `address` (any case: the server lower-cases domains). */
const mailsTo = (address: string) =>
  world.smtp.mails.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));

describe('a pre-registration', () => {
  it(
    'sends the parent an acknowledgement with the reference and the child’s first name, ' +
      'and the staff a notice without personal data',
    async () => {
      const email = `parent-${randomUUID().slice(0, 8)}@exemple.fr`;
      const before = world.smtp.mails.length;
      const response = await post(preinscription, 'preinscription', { ...validPreRegistration, email });
      expect(response.status).toBe(200);
      const mails = (await world.smtp.waitForMails(before + 2)).slice(before);
      const [parent, staff] = [
        mails.find((mail) => mail.to.includes(email))!,
        mails.find((m) => !m.to.includes(email))!,
      ];
      const stored = (await adminFirestore().collection('inscripitions').where('email', '==', email).get()).docs[0]!;
      const reference = stored.get('reference') as string;
      expect(reference).toMatch(/^\d{4} \d{4}$/);

      expect(parent.to).toEqual([email]);
      expect(parent.from).toBe('site@exemple.org');
      expect(parent.headers['from']).toBe('=?UTF-8?Q?=C3=89cole_des_tests?= <site@exemple.org>');
      expect(parent.headers['reply-to']).toBe('equipe@exemple.org');
      expect(parent.subject).toBe(`Pré-inscription de Léa : demande reçue (référence ${reference})`);
      for (const body of [parent.text, visibleText(parent.html)]) {
        expect(body).toContain(`Votre numéro de référence\u00a0: ${reference.replace(' ', '\u00a0')}`);
        expect(body).toContain('Bonjour Sophie,');
        expect(body).toContain('Votre demande de pré-inscription pour Léa est bien enregistrée.');
        expect(body).toContain('Corriger ou retirer votre demande');
        // Health notes never travel by mail.
        expect(body).not.toContain(validPreRegistration.infos);
        expect(body).not.toContain('dessiner');
        // Nor the phone number, in any form.
        expect(body.replace(/\D/g, '')).not.toContain('612345678');
      }
      expect(parent.html).toMatch(/<html[^>]*lang="fr"/);

      expect(staff.to).toEqual(['equipe@exemple.org']);
      expect(staff.subject).toBe(`Nouvelle pré-inscription (référence ${reference})`);
      expect(staff.text).toContain('Une nouvelle demande de pré-inscription est arrivée le');
      expect(staff.text).toContain(`Référence\u00a0: ${reference.replace(' ', '\u00a0')}`);
      expect(staff.text).toContain(siteAddress());
      // Everything the staff can read (not the raw source: its random MIME boundary may hold any digits).
      const { 'content-type': _boundary, 'message-id': _id, date: _date, ...headers } = staff.headers;
      const readable = [staff.subject, staff.text, staff.html, JSON.stringify(headers)].join('\n');
      // The family's postal code and town are the association's own (its footer): the street tells them apart.
      for (const personal of [email, 'Léa', 'Martin', 'Sophie', 'dessiner', '3 rue des Lilas']) {
        expect(readable).not.toContain(personal);
      }

      // Sent: the outbox keeps the record, not the content.
      const outbox = await outboxDocuments(`inscripitions-${stored.id}-`);
      expect([...outbox.values()].map((document) => document.state)).toEqual(['sent', 'sent']);
      for (const document of outbox.values()) {
        expect(document).toMatchObject({ html: '', text: '', attachments: [], nextAttemptAt: null, attempts: 1 });
      }
    },
  );

  it('sends nothing more when the island retries with the same key', async () => {
    const envoi = randomUUID();
    const email = `retry-${envoi.slice(0, 8)}@exemple.fr`;
    const payload = { ...validPreRegistration, email, envoi };
    expect((await post(preinscription, 'preinscription', payload)).status).toBe(200);
    await world.smtp.waitForMails(world.smtp.mails.length);
    expect((await post(preinscription, 'preinscription', payload)).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(1);
    expect((await outboxDocuments(`inscripitions-${envoi}-`)).size).toBe(2);
  });

  it(
    'refuses an address that only looks like one ' + '(spec §5’s rule passes, zod’s check does not), writing nothing',
    async () => {
      const response = await post(preinscription, 'preinscription', { ...validPreRegistration, email: 'a@b.c d' });
      expect(response.status).toBe(400);
      const refused = await post(preinscription, 'preinscription', {
        ...validPreRegistration,
        email: 'parent@exemple.fr\r\nBcc: victime@exemple.fr',
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ message: 'Merci de saisir un email valide' });
    },
  );

  it(
    'refuses a message typed as the child’s first name (JSON and plain form), writing and mailing nothing, ' +
      'and names a child whose name is in any script',
    async () => {
      const attack = 'Votre dossier est refusé. Appelez le 08 99 00 00 00 ou http://evil.example/pay';
      const email = `victime-${randomUUID().slice(0, 8)}@exemple.fr`;
      const message =
        'Écrivez seulement un nom : des lettres, des espaces, des traits d’union ou des apostrophes ' +
        '(60 caractères au plus)';
      const refused = await post(preinscription, 'preinscription', {
        ...validPreRegistration,
        email,
        enfantPrenom: attack,
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ message, fields: { enfantPrenom: message } });
      const plain = await preinscription.POST({
        request: new Request('http://127.0.0.1:4321/api/preinscription', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...validPreRegistration, email, parentPrenom: attack, consentement: 'on' }),
        }),
      });
      expect(plain.status).toBe(303);
      expect(plain.headers.get('location')).toBe('/ecole#preinscription-nom');

      // A first name that is a name, in Latin or Arabic script, is mailed as typed.
      const names = ['Léa-Maëlle', 'نور'];
      const addresses = names.map((_, index) => `nom-${index}-${randomUUID().slice(0, 8)}@exemple.fr`);
      const before = world.smtp.mails.length;
      for (const [index, enfantPrenom] of names.entries()) {
        const accepted = await post(preinscription, 'preinscription', {
          ...validPreRegistration,
          email: addresses[index],
          enfantPrenom,
        });
        expect(accepted.status).toBe(200);
      }
      await world.smtp.waitForMails(before + 4);
      for (const [index, name] of names.entries()) {
        const [ack] = mailsTo(addresses[index]!);
        expect(ack!.subject).toMatch(new RegExp(`^Pré-inscription de ${name} : demande reçue`));
        expect(ack!.text).toContain(`Votre demande de pré-inscription pour ${name} est bien enregistrée.`);
        expect(ack!.text).not.toContain(validPreRegistration.infos);
      }
      // Nothing of the refused ones: no document, no mail, nothing queued.
      expect((await adminFirestore().collection('inscripitions').where('email', '==', email).get()).size).toBe(0);
      expect((await adminFirestore().collection('outbox').where('to', '==', email).get()).size).toBe(0);
      expect(mailsTo(email)).toEqual([]);
    },
  );

  it('mails no text of a stored request that is not a name, nor its health notes', async () => {
    const attack = 'Votre dossier est refusé. Appelez le 08 99 00 00 00 ou http://evil.example/pay';
    const mails = await preRegistrationMails({
      identity: await mailIdentity(),
      submissionId: randomUUID(),
      reference: '1234 5678',
      parentFirstName: attack,
      childFirstName: attack,
      parentEmail: 'victime@exemple.fr',
      receivedAt: '1 janvier 2026 à 10:00',
    });
    const [ack] = mails;
    expect(ack!.subject).toBe('Pré-inscription de votre enfant : demande reçue (référence 1234 5678)');
    for (const body of [ack!.subject, ack!.text, visibleText(ack!.html)]) {
      expect(body).not.toContain('evil.example');
      expect(body).not.toContain('08 99');
    }
    expect(ack!.text).toContain('Bonjour,');
    expect(ack!.text).toContain('Votre demande de pré-inscription pour votre enfant est bien enregistrée.');
  });

  it('answers within its deadline when SMTP is slow, and the mail still goes out once', async () => {
    world.smtp.setMode({ delayMs: 6000 });
    const email = `lent-${randomUUID().slice(0, 8)}@exemple.fr`;
    const response = await post(preinscription, 'preinscription', { ...validPreRegistration, email });
    expect(response.status).toBe(200);
    // Answered after its 3 s for the mails, by design, before SMTP took the mail.
    expect(mailsTo(email)).toEqual([]);
    await world.smtp.waitForMails(world.smtp.mails.length + 1, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 7000));
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('the newsletter’s double opt-in', () => {
  it(
    'stores the address as pending ' + 'and sends one confirmation with List-Unsubscribe and its one-click POST',
    async () => {
      const email = `lecteur-${randomUUID().slice(0, 8)}@exemple.fr`;
      const response = await post(newsletter, 'newsletter', {
        email: ` ${email.toUpperCase()} `,
        ...newsletterConsent,
      });
      expect(response.status).toBe(200);
      await world.smtp.waitForMails(world.smtp.mails.length);
      const [mail] = mailsTo(email.toUpperCase());
      expect(mail?.subject).toBe('Confirmez votre inscription à la lettre d’information');
      const id = subscriptionId(email);
      const confirmLink = new RegExp(`${SITE}/newsletter/confirmer\\?jeton=${id}\\.[\\w-]{43}`);
      expect(mail!.html).toMatch(confirmLink);
      expect(mail!.text).toMatch(confirmLink);
      // The name is the pulled content’s (the demo’s, else « L’association »): contracted either way.
      expect(mail!.text).toMatch(/la lettre d’information (des Petits Pas Ensemble|de l’association) à cette adresse/);
      expect(mail!.headers['list-unsubscribe']).toMatch(
        new RegExp(`^<${SITE}/newsletter/desinscription\\?jeton=${id}\\.[\\w-]{43}>$`),
      );
      expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

      const stored = (await adminFirestore().collection('newsletter').doc(id).get()).data();
      expect(stored).toMatchObject({ email: email.toUpperCase(), statut: 'pending', ...storedConsent('newsletter') });
      // The confirmation secret is kept hashed only.
      const secret = confirmLink.exec(mail!.html)![0].split('.').at(-1)!;
      expect(JSON.stringify(stored)).not.toContain(secret);
    },
  );

  it('sends at most one confirmation per address per hour, whatever is posted, and keeps one document', async () => {
    const email = `repete-${randomUUID().slice(0, 8)}@exemple.fr`;
    for (const variant of [email, email.toUpperCase(), ` ${email}`]) {
      expect((await post(newsletter, 'newsletter', { email: variant, ...newsletterConsent })).status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(email)).toHaveLength(1);
    const documents = await adminFirestore().collection('newsletter').where('statut', '==', 'pending').get();
    expect(documents.docs.filter((document) => document.id === subscriptionId(email))).toHaveLength(1);
    expect((await outboxDocuments(`newsletter-${subscriptionId(email)}-`)).size).toBe(1);
  });

  it(
    'confirms with the mail’s token, unsubscribes keeping only the proof of consent (no mail to the address left ' +
      'in the outbox), tells a forged token nothing of the address, and lets the address come back',
    async () => {
      const email = `cycle-${randomUUID().slice(0, 8)}@exemple.fr`;
      const db = adminFirestore();
      await post(newsletter, 'newsletter', { email, ...newsletterConsent });
      await world.smtp.waitForMails(world.smtp.mails.length);
      const [mail] = mailsTo(email);
      const confirmToken = /confirmer\?jeton=([\w.-]+)/.exec(mail!.html)![1]!;
      const unsubscribeToken = /jeton=([\w.-]+)>$/.exec(mail!.headers['list-unsubscribe']!)![1]!;

      expect(await confirmSubscription(db, `${confirmToken.slice(0, -2)}xx`, Date.now())).toBe('invalid');
      expect(await confirmSubscription(db, unsubscribeToken, Date.now())).toBe('invalid');
      expect(await confirmSubscription(db, confirmToken, Date.now())).toBe('done');
      expect(await confirmSubscription(db, confirmToken, Date.now())).toBe('already');
      // Whoever knows an address (its id is its SHA-256) cannot learn whether it is subscribed.
      const forged = `${subscriptionId(email)}.${'A'.repeat(43)}`;
      expect(await confirmSubscription(db, forged, Date.now())).toBe('invalid');
      expect(await unsubscribe(db, forged, Date.now())).toBe('invalid');
      const reference = db.collection('newsletter').doc(subscriptionId(email));
      expect((await reference.get()).data()).toMatchObject({ statut: 'confirmed', email });

      expect(await unsubscribe(db, confirmToken, Date.now())).toBe('invalid');
      expect(await unsubscribe(db, unsubscribeToken, Date.now())).toBe('done');
      const left = (await reference.get()).data()!;
      const kept = Object.keys(left).filter((field) => left[field] !== null);
      expect(kept.sort()).toEqual(
        [
          'confirmeLe',
          'consentement',
          'consentementTexte',
          'consentementVersion',
          'date',
          'desinscritLe',
          'desinscriptionHash',
          'statut',
        ].sort(),
      );
      expect((await db.collection('outbox').where('to', '==', email).get()).docs).toEqual([]);
      expect(left.statut).toBe('unsubscribed');
      expect(JSON.stringify(left)).not.toContain(email);
      expect(JSON.stringify(left)).not.toContain(unsubscribeToken.split('.')[1]);
      expect(await unsubscribe(db, unsubscribeToken, Date.now())).toBe('already');
      expect(await unsubscribe(db, forged, Date.now())).toBe('invalid');

      // Coming back after leaving: pending again, one new confirmation.
      const before = mailsTo(email).length;
      expect((await post(newsletter, 'newsletter', { email, ...newsletterConsent })).status).toBe(200);
      await world.smtp.waitForMails(world.smtp.mails.length);
      expect(mailsTo(email)).toHaveLength(before + 1);
      // A new subscription: nothing of the former one's withdrawal is merged into it.
      expect((await reference.get()).data()).toMatchObject({
        statut: 'pending',
        email,
        confirmeLe: null,
        desinscritLe: null,
        desinscriptionHash: null,
      });
    },
  );
});
