/**
 * /espace/dons/signataire (tresorerie, admin): what the page shows and what its form post does. The post (multipart,
 * bounded) saves the signatory's name and quality and, when a file is chosen, the cleaned picture of the signature
 * (signature-image.server.ts); then numbers and mails at once the receipts that were waiting for it (the scheduled
 * sweep would within minutes). Logged.
 */
import { mediaType, readBoundedBody } from '../../../lib/endpoint.server';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { HttpError } from '../../../lib/http';
import { withDeadline } from '../../../lib/deadline';
import { recordAccess } from '../../espace/access-log.server';
import type { StaffSession } from '../../espace/auth.server';
import { assertPlainFields } from '../../espace/form-post.server';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { bounded } from '../../espace/server-calls.server';
import { trySend } from '../../mail/mail-env.server';
import { assertTreasury } from '../ledger/ledger-reads.server';
import { siteNumberedGiftMails } from './gift-mails.server';
import { numberPendingReceipts } from './receipt-numbering.server';
import { SIGNATORY_FIELD_MAX, SIGNATURE_MAX_BYTES, signatoryFormSchema } from './signatory';
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

/**
 * Saves the posted signatory (`nom`, `qualite`, the file `signature`, `retirer=oui` to remove the stored picture),
 * nothing when a field or the file is refused; then issues the receipts that waited.
 * @throws HttpError 403, 413 (the body), 415 (not a form), 400 (unreadable), 503.
 */
export async function postSignatory(session: StaffSession | undefined, request: Request): Promise<SignatoryOutcome> {
  assertTreasury(session);
  const type = mediaType(request);
  if (type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, ESPACE_MESSAGES.badForm);
  }
  const body = await readBoundedBody(request, SIGNATURE_MAX_BYTES + 64 * 1024);
  const form = await new Response(body, { headers: request.headers }).formData().catch((error: unknown) => {
    throw new HttpError(400, ESPACE_MESSAGES.badForm, { cause: error });
  });
  assertPlainFields(form, SIGNATORY_FIELD_MAX * 4);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const db = adminFirestore();
  const stored = await bounded('signatory', readSignatory(db));
  const typed = { nom: text('nom'), qualite: text('qualite'), hasSignature: Boolean(stored?.image) };
  const parsed = signatoryFormSchema.safeParse(typed);
  const issues = (parsed.error?.issues ?? []).map((issue) => ({
    field: String(issue.path[0]),
    message: issue.message,
  }));
  const file = form.get('signature');
  let image: Awaited<ReturnType<typeof cleanSignature>> | 'garder' | 'retirer' =
    text('retirer') === 'oui' ? 'retirer' : 'garder';
  if (file instanceof Blob && file.size > 0) {
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
