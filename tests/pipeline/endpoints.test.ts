/**
 * The two write endpoints end to end: the exported POST/ALL handlers of src/pages/api/ called with a `Request`, writing
 * to the embedded Firestore emulator behind the tests' gateway (tests/fixtures/firestore-gateway.ts), read back with
 * firebase-admin.
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { MESSAGES } from '../../src/features/forms/forms';
import { REQUEST_FIELD_MESSAGES } from '../../src/features/admissions/request-fields';
import { MAX_BODY_BYTES } from '../../src/lib/endpoint.server';
import { FIRESTORE_EMULATOR_HOST } from 'astro:env/server';
import { adminFirestore, closeAdminFirestore } from '../../src/lib/firebase-admin.server';
import { HTTP_MESSAGES, HttpError } from '../../src/lib/http';
import { addSubmission, writesInFlight } from '../../src/features/forms/bounded-write.server';
import * as newsletter from '../../src/pages/api/newsletter';
import * as preinscription from '../../src/pages/api/preinscription';
import {
  newsletterConsent,
  preRegistrationConsent,
  storedConsent,
  validPreRegistration,
} from '../fixtures/submissions';
import { startFirestoreGateway, type FirestoreGateway } from '../fixtures/firestore-gateway';
import { withShortDeadlines } from '../fixtures/deadlines';

let emulator: EmbeddedFirestore;
let gateway: FirestoreGateway;

/** Every document of a collection. */
async function readCollection(name: string): Promise<DocumentData[]> {
  return (await adminFirestore().collection(name).get()).docs.map((document) => document.data());
}

async function count(name: string): Promise<number> {
  return (await readCollection(name)).length;
}

/** A pre-registration's reference: 8 digits in two groups. */
const REFERENCE = expect.stringMatching(/^\d{4} \d{4}$/);

const URLS = {
  newsletter: 'http://127.0.0.1:4321/api/newsletter',
  preinscription: 'http://127.0.0.1:4321/api/preinscription',
};
type Route = keyof typeof URLS;
const HANDLERS = { newsletter, preinscription };
const COLLECTIONS = { newsletter: 'newsletter', preinscription: 'inscripitions' } as const;

