import { describe, expect, it } from 'vitest';
import {
  FIELD_MAX,
  fieldErrors,
  firstError,
  formDataToPayload,
  MESSAGES,
  newsletterSchema,
  preRegistrationSchema,
} from '../../src/features/forms/forms';
import { paymentDraftSchema } from '../../src/features/donations/checkout/payment-draft';
import { isCountryCodeLike } from '../../src/lib/field-schemas';
import { isAcceptableEmail } from '../../src/lib/fields';
import { CONSENT_WORDINGS, consentText, currentConsent } from '../../src/features/forms/form-rules';
import { newsletterConsent, preRegistrationConsent } from '../fixtures/submissions';

const validPreRegistration = {
  enfantPrenom: 'Léa',
  enfantNom: 'Martin',
  enfantNaissance: '2021-03-14',
  classeSouhaitee: 'CP',
  infos: 'Elle adore dessiner.',
  parentPrenom: 'Sophie',
  parentNom: 'Martin',
  email: 'sophie.martin@exemple.fr',
  telephone: '+33612345678',
  adresse: '3 rue des Lilas',
  postal: '69007',
  ville: 'Lyon',
  pays: 'FR',
  ...preRegistrationConsent,
};

/** A valid payment draft: the parent of the pre-registration gives amount index 3 by Stripe's page. */
const { parentPrenom: prenom, parentNom: nom, email, adresse, postal, ville, pays } = validPreRegistration;
const validPayment = { moyen: 'lien', somme: 3, prenom, nom, email, adresse, postal, ville, pays };

describe('newsletter rules (spec §5)', () => {
  it('accepts an email of at least 5 characters with @ and .', () => {
    expect(isAcceptableEmail('a@b.c')).toBe(true);
    expect(isAcceptableEmail('  marie@exemple.fr ')).toBe(true);
    // 'a@b.' has '@' and '.' but only 4 characters.
    for (const bad of ['a@b.', '', 'a@bc', 'ab.cd', 'a b@c.fr']) expect(isAcceptableEmail(bad), bad).toBe(false);
  });

  it("says 'L'email ne semble pas correct, pouvez-vous le vérifier ?' for a bad email", () => {
    for (const email of ['a@b', 'abcdef', 'ab.cd', '@.f']) {
      const result = newsletterSchema.safeParse({ email, ...newsletterConsent });
      expect(result.success, email).toBe(false);
      if (!result.success)
        expect(firstError(result.error)).toBe("L'email ne semble pas correct, pouvez-vous le vérifier ?");
    }
  });

  it("says 'Votre consentement est obligatoire pour vous inscrire' without consent", () => {
    const result = newsletterSchema.safeParse({ email: 'marie@exemple.fr', ...newsletterConsent, consentement: false });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstError(result.error)).toBe('Votre consentement est obligatoire pour vous inscrire');
  });

  it('checks the email before the consent, and trims the email', () => {
    const result = newsletterSchema.safeParse({ email: 'x', ...newsletterConsent, consentement: false });
    if (!result.success) expect(firstError(result.error)).toBe(MESSAGES.emailIncorrect);
    expect(newsletterSchema.parse({ email: ' marie@exemple.fr ', ...newsletterConsent })).toEqual({
      email: 'marie@exemple.fr',
      ...newsletterConsent,
    });
  });

  it('rejects unknown fields and over-long emails', () => {
    const unknown = newsletterSchema.safeParse({ email: 'marie@exemple.fr', ...newsletterConsent, admin: true });
    expect(unknown.success).toBe(false);
    if (!unknown.success) expect(firstError(unknown.error)).toBe('La demande contient des champs inattendus');
    const long = newsletterSchema.safeParse({ email: `${'a'.repeat(250)}@exemple.fr`, ...newsletterConsent });
    if (!long.success) expect(firstError(long.error)).toBe('Ce champ est trop long (254 caractères au plus)');
    expect(long.success).toBe(false);
  });
});

