/**
 * The controller of /espace/dons: after one of its actions (ledger-actions.server.ts: a receipt mailed again, the
 * yearly receipts issued) a 303 back to the year's page with what was done; otherwise the ledger of the year asked
 * (`?annee=`, the current one by default), or the failure's French message.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { failureOf } from '../../espace/server-calls.server';
import { formOutcome } from '../../espace/staff-action.server';
import { receiptYear } from '../checkout/donations';
import { listGifts, type LedgerYear } from './ledger-reads.server';
import { requestedYear } from './ledger-view';

/** What the page shows: the year, its ledger (undefined after a failure), the refusal or failure. */
export interface LedgerPageView {
  year: number;
  ledger: LedgerYear | undefined;
  error: string | undefined;
}

/** An action's URL on the ledger of `year` (the form posts to the year's page). */
export const ledgerActionUrl = (year: number, action: { toString(): string }) =>
  `/espace/dons?annee=${year}&${String(action).slice(1)}`;

/** The redirect after an action of the page, or what the page shows. */
export async function ledgerPage(Astro: AstroGlobal): Promise<Response | LedgerPageView> {
  const year = requestedYear(Astro.url, receiptYear(new Date()));
  const resent = Astro.getActionResult(actions.donations.resend);
  const yearly = Astro.getActionResult(actions.donations.yearly);
  if (resent?.data) {
    return Astro.redirect(`/espace/dons?annee=${year}&envoye=${encodeURIComponent(resent.data.recu)}`, 303);
  }
  if (yearly?.data) {
    const { issued, corrected, left } = yearly.data;
    return Astro.redirect(`/espace/dons?annee=${year}&annuels=${issued}&rectifies=${corrected}&restants=${left}`, 303);
  }
  const refusal = [formOutcome(Astro, resent), formOutcome(Astro, yearly)].find((post) => post.state === 'refused');
  const view: LedgerPageView = {
    year,
    ledger: undefined,
    error: refusal?.state === 'refused' ? refusal.message : undefined,
  };
  try {
    view.ledger = await listGifts(Astro.locals.espace, year);
  } catch (failure) {
    if (!view.error) ({ status: Astro.response.status, message: view.error } = failureOf(failure, '[espace/dons]'));
  }
  return view;
}