function jsonRequest(route: Route, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(URLS[route], {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A plain HTML form POST (urlencoded), as a browser without JavaScript sends it. */
function formRequest(route: Route, fields: Record<string, string>): Request {
  return new Request(URLS[route], { method: 'POST', body: new URLSearchParams(fields) });
}

/** Posts to a route and returns the response with its parsed JSON body (when there is one). */
async function post(route: Route, request: Request): Promise<{ response: Response; body: unknown }> {
  const response = await HANDLERS[route].POST({ request });
  const text = await response.text();
  return { response, body: text ? JSON.parse(text) : undefined };
}

/** Runs `action` and checks the collection of `route` holds as many documents afterwards. */
async function expectNothingWritten(route: Route, action: () => Promise<void>): Promise<void> {
  const before = await count(COLLECTIONS[route]);
  await action();
  expect(await count(COLLECTIONS[route])).toBe(before);
}

function expectTimestampNearNow(value: unknown): void {
  expect(value).toBeInstanceOf(Timestamp);
  expect(Math.abs((value as Timestamp).toMillis() - Date.now())).toBeLessThan(60_000);
}

beforeAll(async () => {
  emulator = await startEmbeddedFirestore();
  gateway = await startFirestoreGateway(emulator.port);
});

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  await closeAdminFirestore();
  await gateway?.stop();
  emulator?.stop();
});

describe('POST /api/newsletter (JSON, as the island sends it)', () => {
  it(
    'writes exactly one pending {email, consentement, date} document ' + 'and answers 200 with the success message',
    async () => {
      const before = await count('newsletter');
      const { response, body } = await post(
        'newsletter',
        jsonRequest(
          'newsletter',
          { email: '  marie@exemple.fr ', ...newsletterConsent },
          { 'content-type': 'application/json; charset=utf-8' },
        ),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({
        ok: true,
        message:
          'Votre email a bien été enregistré, merci pour votre soutien. ' +
          'Pour confirmer votre inscription, ouvrez le message que nous venons de vous envoyer.',
      });

      const documents = await readCollection('newsletter');
      expect(documents).toHaveLength(before + 1);
      const written = documents.find((document) => document.email === 'marie@exemple.fr');
      // The double opt-in's own fields: tests/pipeline/mail-newsletter.test.ts.
      expect(written).toMatchObject({ email: 'marie@exemple.fr', statut: 'pending', ...storedConsent('newsletter') });
      expectTimestampNearNow(written?.date);
    },
  );

  it.each([
    [
      'a bad email',
      { email: 'a@b', ...newsletterConsent },
      MESSAGES.emailIncorrect,
      { email: MESSAGES.emailIncorrect },
    ],
    [
      'no consent',
      { email: 'paul@exemple.fr', ...newsletterConsent, consentement: false },
      MESSAGES.consentRequired,
      { consentement: MESSAGES.consentRequired },
    ],
    [
      'a missing consent',
      { email: 'paul@exemple.fr', consentementVersion: newsletterConsent.consentementVersion },
      MESSAGES.consentRequired,
      { consentement: MESSAGES.consentRequired },
    ],
    [
      'consent as a string',
      { email: 'paul@exemple.fr', ...newsletterConsent, consentement: 'true' },
      MESSAGES.consentRequired,
      { consentement: MESSAGES.consentRequired },
    ],
    [
      'an email that is a number',
      { email: 12345, ...newsletterConsent },
      MESSAGES.emailIncorrect,
      { email: MESSAGES.emailIncorrect },
    ],
    [
      'an unknown field',
      { email: 'paul@exemple.fr', ...newsletterConsent, admin: true },
      MESSAGES.unknownField,
      { _form: MESSAGES.unknownField },
    ],
    [
      'an over-long email',
      { email: `${'a'.repeat(250)}@exemple.fr`, ...newsletterConsent },
      MESSAGES.tooLong(254),
      { email: MESSAGES.tooLong(254) },
    ],
  ])('refuses %s with 400 and the French message, writing nothing', async (_label, payload, message, fields) => {
    await expectNothingWritten('newsletter', async () => {
      const { response, body } = await post('newsletter', jsonRequest('newsletter', payload));
      expect(response.status).toBe(400);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({ ok: false, message, fields });
    });
  });

  it.each([
    ['bad JSON', '{"email": "paul@exemple.fr", '],
    ['an empty body', ''],
    ['a JSON array', '[{"email": "paul@exemple.fr", "consentement": true}]'],
    ['JSON null', 'null'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ])('refuses %s with 400 and the "unreadable" message, writing nothing', async (_label, raw) => {
    await expectNothingWritten('newsletter', async () => {
      const request = new Request(URLS.newsletter, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      const { response, body } = await post('newsletter', request);
      expect(response.status).toBe(400);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.badRequest });
    });
  });

  it('refuses a body that is neither JSON nor a form with 415', async () => {
    await expectNothingWritten('newsletter', async () => {
      const request = new Request(URLS.newsletter, { method: 'POST', body: 'email=paul@exemple.fr' });
      expect(request.headers.get('content-type')).toMatch(/^text\/plain/);
      const { response, body } = await post('newsletter', request);
      expect(response.status).toBe(415);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.badRequest });
    });
  });
});