describe('pre-registration rules', () => {
  it('accepts a complete entry and defaults the optional fields', () => {
    expect(preRegistrationSchema.parse(validPreRegistration)).toEqual(validPreRegistration);
    const minimal = {
      ...validPreRegistration,
      enfantNaissance: undefined,
      classeSouhaitee: undefined,
      infos: undefined,
      telephone: undefined,
      adresse: undefined,
      postal: undefined,
      ville: undefined,
      pays: undefined,
    };
    expect(preRegistrationSchema.parse(minimal)).toMatchObject({
      enfantNaissance: '',
      classeSouhaitee: '',
      infos: '',
      telephone: '',
      adresse: '',
      pays: 'FR',
    });
  });

  it('requires the consent box', () => {
    const result = preRegistrationSchema.safeParse({ ...validPreRegistration, consentement: false });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrors(result.error)).toEqual({ consentement: MESSAGES.preRegistrationConsentRequired });
  });

  it('gives one French message per field, tied to the field name', () => {
    const result = preRegistrationSchema.safeParse({
      ...validPreRegistration,
      enfantPrenom: '  ',
      parentNom: '',
      email: 'sophie',
      pays: 'ZZ',
      infos: 'x'.repeat(2001),
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        enfantPrenom: 'Merci d’indiquer le prénom de votre enfant',
        parentNom: 'Merci d’indiquer votre nom',
        email: 'Merci de saisir un email valide',
        pays: 'Merci de choisir un pays dans la liste',
        infos: 'Ce champ est trop long (2000 caractères au plus)',
      });
    }
  });

  it('accepts every country of the list and nothing else', async () => {
    const { countryOptions } = await import('../../src/features/forms/countries');
    for (const { code } of countryOptions()) expect(isCountryCodeLike(code), code).toBe(true);
    for (const code of ['ZZ', 'EU', 'UN', 'XX', 'fr', 'FRA', '']) expect(isCountryCodeLike(code), code).toBe(false);
  });

  it('reads a plain form submission (checkbox → boolean)', () => {
    const form = { ...validPreRegistration, consentement: 'true' };
    expect(preRegistrationSchema.parse(formDataToPayload(form))).toEqual(validPreRegistration);
    expect(formDataToPayload({ email: 'a@b.fr' })).toEqual({ email: 'a@b.fr', consentement: false });
  });
});

/** firstError and fieldErrors of a payload the schema must refuse. */
function refused(
  schema: typeof preRegistrationSchema | typeof newsletterSchema | typeof paymentDraftSchema,
  payload: unknown,
) {
  const result = schema.safeParse(payload);
  expect(result.success).toBe(false);
  return result.success ? {} : { first: firstError(result.error), fields: fieldErrors(result.error) };
}

describe('messages and their order, as the islands see them (no per-parse fallback)', () => {
  it('says "too long" before "incorrect" for an email that is both, and measures a text once trimmed', () => {
    const both = refused(newsletterSchema, { email: 'x'.repeat(300), ...newsletterConsent });
    expect(both.first).toBe(MESSAGES.tooLong(254));
    expect(refused(preRegistrationSchema, { ...validPreRegistration, ville: ` ${'x'.repeat(101)} ` })).toEqual({
      first: MESSAGES.tooLong(100),
      fields: { ville: MESSAGES.tooLong(100) },
    });
    // 100 characters once trimmed is within the limit.
    expect(preRegistrationSchema.parse({ ...validPreRegistration, ville: ` ${'x'.repeat(100)} ` }).ville).toBe(
      'x'.repeat(100),
    );
  });

  it('refuses a consent that is not the boolean true, and an email that is not a string, in French', () => {
    for (const consentement of ['true', 'on', 1, null, undefined]) {
      expect(
        refused(newsletterSchema, { email: 'marie@exemple.fr', ...newsletterConsent, consentement }).first,
        String(consentement),
      ).toBe(MESSAGES.consentRequired);
      expect(refused(preRegistrationSchema, { ...validPreRegistration, consentement }).first).toBe(
        MESSAGES.preRegistrationConsentRequired,
      );
    }
    for (const email of [12345, null, undefined, ['a@b.fr']]) {
      expect(refused(newsletterSchema, { email, ...newsletterConsent }).first).toBe(MESSAGES.emailIncorrect);
    }
  });

  it('reports an unknown field after the invalid fields, under _form', () => {
    expect(refused(newsletterSchema, { email: 'x', ...newsletterConsent, admin: true })).toEqual({
      first: MESSAGES.emailIncorrect,
      fields: { email: MESSAGES.emailIncorrect, _form: MESSAGES.unknownField },
    });
    expect(refused(preRegistrationSchema, { ...validPreRegistration, role: 'admin', id: 1 })).toEqual({
      first: MESSAGES.unknownField,
      fields: { _form: MESSAGES.unknownField },
    });
  });

  it('trims and upper-cases the country, FR only when it is absent', () => {
    expect(preRegistrationSchema.parse({ ...validPreRegistration, pays: ' be ' }).pays).toBe('BE');
    expect(paymentDraftSchema.parse({ ...validPayment, pays: 'de' }).pays).toBe('DE');
    expect(paymentDraftSchema.parse({ ...validPayment, pays: undefined }).pays).toBe('FR');
    for (const pays of ['', '  ', 'FRA', 'eu']) {
      expect(refused(preRegistrationSchema, { ...validPreRegistration, pays }).fields, pays).toEqual({
        pays: MESSAGES.countryUnknown,
      });
    }
  });

  it('accepts an amount index 0..9 as a number or a numeric string, nothing else', () => {
    expect(paymentDraftSchema.parse({ ...validPayment, somme: ' 0 ' }).somme).toBe(0);
    for (const somme of [-1, 10, 2.5, 'deux', Number.NaN, {}]) {
      expect(refused(paymentDraftSchema, { ...validPayment, somme }).fields, String(somme)).toEqual({
        somme: 'Merci de choisir un montant',
      });
    }
  });

  it('takes an empty honeypot and stores the optional texts trimmed', () => {
    expect(newsletterSchema.parse({ email: 'marie@exemple.fr', ...newsletterConsent, site: '' })).toEqual({
      email: 'marie@exemple.fr',
      ...newsletterConsent,
      site: '',
    });
    expect(preRegistrationSchema.parse({ ...validPreRegistration, infos: '  note  ', ville: ' ' })).toMatchObject({
      infos: 'note',
      ville: '',
    });
  });
});

