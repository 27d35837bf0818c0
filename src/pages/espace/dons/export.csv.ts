/**
 * GET /espace/dons/export.csv?annee=<year> (tresorerie, admin): the year's live gifts as CSV for the accounts
 * (src/features/donations/ledger/ledger-view.ts: date; nom; prénom; email; montant; nature; moyen; statut; reçu); logged.
 */
import type { APIRoute } from 'astro';
import { exportGifts } from '../../../features/donations/ledger/ledger-reads.server';
import { csvResponse } from '../../../lib/csv';
import { requestedYear } from '../../../features/donations/ledger/ledger-view';
import { receiptYear } from '../../../features/donations/checkout/donations';
import { failureResponse } from '../../../features/espace/server-calls.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url }) => {
  const year = requestedYear(url, receiptYear(new Date()));
  try {
    return csvResponse(await exportGifts(locals.espace, year), `dons-${year}.csv`);
  } catch (error) {
    return failureResponse(error, '[espace/dons/export]');
  }
};