describe('POST /api/preinscription (JSON)', () => {
  it(
    'writes exactly one document with every spec field plus date, ' +
      'and answers 200 "Vous avez été inscrit" with its reference',
    async () => {
      const before = await count('inscripitions');
      const { response, body } = await post(
        'preinscription',
        jsonRequest('preinscription', { ...validPreRegistration, ville: ' Lyon ', pays: 'fr', site: '' }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      // The reference of the acknowledgement mail, for the confirmation panel.
      expect(body).toEqual({ ok: true, message: 'Vous avez été inscrit', reference: REFERENCE });

      const documents = await readCollection('inscripitions');
      expect(documents).toHaveLength(before + 1);
      const written = documents.find((document) => document.email === validPreRegistration.email);
      const { date, ...fields } = written ?? {};
      expect(fields).toEqual({ ...validPreRegistration, ...storedConsent('preinscription'), reference: REFERENCE });
      expectTimestampNearNow(date);
    },
  );

  it('stores the optional fields as empty strings and FR when they are left out', async () => {
    const required = {
      enfantPrenom: 'Noé',
      enfantNom: 'Durand',
      parentPrenom: 'Inès',
      parentNom: 'Durand',
      email: 'ines.durand@exemple.fr',
      ...preRegistrationConsent,
    };
    const { response } = await post('preinscription', jsonRequest('preinscription', required));
    expect(response.status).toBe(200);
    const written = (await readCollection('inscripitions')).find((document) => document.email === required.email);
    const { date, ...fields } = written ?? {};
    expect(fields).toEqual({
      ...required,
      ...storedConsent('preinscription'),
      reference: REFERENCE,
      enfantNaissance: '',
      classeSouhaitee: '',
      infos: '',
      telephone: '',
      adresse: '',
      postal: '',
      ville: '',
      pays: 'FR',
    });
    expectTimestampNearNow(date);
  });

  it('stores a phone number typed the French way in E.164, for the desk to call', async () => {
    const sent = { ...validPreRegistration, email: 'telephone@exemple.fr', telephone: ' 06.12.34.56.78 ' };
    const { response } = await post('preinscription', jsonRequest('preinscription', sent));
    expect(response.status).toBe(200);
    const written = (await readCollection('inscripitions')).find((document) => document.email === sent.email);
    expect(written).toMatchObject({ telephone: '+33612345678', enfantNaissance: '2021-03-14', classeSouhaitee: 'CP' });
  });

  it.each([
    ['a phone number too short', { telephone: '06 12 34' }, 'telephone', REQUEST_FIELD_MESSAGES.phoneInvalid],
    [
      'a phone number with words',
      { telephone: 'Appelez le 06 12 34 56 78' },
      'telephone',
      REQUEST_FIELD_MESSAGES.phoneInvalid,
    ],
    [
      'a birth date to come',
      { enfantNaissance: '2999-01-01' },
      'enfantNaissance',
      REQUEST_FIELD_MESSAGES.birthDateFuture,
    ],
    [
      'a birth date of an adult',
      { enfantNaissance: '1990-05-02' },
      'enfantNaissance',
      REQUEST_FIELD_MESSAGES.birthDateTooOld,
    ],
    [
      'a birth date that is no day',
      { enfantNaissance: '31/02/2020' },
      'enfantNaissance',
      REQUEST_FIELD_MESSAGES.birthDateFormat,
    ],
    ['a class the school has not', { classeSouhaitee: '6e' }, 'classeSouhaitee', REQUEST_FIELD_MESSAGES.classUnknown],
    ['no consent', { consentement: false }, 'consentement', MESSAGES.preRegistrationConsentRequired],
    ['a bad email', { email: 'pas-un-email' }, 'email', MESSAGES.emailFieldInvalid],
    ['an empty child first name', { enfantPrenom: '   ' }, 'enfantPrenom', MESSAGES.required.enfantPrenom],
    ['a missing child name', { enfantNom: undefined }, 'enfantNom', MESSAGES.required.enfantNom],
    ['a child first name that is a number', { enfantPrenom: 42 }, 'enfantPrenom', MESSAGES.required.enfantPrenom],
    ['infos that is an object', { infos: { texte: 'x' } }, 'infos', HTTP_MESSAGES.badRequest],
    ['a country code that is a number', { pays: 250 }, 'pays', MESSAGES.countryUnknown],
    ['an unknown country', { pays: 'XX' }, 'pays', MESSAGES.countryUnknown],
    ['over-long infos', { infos: 'x'.repeat(2001) }, 'infos', MESSAGES.tooLong(2000)],
    ['an over-long city', { ville: 'x'.repeat(101) }, 'ville', MESSAGES.tooLong(100)],
    ['an unknown field', { role: 'admin' }, '_form', MESSAGES.unknownField],
  ])('refuses %s with 400 and the French message, writing nothing', async (_label, change, field, message) => {
    await expectNothingWritten('preinscription', async () => {
      const { response, body } = await post(
        'preinscription',
        jsonRequest('preinscription', { ...validPreRegistration, ...change }),
      );
      expect(response.status).toBe(400);
      expect(body).toMatchObject({ ok: false, message, fields: { [field]: message } });
      // zod's English defaults never reach the visitor.
      expect(JSON.stringify(body)).not.toMatch(/Invalid|expected|received/);
    });
  });
});

describe('body size limit (MAX_BODY_BYTES = 16 KB → 413)', () => {
  const oversized = JSON.stringify({
    email: 'paul@exemple.fr',
    consentement: true,
    padding: 'x'.repeat(MAX_BODY_BYTES),
  });

  it('refuses a body declared over the limit', async () => {
    await expectNothingWritten('newsletter', async () => {
      const request = jsonRequest('newsletter', oversized, { 'content-length': String(oversized.length) });
      const { response, body } = await post('newsletter', request);
      expect(response.status).toBe(413);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.tooLarge });
    });
  });

  it('refuses a body over the limit whose Content-Length lies', async () => {
    await expectNothingWritten('newsletter', async () => {
      const request = jsonRequest('newsletter', oversized, { 'content-length': '40' });
      const { response, body } = await post('newsletter', request);
      expect(response.status).toBe(413);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.tooLarge });
    });
  });

  it('stops reading a chunked stream without Content-Length as soon as it passes the limit', async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode(' '.repeat(1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled === 1)
          controller.enqueue(new TextEncoder().encode('{"email": "paul@exemple.fr", "consentement": true'));
        else if (pulled <= 100) controller.enqueue(chunk);
        else controller.close();
      },
    });
    await expectNothingWritten('preinscription', async () => {
      const request = new Request(URLS.preinscription, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(request.headers.get('content-length')).toBeNull();
      const { response, body } = await post('preinscription', request);
      expect(response.status).toBe(413);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.tooLarge });
    });
    // 16 KB of 1 KB chunks, plus what the stream's queue had read ahead: far from the 100 KB offered.
    expect(pulled).toBeLessThan(MAX_BODY_BYTES / 1024 + 5);
  });

  it('accepts a body right at the limit', async () => {
    const payload = JSON.stringify({ email: 'limite@exemple.fr', ...newsletterConsent });
    const body = payload + ' '.repeat(MAX_BODY_BYTES - payload.length);
    expect(new TextEncoder().encode(body).byteLength).toBe(MAX_BODY_BYTES);
    const { response } = await post('newsletter', jsonRequest('newsletter', body));
    expect(response.status).toBe(200);
  });

  it('redirects an oversized form POST to the "champs" message', async () => {
    await expectNothingWritten('newsletter', async () => {
      const request = formRequest('newsletter', {
        email: 'paul@exemple.fr',
        consentement: 'on',
        consentementVersion: newsletterConsent.consentementVersion,
        site: 'x'.repeat(MAX_BODY_BYTES),
      });
      const { response } = await post('newsletter', request);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/#newsletter-champs');
    });
  });
});

