/**
 * /espace/dons/signataire (tresorerie, admin): what the page shows and what its form does (its action:
 * signatory-actions.server.ts). The form saves the signatory's name and quality and, when a file is chosen, the cleaned picture of the signature
 * (signature-image.server.ts); then numbers and mails at once the receipts that were waiting for it (the scheduled
 * sweep would within minutes). Logged.
 */
import { adminFirestore } from '../../../lib/firebase-admin.server';
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { HttpError } from '../../../lib/http';
import { withDeadline } from '../../../lib/deadline';
import { recordAccess } from '../../espace/access-log.server';
import type { StaffSession } from '../../espace/auth.server';
import { bounded, failureOf } from '../../espace/server-calls.server';
import { formOutcome, typedText } from '../../espace/staff-action.server';
import type { FieldIssue } from '../../content/editing/messages';
import { trySend } from '../../mail/mail-env.server';
import { assertTreasury } from '../ledger/ledger-reads.server';
import { siteNumberedGiftMails } from './gift-mails.server';
import { numberPendingReceipts } from './receipt-numbering.server';
import { signatoryFormSchema } from './signatory';
import { readSignatory, SIGNATORY_DOCUMENT, writeSignatory } from './signatory.server';
import { cleanSignature } from './signature-image.server';

/** What the form shows: the fields as stored (or typed), whether a signature picture is stored. */
export interface SignatoryView {
  nom: string;
  qualite: string;
  hasSignature: boolean;
}

/** The signatory as stored now, for the form. @throws HttpError 403, 503. */
export async function signatoryView(session: StaffSession | undefined): Promise<SignatoryView> {
  assertTreasury(session);
  const signatory = await bounded('signatory', readSignatory(adminFirestore()));
  return { nom: signatory?.name ?? '', qualite: signatory?.quality ?? '', hasSignature: Boolean(signatory?.image) };
}

/** True when receipts can be issued: the signatory has a name and a quality. @throws HttpError 503. */
export async function receiptsSigned(): Promise<boolean> {
  return Boolean(await bounded('signatory', readSignatory(adminFirestore())));
}

/** What a post did: the field refusals (by field), or how many waiting receipts were issued. */
export type SignatoryOutcome =
  { ok: false; typed: SignatoryView; issues: { field: string; message: string }[] } | { ok: true; issued: number };

/** What the signatory form sent: `nom`, `qualite`, the file `signature` (none or empty: keep), `retirer` ('oui'). */
export interface SignatoryPost {
  nom: string;
  qualite: string;
  signature?: File | undefined;
  retirer: string;
}

/**
 * Saves the signatory `posted` (`retirer=oui` removes the stored picture), nothing when a field or the file is
 * refused; then issues the receipts that waited.
 * @throws HttpError 403, 503.
 */
export async function saveSignatory(
  session: StaffSession | undefined,
  posted: SignatoryPost,
): Promise<SignatoryOutcome> {
  assertTreasury(session);
  const db = adminFirestore();
  const stored = await bounded('signatory', readSignatory(db));
  const typed = { nom: posted.nom, qualite: posted.qualite, hasSignature: Boolean(stored?.image) };
  const parsed = signatoryFormSchema.safeParse(typed);
  const issues = (parsed.error?.issues ?? []).map((issue) => ({
    field: String(issue.path[0]),
    message: issue.message,
  }));
  const file = posted.signature;
  let image: Awaited<ReturnType<typeof cleanSignature>> | 'garder' | 'retirer' =
    posted.retirer === 'oui' ? 'retirer' : 'garder';
  if (file && file.size > 0) {
    try {
      image = await cleanSignature(file);
    } catch (failure) {
      if (!(failure instanceof HttpError)) throw failure;
      issues.push({ field: 'signature', message: failure.message });
    }
  }
  if (!parsed.success || issues.length > 0) return { ok: false, typed, issues };
  await bounded('save', writeSignatory(db, parsed.data, image, session.email));
  await bounded('log', recordAccess(db, session, 'modification', SIGNATORY_DOCUMENT));
  let issued = 0;
  try {
    const done = await withDeadline(numberPendingReceipts(db, siteNumberedGiftMails(), { deadlineMs: 8000 }), 12_000);
    issued = done.numbered.length;
    await trySend(done.mails, 3000);
  } catch (error) {
    // The sweep before each drain of the outbox numbers and mails what is left.
    console.warn(`[espace/dons/signataire] receipts left for the scheduled numbering: ${String(error)}`);
  }
  return { ok: true, issued };
}

/** What the page shows: the form (undefined when the signatory could not be read), its refusals, the failure. */
export interface SignatoryPageView {
  typed: SignatoryView | undefined;
  issues: FieldIssue[];
  error: string | undefined;
}

/**
 * The redirect to the ledger (`?signataire=<count issued>`) once the action `donations.signatory` saved, or what the
 * page shows (after a refusal: what was typed, beside each field's refusal).
 */
export async function signatoryPage(Astro: AstroGlobal): Promise<Response | SignatoryPageView> {
  const result = Astro.getActionResult(actions.donations.signatory);
  const outcome = formOutcome(Astro, result);
  if (result?.data) return Astro.redirect(`/espace/dons?signataire=${result.data.issued}`, 303);
  const view: SignatoryPageView = { typed: undefined, issues: [], error: undefined };
  if (outcome.state === 'refused') {
    view.issues = outcome.issues;
    if (outcome.issues.length === 0) view.error = outcome.message;
  }
  try {
    view.typed = await signatoryView(Astro.locals.espace);
    if (outcome.state === 'refused') {
      const posted = await Astro.request.formData();
      view.typed = { ...view.typed, nom: typedText(posted, 'nom'), qualite: typedText(posted, 'qualite') };
    }
  } catch (failure) {
    if (!view.error)
      ({ status: Astro.response.status, message: view.error } = failureOf(failure, '[espace/dons/signataire]'));
  }
  return view;
}
