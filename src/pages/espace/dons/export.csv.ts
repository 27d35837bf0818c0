/**
 * GET /espace/dons/export.csv?annee=<year> (tresorerie, admin): the year's live gifts as CSV for the accounts
 * (src/features/espace/donations.ts: date; nom; prénom; email; montant; nature; moyen; statut; reçu); logged.
 */
import type { APIRoute } from 'astro';
import { exportGifts } from '../../../features/espace/donations.server';
import { csvResponse } from '../../../features/espace/csv';
import { requestedYear } from '../../../features/espace/donations';
import { receiptYear } from '../../../features/donations/donations';
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