describe('honeypot (hidden field "site")', () => {
  it('answers a filled honeypot exactly like a real signup, and writes nothing', async () => {
    const real = await post(
      'newsletter',
      jsonRequest('newsletter', { email: 'vraie@exemple.fr', ...newsletterConsent }),
    );
    await expectNothingWritten('newsletter', async () => {
      const bot = await post(
        'newsletter',
        jsonRequest('newsletter', { email: 'bot@exemple.fr', ...newsletterConsent, site: 'https://spam.example' }),
      );
      expect(bot.response.status).toBe(real.response.status);
      expect(bot.body).toEqual(real.body);
      expect([...bot.response.headers]).toEqual([...real.response.headers]);
    });
  });

  it('answers a bot success even when the rest is invalid (nothing to learn), and writes nothing', async () => {
    await expectNothingWritten('preinscription', async () => {
      const { response, body } = await post(
        'preinscription',
        jsonRequest('preinscription', { email: 'x', site: 'spam' }),
      );
      expect(response.status).toBe(200);
      expect(body).toEqual({
        ok: true,
        message: MESSAGES.preRegistrationSuccess,
        reference: expect.stringMatching(/^\d{4} \d{4}$/),
      });
    });
  });

  it('redirects a form POST with a filled honeypot to the success message, and writes nothing', async () => {
    await expectNothingWritten('newsletter', async () => {
      const { response } = await post(
        'newsletter',
        formRequest('newsletter', {
          email: 'bot@exemple.fr',
          consentement: 'on',
          consentementVersion: newsletterConsent.consentementVersion,
          site: 'spam',
        }),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/#newsletter-ok');
    });
  });
});

describe('plain form POST (no JavaScript)', () => {
  it('writes one newsletter document and redirects 303 to /#newsletter-ok', async () => {
    const before = await count('newsletter');
    const { response } = await post(
      'newsletter',
      formRequest('newsletter', {
        email: 'sans-js@exemple.fr',
        consentement: 'on',
        consentementVersion: newsletterConsent.consentementVersion,
        site: '',
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/#newsletter-ok');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const documents = await readCollection('newsletter');
    expect(documents).toHaveLength(before + 1);
    const written = documents.find((document) => document.email === 'sans-js@exemple.fr');
    expect(written).toMatchObject(storedConsent('newsletter'));
  });

  it('writes one pre-registration from a multipart form and redirects 303 to /ecole#preinscription-ok', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ ...validPreRegistration, email: 'multipart@exemple.fr' }))
      form.append(key, key === 'consentement' ? 'on' : String(value));
    form.append('site', '');
    const before = await count('inscripitions');
    const { response } = await post('preinscription', new Request(URLS.preinscription, { method: 'POST', body: form }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/ecole#preinscription-ok');
    const documents = await readCollection('inscripitions');
    expect(documents).toHaveLength(before + 1);
    const { date, ...fields } = documents.find((document) => document.email === 'multipart@exemple.fr') ?? {};
    expect(fields).toEqual({
      ...validPreRegistration,
      ...storedConsent('preinscription'),
      email: 'multipart@exemple.fr',
      reference: REFERENCE,
    });
    expectTimestampNearNow(date);
  });

  it.each([
    [
      'newsletter',
      { email: 'a@b', consentement: 'on', consentementVersion: newsletterConsent.consentementVersion },
      '/#newsletter-email',
    ],
    ['newsletter', { email: 'paul@exemple.fr' }, '/#newsletter-consentement'],
    [
      'newsletter',
      {
        email: 'paul@exemple.fr',
        consentement: 'on',
        consentementVersion: newsletterConsent.consentementVersion,
        admin: '1',
      },
      '/#newsletter-champs',
    ],
    ['preinscription', { ...stringFields(), consentement: undefined }, '/ecole#preinscription-consentement'],
    ['preinscription', { ...stringFields(), email: 'x' }, '/ecole#preinscription-email'],
    ['preinscription', { ...stringFields(), enfantPrenom: '' }, '/ecole#preinscription-champs'],
    ['preinscription', { ...stringFields(), pays: 'XX' }, '/ecole#preinscription-champs'],
    ['preinscription', { ...stringFields(), telephone: '0612' }, '/ecole#preinscription-telephone'],
    ['preinscription', { ...stringFields(), enfantNaissance: '2999-01-01' }, '/ecole#preinscription-naissance'],
  ] as const)(
    'redirects an invalid %s form to the matching message (%j → %s), writing nothing',
    async (route, fields, location) => {
      await expectNothingWritten(route, async () => {
        const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<
          string,
          string
        >;
        const { response, body } = await post(route, formRequest(route, defined));
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe(location);
        expect(body).toBeUndefined();
      });
    },
  );

  it('refuses a multipart form carrying a file', async () => {
    await expectNothingWritten('newsletter', async () => {
      const form = new FormData();
      form.append('email', 'paul@exemple.fr');
      form.append('consentement', 'on');
      form.append('piece', new Blob(['x']), 'x.txt');
      const { response } = await post('newsletter', new Request(URLS.newsletter, { method: 'POST', body: form }));
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/#newsletter-champs');
    });
  });
});

describe('database unavailable', () => {
  it('answers 503 "maybe recorded" after its deadline when the database is unreachable, then recovers', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // A first write opens the process's client...
    expect(
      (await post('newsletter', jsonRequest('newsletter', { email: 'avant@exemple.fr', ...newsletterConsent })))
        .response.status,
    ).toBe(200);
    // ...then the database goes away.
    gateway.set('refuse');
    const { response, body } = await withShortDeadlines(() =>
      post('newsletter', jsonRequest('newsletter', { email: 'panne@exemple.fr', ...newsletterConsent })),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('retry-after')).toBe('60');
    expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.maybeRecorded });
    expect(JSON.stringify(body)).not.toContain(new URL(`http://${FIRESTORE_EMULATOR_HOST}`).port);
    expect(logged).toHaveBeenCalled();

    const form = await withShortDeadlines(() =>
      post(
        'newsletter',
        formRequest('newsletter', {
          email: 'panne@exemple.fr',
          consentement: 'on',
          consentementVersion: newsletterConsent.consentementVersion,
        }),
      ),
    );
    expect(form.response.status).toBe(303);
    expect(form.response.headers.get('location')).toBe('/#newsletter-peutetre');

    gateway.set('forward');
    // The client reconnects on gRPC's backoff, which grows while the database is away: a write may still get a 503
    // (and the visitor's retry) for a few seconds after it is back.
    await expect
      .poll(
        async () =>
          (await post('newsletter', jsonRequest('newsletter', { email: 'apres@exemple.fr', ...newsletterConsent })))
            .response.status,
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(200);
    // Not asserted: the refused 'panne' writes, which firebase-admin may still retry and land once the database is
    // back (docs/firestore.md: a write given up after its deadline may land later; the island's key dedupes).
    const emails = (await readCollection('newsletter')).map((document) => document.email);
    expect(emails).toContain('apres@exemple.fr');
  }, 120_000);

  it('gives up after the write timeout when the database accepts connections but never answers', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    gateway.set('hold');
    try {
      const { response, body } = await withShortDeadlines(() =>
        post('preinscription', jsonRequest('preinscription', validPreRegistration)),
      );
      expect(response.status).toBe(503);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.maybeRecorded });
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      gateway.set('forward');
    }
    // The same client reaches the database again.
    const { response } = await post(
      'preinscription',
      jsonRequest('preinscription', { ...validPreRegistration, email: 'retour@exemple.fr' }),
    );
    expect(response.status).toBe(200);
  });

  /** Documents of `collection` whose email is `email`. */
  const withEmail = async (collection: string, email: string) =>
    (await adminFirestore().collection(collection).where('email', '==', email).get()).size;

  it('after a timeout, the island’s retry with its key records the pre-registration once', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const email = `lent-js-${randomUUID().slice(0, 8)}@exemple.fr`;
    const payload = { ...validPreRegistration, email, envoi: randomUUID() };
    gateway.set('hold');
    try {
      const { response, body } = await withShortDeadlines(() =>
        post('preinscription', jsonRequest('preinscription', payload)),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('60');
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.maybeRecorded });
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      gateway.set('forward');
    }
    // The visitor retries: the same key, whether the first write landed meanwhile or not.
    await expect
      .poll(async () => (await post('preinscription', jsonRequest('preinscription', payload))).response.status, {
        timeout: 60_000,
        interval: 1000,
      })
      .toBe(200);
    // The given-up write may still land: once it has settled, there is still one document.
    await expect.poll(() => writesInFlight, { timeout: 60_000, interval: 500 }).toBe(0);
    expect(await withEmail('inscripitions', email)).toBe(1);
  }, 120_000);

  it('after a timeout, a form sent again without JavaScript records the newsletter signup once', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const email = `lent-sans-js-${randomUUID().slice(0, 8)}@exemple.fr`;
    const fields = { email, consentement: 'on', consentementVersion: newsletterConsent.consentementVersion };
    gateway.set('hold');
    try {
      const { response } = await withShortDeadlines(() => post('newsletter', formRequest('newsletter', fields)));
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/#newsletter-peutetre');
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      gateway.set('forward');
    }
    // Back, then the same form again (the browser kept what was typed): the same content, the same document.
    await expect
      .poll(
        async () => (await post('newsletter', formRequest('newsletter', fields))).response.headers.get('location'),
        {
          timeout: 60_000,
          interval: 1000,
        },
      )
      .toBe('/#newsletter-ok');
    await expect.poll(() => writesInFlight, { timeout: 60_000, interval: 500 }).toBe(0);
    expect(await withEmail('newsletter', email)).toBe(1);
  }, 120_000);

  it('names what is missing when Firestore is not configured (the endpoints then answer 503 "unavailable")', () => {
    expect(() => adminFirestore({})).toThrow('FIREBASE_PROJECT_ID is not set.');
    expect(() => adminFirestore({ FIREBASE_PROJECT_ID: 'asso', FIREBASE_CLIENT_EMAIL: 'x@asso.fr' })).toThrow(
      /FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY are not set for project "asso"/,
    );
  });
});