describe('well-formed texts and lengths, in every payload', () => {
  const lone = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD83D', '\uDE00b'];

  it('tells an unpaired surrogate from a pair (an emoji)', () => {
    for (const value of ['', 'Léa', '😀', '👩‍👧', '𝔸', 'x'.repeat(50) + '🙂'])
      expect(preRegistrationSchema.parse({ ...validPreRegistration, infos: value }).infos, value).toBe(value);
  });

  const withLone = (value: string) => `Mar${value}tin`;
  it.each([
    ['newsletter', newsletterSchema, { email: 'marie@exemple.fr', ...newsletterConsent }, ['email']],
    [
      'pre-registration',
      preRegistrationSchema,
      validPreRegistration,
      ['enfantPrenom', 'enfantNom', 'infos', 'parentPrenom', 'parentNom', 'email', 'adresse', 'postal', 'ville'],
    ],
    ['payment draft', paymentDraftSchema, validPayment, ['prenom', 'nom', 'email', 'adresse', 'postal', 'ville']],
  ] as const)(
    '%s: refuses an unpaired surrogate in every text field with MESSAGES.malformedText',
    (_label, schema, valid, fields) => {
      for (const field of fields) {
        for (const value of lone) {
          const result = schema.safeParse({ ...valid, [field]: withLone(value) });
          expect(result.success, `${field} ${JSON.stringify(value)}`).toBe(false);
          if (!result.success) expect(fieldErrors(result.error)[field]).toBe(MESSAGES.malformedText);
        }
      }
    },
  );

  // The pre-registration's 100 emoji are typed in the browser (tests/e2e/forms.spec.ts); the payment draft's here.
  it('payment draft: 100 emoji fit a 100-character name, 101 do not', () => {
    expect(paymentDraftSchema.safeParse({ ...validPayment, prenom: '🙂'.repeat(100) }).success).toBe(true);
    const over = paymentDraftSchema.safeParse({ ...validPayment, prenom: '🙂'.repeat(101) });
    expect(over.success).toBe(false);
    if (!over.success) expect(fieldErrors(over.error).prenom).toBe(MESSAGES.tooLong(100));
  });
});

