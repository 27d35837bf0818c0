/**
 * The form of /espace/dons/signataire as an Astro Action (`donations.signatory`, ledger-actions.server.ts): the
 * receipts' signatory saved (signatory-page.server.ts), then the receipts that waited for it issued. The body is
 * bounded as the form's own (a signature of SIGNATURE_MAX_BYTES and its fields), below Astro's limit for every form.
 */
import * as z from 'zod';
import { tooLarge } from '../../../lib/http';
import { ESPACE_MESSAGES } from '../../espace/messages';
import { FieldsRefused, staffAction, staffText } from '../../espace/staff-action.server';
import { SIGNATORY_FIELD_MAX, SIGNATURE_MAX_BYTES } from './signatory';
import { saveSignatory } from './signatory-page.server';

/** Largest body of the form (bytes): the signature and room for its fields. */
const MAX_BODY_BYTES = SIGNATURE_MAX_BYTES + 64 * 1024;

/**
 * Saves `nom`, `qualite`, the file `signature` and `retirer`; how many waiting receipts were issued.
 * @throws HttpError 413 HTTP_MESSAGES.tooLarge past MAX_BODY_BYTES, FieldsRefused (nothing written), as saveSignatory.
 */
export const signatoryAction = staffAction(
  'dons',
  z.object({
    nom: staffText(SIGNATORY_FIELD_MAX * 4),
    qualite: staffText(SIGNATORY_FIELD_MAX * 4),
    signature: z.instanceof(File, { error: ESPACE_MESSAGES.badForm }).optional(),
    retirer: staffText(10),
  }),
  async (posted, { session, context }) => {
    if (Number(context.request.headers.get('content-length')) > MAX_BODY_BYTES) throw tooLarge();
    const outcome = await saveSignatory(session, posted);
    if (outcome.ok) return { issued: outcome.issued };
    const errors: Record<string, string> = {};
    for (const issue of outcome.issues) errors[issue.field] ??= issue.message;
    throw new FieldsRefused(errors);
  },
);
