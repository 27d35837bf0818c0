/**
 * The treasurer's forms as Astro Actions (src/actions/index.ts): a cheque or transfer recorded (/espace/dons/nouveau),
 * a receipt mailed again and the yearly receipts issued (/espace/dons), the receipts' signatory
 * (/espace/dons/signataire: receipts/signatory-actions.server.ts).
 */
import * as z from 'zod';
import { FieldsRefused, staffAction, staffText } from '../../espace/staff-action.server';
import { receiptYear } from '../checkout/donations';
import { signatoryAction } from '../receipts/signatory-actions.server';
import { GIFT_ENTRY_FIELDS } from './gift-entry-page.server';
import { issueYearlyReceiptsNow, offlineGiftSchema, recordOfflineGift, resendReceipt } from './gift-entry.server';

/** Every field of the cheque form as a text of the space (offlineGiftSchema checks them in the handler). */
const giftEntryInput = z.object(Object.fromEntries(GIFT_ENTRY_FIELDS.map((name) => [name, staffText()])));

export const donationActions = {
  /**
   * Records the cheque or transfer (recordOfflineGift); the year of its payment and its receipt's number ('' while
   * it waits). @throws FieldsRefused with each field's first refusal (nothing written), as recordOfflineGift.
   */
  record: staffAction('dons', giftEntryInput, async (fields, { session }) => {
    const parsed = offlineGiftSchema.safeParse(fields);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
      throw new FieldsRefused(errors);
    }
    const { recu } = await recordOfflineGift(session, parsed.data);
    return { year: receiptYear(new Date(`${parsed.data.date}T12:00:00Z`)), recu };
  }),

  /** Mails gift `renvoyer`'s receipt `recu` again (`cle`: the form's key); the number. @throws as resendReceipt. */
  resend: staffAction(
    'dons',
    z.object({ renvoyer: staffText(200), recu: staffText(40), cle: staffText(100) }),
    async ({ renvoyer, recu, cle }, { session }) => {
      await resendReceipt(session, renvoyer, cle);
      return { recu };
    },
  ),

  /** Issues the yearly receipts of year `annuels`; how many. @throws as issueYearlyReceiptsNow. */
  yearly: staffAction('dons', z.object({ annuels: staffText(10) }), ({ annuels }, { session }) =>
    issueYearlyReceiptsNow(session, Number(annuels)),
  ),

  signatory: signatoryAction,
};
