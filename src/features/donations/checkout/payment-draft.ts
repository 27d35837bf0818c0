/**
 * The payment draft (spec §3) as a zod/mini schema, checked by the session endpoints, and its French messages. Its
 * field names are the spec's and the wire's (`somme`, `moyen`, `frequence`): the code calls them amountIndex,
 * checkoutMode and frequency.
 */
import * as z from 'zod/mini';
import { country, email, strict, text } from '../../../lib/field-schemas';
import { FIELD_MESSAGES, PERSON_FIELD_MAX } from '../../../lib/fields';
import { DONATION_AMOUNTS_EUR, OWN_AMOUNT_MESSAGES, parseOwnAmount } from './donations';

/** Every message of a payment draft's own fields (the donor's: src/lib/fields.ts). */
export const DONATION_MESSAGES = {
  ...FIELD_MESSAGES,
  /** `somme` is not an index of DONATION_AMOUNTS_EUR, as a number or its digits, and no `autreMontant` either. */
  amountRequired: 'Merci de choisir un montant',
  /** Both `somme` and `autreMontant`: the island sends one. */
  oneAmount: 'Choisissez un des montants proposés ou un autre montant, pas les deux',
  checkoutModeRequired: 'Merci de choisir comment payer',
  frequencyRequired: 'Merci de choisir un don ponctuel ou mensuel',
  donorKindRequired: 'Merci de choisir un don personnel ou un don d’entreprise',
} as const;

const amountRequired = { error: DONATION_MESSAGES.amountRequired };

/** An amount of the donor's own: euros as typed (a text such as « 37,50 », or a number), parsed to CENTS. */
const ownAmount = z.pipe(
  z.union([z.string(), z.number()], { error: OWN_AMOUNT_MESSAGES.notAmount }),
  z.transform((value: string | number, context) => {
    const parsed = parseOwnAmount(String(value));
    if ('cents' in parsed) return parsed.cents;
    context.issues.push({ code: 'custom', input: value, message: parsed.error });
    return z.NEVER;
  }),
);

/** The « Autre montant » radio's value for `somme` in the form posted without JavaScript: the amount is `autreMontant`. */
export const OWN_AMOUNT_CHOICE = 'autre' as const;

/**
 * The payment draft of the donation form posted without JavaScript (POST /api/don), from its fields as posted:
 * `somme` an index or OWN_AMOUNT_CHOICE, `autreMontant` (always posted, the field being in the page even when hidden:
 * kept only for OWN_AMOUNT_CHOICE), `frequence`, `donateur`, `moyen`. Any other field stays, for the schema to refuse.
 */
export function draftOfForm(fields: Record<string, string>): Record<string, string> {
  const { somme, autreMontant, ...rest } = fields;
  if (somme === OWN_AMOUNT_CHOICE) return { ...rest, autreMontant: autreMontant ?? '' };
  return somme === undefined ? rest : { ...rest, somme };
}

/** How the donor pays (`moyen`): 'lien' Stripe's page in a tab, 'integre' its form on /soutenir (spec §7). */
export type CheckoutMode = 'lien' | 'integre';

/**
 * Payment draft (spec §3): `moyen` the CheckoutMode; the amount, either `somme`, an INDEX in DONATION_AMOUNTS_EUR, or
 * `autreMontant`, the donor's own amount in euros as typed (« 37,50 »), which the schema turns into CENTS (3 750)
 * within 1 € and 100 000 €: the client never sends a price in cents; `frequence`; donor fields optional (Stripe's page
 * asks for them).
 */
export const paymentDraftSchema = z
  .strictObject(
    {
      moyen: z.enum(['lien', 'integre'] satisfies CheckoutMode[], { error: DONATION_MESSAGES.checkoutModeRequired }),
      somme: z.optional(
        z.pipe(
          z.union([z.number(), z.string().check(z.trim(), z.regex(/^\d+$/, amountRequired))], amountRequired),
          z.coerce
            .number<string | number>()
            .check(
              z.int(amountRequired),
              z.gte(0, amountRequired),
              z.lte(DONATION_AMOUNTS_EUR.length - 1, amountRequired),
            ),
        ),
      ),
      /** « Autre montant »: euros as typed; parsed, its cents. */
      autreMontant: z.optional(ownAmount),
      frequence: z._default(
        z.enum(['ponctuel', 'mensuel'], { error: DONATION_MESSAGES.frequencyRequired }),
        'ponctuel',
      ),
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
  )
  .check(
    z.superRefine((draft, context) => {
      const own = draft.autreMontant !== undefined;
      if (own === (draft.somme !== undefined)) {
        const field = own ? 'autreMontant' : 'somme';
        const message = own ? DONATION_MESSAGES.oneAmount : DONATION_MESSAGES.amountRequired;
        context.issues.push({ code: 'custom', input: draft[field], path: [field], message });
      }
    }),
  );

/** A valid payment draft: `somme` an index 0…9, or `autreMontant` in cents (100…10 000 000). */
export type PaymentDraft = z.infer<typeof paymentDraftSchema>;

/** A payment draft as the island sends it: `autreMontant` in euros as typed. */
export type PaymentDraftInput = z.input<typeof paymentDraftSchema>;

/** The cents a valid draft gives: its own amount, else the spec's amount at index `somme`. */
export const draftCents = (draft: Pick<PaymentDraft, 'somme' | 'autreMontant'>): number =>
  draft.autreMontant ?? DONATION_AMOUNTS_EUR[draft.somme ?? -1]! * 100;

/** A one-off or monthly gift (`frequence`). */
export type Frequency = PaymentDraft['frequence'];

/** A person's or a company's gift (`donateur`). */
export type DonorKind = PaymentDraft['donateur'];
