/**
 * GET /espace/preinscriptions/export.csv[?statut=<status>] (admissions, admin): the pre-registrations as CSV for a
 * French spreadsheet (src/lib/csv.ts), without what parents wrote about health; the export is logged.
 */
import type { APIRoute } from 'astro';
import { exportPreRegistrations } from '../../../features/admissions/desk.server';
import { isoDay, isStatus } from '../../../features/admissions/admissions';
import { csvResponse } from '../../../lib/csv';
import { failureResponse } from '../../../features/espace/server-calls.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url }) => {
  const requested = url.searchParams.get('statut');
  try {
    const { csv } = await exportPreRegistrations(locals.espace, isStatus(requested) ? requested : undefined);
    return csvResponse(csv, `preinscriptions-${isoDay(new Date())}.csv`);
  } catch (error) {
    return failureResponse(error, '[espace/export]');
  }
};
