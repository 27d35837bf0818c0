/**
 * The payment draft (spec §3) as a zod/mini schema, checked by the session endpoints, and its French messages. Its
 * field names are the spec's and the wire's (`somme`, `moyen`, `frequence`): the code calls them amountIndex,
 * checkoutMode and frequency.
 */
import * as z from 'zod/mini';
import { country, email, strict, text } from '../../../lib/field-schemas';
import { FIELD_MESSAGES, PERSON_FIELD_MAX } from '../../../lib/fields';
import { DONATION_AMOUNTS_EUR } from './donations';

/** Every message of a payment draft's own fields (the donor's: src/lib/fields.ts). */
export const DONATION_MESSAGES = {
  ...FIELD_MESSAGES,
  /** `somme` is not an index of DONATION_AMOUNTS_EUR, as a number or its digits. */
  amountRequired: 'Merci de choisir un montant',
  checkoutModeRequired: 'Merci de choisir comment payer',
  frequencyRequired: 'Merci de choisir un don ponctuel ou mensuel',
  donorKindRequired: 'Merci de choisir un don personnel ou un don d’entreprise',
} as const;

const amountRequired = { error: DONATION_MESSAGES.amountRequired };

/** How the donor pays (`moyen`): 'lien' Stripe's page in a tab, 'integre' its form on /soutenir (spec §7). */
export type CheckoutMode = 'lien' | 'integre';

/**
 * Payment draft (spec §3): `moyen` the CheckoutMode, `somme` an INDEX in DONATION_AMOUNTS_EUR (never a price),
 * `frequence`; donor fields optional (Stripe's page asks for them).
 */
export const paymentDraftSchema = z.strictObject(
  {
    moyen: z.enum(['lien', 'integre'] satisfies CheckoutMode[], { error: DONATION_MESSAGES.checkoutModeRequired }),
    somme: z.pipe(
      z.union([z.number(), z.string().check(z.trim(), z.regex(/^\d+$/, amountRequired))], amountRequired),
      z.coerce
        .number<string | number>()
        .check(z.int(amountRequired), z.gte(0, amountRequired), z.lte(DONATION_AMOUNTS_EUR.length - 1, amountRequired)),
    ),
    frequence: z._default(z.enum(['ponctuel', 'mensuel'], { error: DONATION_MESSAGES.frequencyRequired }), 'ponctuel'),
    /** 'entreprise': a company's gift (Stripe asks the business name and SIREN; receipt under article 238 bis). */
    donateur: z._default(
      z.enum(['particulier', 'entreprise'], { error: DONATION_MESSAGES.donorKindRequired }),
      'particulier',
    ),
    prenom: z.optional(text(PERSON_FIELD_MAX.prenom)),
    nom: z.optional(text(PERSON_FIELD_MAX.nom)),
    email: z.optional(email(FIELD_MESSAGES.emailInvalid)),
    adresse: z.optional(text(PERSON_FIELD_MAX.adresse)),
    postal: z.optional(text(PERSON_FIELD_MAX.postal)),
    ville: z.optional(text(PERSON_FIELD_MAX.ville)),
    pays: country(),
  },
  strict,
);

/** A valid payment draft (`somme` an index 0…9). */
export type PaymentDraft = z.infer<typeof paymentDraftSchema>;

/** A one-off or monthly gift (`frequence`). */
export type Frequency = PaymentDraft['frequence'];

/** A person's or a company's gift (`donateur`). */
export type DonorKind = PaymentDraft['donateur'];