describe('what fuzzing found', () => {
  it.each([
    ['newsletter', { email: `paul\uD800@exemple.fr`, ...newsletterConsent }, 'email'],
    ['newsletter', { email: `paul@exemple.fr\uDC00`, ...newsletterConsent }, 'email'],
    ['preinscription', { ...validPreRegistration, enfantPrenom: 'L\uD83Da' }, 'enfantPrenom'],
    ['preinscription', { ...validPreRegistration, infos: `${'x'.repeat(50)}\uDE00` }, 'infos'],
    ['preinscription', { ...validPreRegistration, ville: '\uDBFF' }, 'ville'],
  ] as const)(
    'refuses an unpaired surrogate (%s, %j) with 400 and the French message',
    async (route, payload, field) => {
      await expectNothingWritten(route, async () => {
        const { response, body } = await post(route, jsonRequest(route, payload));
        expect(response.status).toBe(400);
        expect(body).toMatchObject({
          ok: false,
          fields: { [field]: 'Ce champ contient un caractère illisible : merci de le retaper.' },
        });
      });
    },
  );

  it.each([
    ['newsletter', 'http://127.0.0.1:4321/api/newsletter/'],
    ['newsletter', 'http://127.0.0.1:4321/api/%6Eewsletter'],
    ['newsletter', 'http://127.0.0.1:4321/api//newsletter'],
    ['newsletter', 'http://127.0.0.1:4321/API/newsletter'],
    ['preinscription', 'http://127.0.0.1:4321/api/preinscription/'],
    ['preinscription', 'http://127.0.0.1:4321/api/pr%65inscription'],
  ] as const)('refuses a non-canonical path (%s: %s) with 404, writing nothing', async (route, url) => {
    const payload =
      route === 'newsletter' ? { email: 'chemin@exemple.fr', ...newsletterConsent } : validPreRegistration;
    await expectNothingWritten(route, async () => {
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const { response, body } = await post(route, request);
      expect(response.status).toBe(404);
      expect(body).toEqual({ ok: false, message: HTTP_MESSAGES.notFound });
      const other = await HANDLERS[route].ALL({ request: new Request(url) });
      expect(other.status).toBe(404);
    });
  });

  it.each([
    ['an unknown version', { email: 'version@exemple.fr', consentement: true, consentementVersion: '2001-01-01' }],
    ['no version', { email: 'version@exemple.fr', consentement: true }],
  ])('refuses a consent with %s (no proof of the wording seen) with 400', async (_label, payload) => {
    await expectNothingWritten('newsletter', async () => {
      const { response, body } = await post('newsletter', jsonRequest('newsletter', payload));
      expect(response.status).toBe(400);
      expect(body).toEqual({
        ok: false,
        message: MESSAGES.consentOutdated,
        fields: { consentementVersion: MESSAGES.consentOutdated },
      });
    });
  });

  it('keeps the shared client when one write fails on its own data: the other writes go through at once', async () => {
    const client = adminFirestore();
    // What a malformed string did before validation refused it: the emulator rejects the write.
    const own = addSubmission('newsletter', randomUUID(), { email: 'casse\uD800@exemple.fr' });
    const others = Array.from({ length: 20 }, (_, index) =>
      post('newsletter', jsonRequest('newsletter', { email: `voisin-${index}@exemple.fr`, ...newsletterConsent })),
    );
    // The emulator answers gRPC INTERNAL, which does not prove that nothing was written: "maybe recorded".
    await expect(own).rejects.toMatchObject({ status: 503, message: HTTP_MESSAGES.maybeRecorded });
    await expect(own).rejects.toBeInstanceOf(HttpError);
    const answers = await Promise.all(others);
    expect(answers.map(({ response }) => response.status)).toEqual(Array(20).fill(200));
    const after = await post(
      'newsletter',
      jsonRequest('newsletter', { email: 'ensuite@exemple.fr', ...newsletterConsent }),
    );
    expect(after.response.status).toBe(200);
    expect(adminFirestore()).toBe(client);
    const emails = (await readCollection('newsletter')).map((document) => document.email);
    expect(emails).toEqual(
      expect.arrayContaining(['ensuite@exemple.fr', 'voisin-0@exemple.fr', 'voisin-19@exemple.fr']),
    );
  });
});

