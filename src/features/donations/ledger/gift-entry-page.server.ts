/**
 * The controller of /espace/dons/nouveau: the form's fields and labels in its order, what it shows first, and what the
 * page shows after its action (ledger-actions.server.ts). Kept here so that the page stays a template.
 */
import { randomUUID } from 'node:crypto';
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import type { FieldIssue } from '../../content/editing/messages';
import { formOutcome, typedText } from '../../espace/staff-action.server';
import { isoDay } from '../../admissions/admissions';

/** The form's fields, in its order. */
export const GIFT_ENTRY_FIELDS = [
  'cle',
  'moyen',
  'date',
  'montant',
  'donateur',
  'entreprise',
  'siren',
  'prenom',
  'nom',
  'adresse',
  'postal',
  'ville',
  'email',
] as const;

/** What the form holds: every field as typed. */
export type GiftEntryTyped = Record<(typeof GIFT_ENTRY_FIELDS)[number], string>;

/** The fields' labels, in the form's order (the error summary's order and links). */
export const GIFT_ENTRY_LABELS: Record<string, string> = {
  moyen: 'Moyen de paiement',
  date: 'Date du versement',
  montant: 'Montant en euros',
  donateur: 'Le don vient',
  entreprise: 'Dénomination de l’entreprise',
  siren: 'Numéro SIREN',
  prenom: 'Prénom',
  nom: 'Nom',
  adresse: 'Adresse',
  postal: 'Code postal',
  ville: 'Ville',
  email: 'Email du donateur',
};

/** The empty form: a new key, a cheque from a person, paid today. */
export function blankGiftEntry(): GiftEntryTyped {
  const typed = Object.fromEntries(GIFT_ENTRY_FIELDS.map((name) => [name, ''])) as GiftEntryTyped;
  return { ...typed, cle: randomUUID(), moyen: 'cheque', donateur: 'particulier', date: isoDay(new Date()) };
}

/** What the page shows: the form as typed (blank at first), each field's refusal, or the failure's message. */
export interface GiftEntryView {
  typed: GiftEntryTyped;
  issues: FieldIssue[];
  error: string | undefined;
}

/**
 * The redirect to the ledger's year (`?enregistre=<number>`) once the action `donations.record`
 * (ledger-actions.server.ts) recorded the gift, or what the page shows (after a refusal: what was typed, 400).
 */
export async function giftEntryPage(Astro: AstroGlobal): Promise<Response | GiftEntryView> {
  const result = Astro.getActionResult(actions.donations.record);
  const outcome = formOutcome(Astro, result);
  if (result?.data) {
    return Astro.redirect(`/espace/dons?annee=${result.data.year}&enregistre=${result.data.recu}`, 303);
  }
  if (outcome.state !== 'refused') return { typed: blankGiftEntry(), issues: [], error: undefined };
  const posted = await Astro.request.formData();
  const typed = Object.fromEntries(GIFT_ENTRY_FIELDS.map((name) => [name, typedText(posted, name)])) as GiftEntryTyped;
  const error = outcome.issues.length > 0 ? undefined : outcome.message;
  return { typed, issues: outcome.issues, error };
}
