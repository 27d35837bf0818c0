/**
 * /espace/dons/nouveau's form: its fields and labels in the form's order, what it shows first, and its post (checked
 * by offlineGiftSchema, recorded and numbered by recordOfflineGift). Kept here so that the page stays a template.
 */
import { randomUUID } from 'node:crypto';
import type { FieldIssue } from '../../content/editing/messages';
import type { StaffSession } from '../../espace/auth.server';
import { readFormPost } from '../../espace/form-post.server';
import { failureOf } from '../../espace/server-calls.server';
import { isoDay } from '../../admissions/admissions';
import { receiptYear } from '../checkout/donations';
import { offlineGiftSchema, recordOfflineGift } from './gift-entry.server';

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

/** What a post gives: where to go once recorded, or the form again with its refusals or the failure's message. */
export type GiftEntryOutcome =
  { redirect: string } | { typed: GiftEntryTyped; issues: FieldIssue[]; status: number; error?: string };

/** Records the posted gift, or says why not (every field's first refusal; nothing written then). */
export async function postGiftEntry(session: StaffSession | undefined, request: Request): Promise<GiftEntryOutcome> {
  let typed = blankGiftEntry();
  try {
    const fields = await readFormPost(request);
    typed = Object.fromEntries(GIFT_ENTRY_FIELDS.map((name) => [name, fields.get(name) ?? ''])) as GiftEntryTyped;
    const parsed = offlineGiftSchema.safeParse(typed);
    if (parsed.success) {
      const { recu } = await recordOfflineGift(session, parsed.data);
      const year = receiptYear(new Date(`${parsed.data.date}T12:00:00Z`));
      return { redirect: `/espace/dons?annee=${year}&enregistre=${recu}` };
    }
    const issues: FieldIssue[] = [];
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (!issues.some((known) => known.field === field)) issues.push({ field, message: issue.message });
    }
    return { typed, issues, status: 400 };
  } catch (failure) {
    const { status, message } = failureOf(failure, '[espace/dons/nouveau]');
    return { typed, issues: [], status, error: message };
  }
}