describe('submission key (envoi): a retry never makes a second document', () => {
  it(
    'stores one document under the key, ' + 'and answers a second attempt with the same key 200 without writing',
    async () => {
      const envoi = randomUUID();
      const email = `cle-${envoi.slice(0, 8)}@exemple.fr`;
      const payload = { ...validPreRegistration, email, envoi };
      const first = await post('preinscription', jsonRequest('preinscription', payload));
      expect(first.response.status).toBe(200);
      await expectNothingWritten('preinscription', async () => {
        const again = await post('preinscription', jsonRequest('preinscription', payload));
        expect(again.response.status).toBe(200);
        expect(again.body).toEqual(first.body);
      });
      const stored = await adminFirestore().collection('inscripitions').doc(envoi).get();
      expect(stored.get('email')).toBe(email);
      expect(stored.data()).not.toHaveProperty('envoi');
    },
  );

  it.each(['pas-une-cle', '../inscripitions/x', 42])(
    'refuses a key that is not a UUID (%j) with 400',
    async (envoi) => {
      await expectNothingWritten('preinscription', async () => {
        const { response, body } = await post(
          'preinscription',
          jsonRequest('preinscription', { ...validPreRegistration, envoi }),
        );
        expect(response.status).toBe(400);
        expect(body).toMatchObject({ fields: { envoi: HTTP_MESSAGES.badRequest } });
      });
    },
  );
});