describe('the pre-registration’s names, mailed to an address nobody has verified', () => {
  const names = ['enfantPrenom', 'enfantNom', 'parentPrenom', 'parentNom'] as const;

  it.each(names)('%s takes a name of any script up to 60 characters', (field) => {
    for (const name of [
      'Léa-Maëlle',
      'O’Brien',
      "d'Artagnan",
      'Jean Pierre',
      'نور',
      'Nguyễn',
      'मानसी',
      'é'.repeat(60),
    ]) {
      expect(preRegistrationSchema.safeParse({ ...validPreRegistration, [field]: ` ${name} ` }).success, name).toBe(
        true,
      );
    }
  });

  it.each(names)('%s refuses a message, a link, digits, 61 letters and control characters, in French', (field) => {
    for (const text of [
      'Votre dossier est refusé. Appelez le 08 99 00 00 00',
      'http://evil.example/pay',
      'Léa2',
      'é'.repeat(61),
      'Léa\n=1+1',
      'Léa\u202e',
      '-',
    ]) {
      expect(refused(preRegistrationSchema, { ...validPreRegistration, [field]: text }), text).toEqual({
        first: MESSAGES.personName,
        fields: { [field]: MESSAGES.personName },
      });
    }
  });
});

describe('control characters', () => {
  it('are refused in every text field in French, line breaks and tabs only in the notes', () => {
    const fields = ['infos', 'adresse', 'postal', 'ville'] as const;
    for (const field of fields) {
      for (const character of ['\u0000', '\u0007', '\u001b', '\u007f', '\u202a', '\u202e', '\u2066', '\u2069']) {
        expect(refused(preRegistrationSchema, { ...validPreRegistration, [field]: `a${character}b` }).fields).toEqual({
          [field]: MESSAGES.forbiddenCharacter,
        });
      }
    }
    expect(refused(preRegistrationSchema, { ...validPreRegistration, ville: 'Lyon\nParis' }).fields).toEqual({
      ville: MESSAGES.forbiddenCharacter,
    });
    expect(preRegistrationSchema.parse({ ...validPreRegistration, infos: 'Ligne 1\r\nLigne 2\tfin' }).infos).toBe(
      'Ligne 1\r\nLigne 2\tfin',
    );
    expect(refused(paymentDraftSchema, { ...validPayment, nom: 'Dupont\u0000' }).fields).toEqual({
      nom: MESSAGES.forbiddenCharacter,
    });
  });
});

describe('FIELD_MAX, the one source of the text limits', () => {
  const fieldsOf = {
    'pre-registration': [preRegistrationSchema, validPreRegistration, { infos: 'infos' }],
    'payment draft': [paymentDraftSchema, validPayment, { prenom: 'prenom', nom: 'nom' }],
  } as const;
  const address = { adresse: 'adresse', postal: 'postal', ville: 'ville' } as const;

  it.each(Object.entries(fieldsOf))(
    '%s: each text field takes FIELD_MAX characters, refuses one more',
    (_label, entry) => {
      const [schema, valid, fields] = entry;
      for (const [field, limit] of Object.entries({ ...fields, ...address })) {
        const max = FIELD_MAX[limit];
        expect(schema.safeParse({ ...valid, [field]: 'x'.repeat(max) }).success, field).toBe(true);
        const over = schema.safeParse({ ...valid, [field]: 'x'.repeat(max + 1) });
        expect(over.success ? {} : fieldErrors(over.error), field).toEqual({ [field]: MESSAGES.tooLong(max) });
      }
    },
  );
});

describe('consent wordings (proof of consent)', () => {
  it('knows each form’s wordings, newest first, versions dated and unique', () => {
    for (const form of ['newsletter', 'preinscription'] as const) {
      const versions = CONSENT_WORDINGS[form].map((wording) => wording.version);
      expect(versions.every((version) => /^\d{4}-\d{2}-\d{2}$/.test(version))).toBe(true);
      expect(new Set(versions).size).toBe(versions.length);
      expect([...versions].sort().reverse()).toEqual(versions);
      expect(currentConsent(form)).toBe(CONSENT_WORDINGS[form][0]);
      expect(consentText(form, currentConsent(form).version)).toBe(currentConsent(form).text);
    }
    expect(consentText('newsletter', '1999-01-01')).toBeUndefined();
  });

  it('accepts only a version the site has shown', () => {
    const bad = newsletterSchema.safeParse({ email: 'marie@exemple.fr', consentement: true, consentementVersion: 'x' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(fieldErrors(bad.error)).toEqual({ consentementVersion: MESSAGES.consentOutdated });
  });
});