describe('a saturated database', () => {
  it(
    'refuses a write at once, without writing, ' + 'while too many are in flight (never a 503 that lands later)',
    async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      gateway.set('hold');
      try {
        // Writes given up by earlier tests may still be unsettled: the limit is set above them.
        const limit = writesInFlight + 2;
        const hanging = [1, 2].map((index) =>
          addSubmission(
            'newsletter',
            randomUUID(),
            { email: `file-${index}@exemple.fr` },
            { timeoutMs: 300, maxInFlight: limit },
          ),
        );
        expect(writesInFlight).toBe(limit);
        const refused = addSubmission(
          'newsletter',
          randomUUID(),
          { email: 'en-trop@exemple.fr' },
          { maxInFlight: limit },
        );
        await expect(refused).rejects.toMatchObject({
          status: 503,
          cause: {
            message: expect.stringMatching(new RegExp(`^${limit} writes in flight: newsletter/[\\w-]+ not written$`)),
          },
        });
        // Refused unstarted (the message says so), not given up after a deadline: « Could not write ».
        for (const write of hanging) await expect(write).rejects.toMatchObject({ status: 503 });
        // Given up after 300 ms, still counted until they settle: the limit holds for the writes that may still land.
        await expect(
          addSubmission('newsletter', randomUUID(), { email: 'toujours@exemple.fr' }, { maxInFlight: 2 }),
        ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/in flight/) } });
      } finally {
        logged.mockRestore();
        gateway.set('forward');
      }
    },
  );
});

describe('other methods', () => {
  it.each([
    ['newsletter', 'GET'],
    ['preinscription', 'GET'],
    ['newsletter', 'PUT'],
    ['preinscription', 'DELETE'],
  ] as const)('answers %s %s with 405 and Allow: POST', async (route, method) => {
    const response = await HANDLERS[route].ALL({ request: new Request(URLS[route], { method }) });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ok: false, message: HTTP_MESSAGES.badRequest });
  });

  it('keeps the routes on demand (not prerendered)', () => {
    expect(newsletter.prerender).toBe(false);
    expect(preinscription.prerender).toBe(false);
  });
});

/** The valid pre-registration as a browser's form fields (consent checked). */
function stringFields(): Record<string, string | undefined> {
  return {
    ...Object.fromEntries(Object.entries(validPreRegistration).map(([key, value]) => [key, String(value)])),
    consentement: 'on',
  };
}
