/**
 * GET /espace/preinscriptions/export.csv[?statut=<status>][&q=<search>] (admissions, admin): the pre-registrations the
 * list shows, as CSV for a French spreadsheet (src/lib/csv.ts), without what parents wrote about health; logged.
 */
import type { APIRoute } from 'astro';
import { exportPreRegistrations } from '../../../features/admissions/desk.server';
import { isoDay, isStatus } from '../../../features/admissions/admissions';
import { csvResponse } from '../../../lib/csv';
import { searchText } from '../../../features/admissions/search';
import { failureResponse } from '../../../features/espace/server-calls.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals, url }) => {
  const requested = url.searchParams.get('statut');
  const query = searchText(url.searchParams.get('q'));
  try {
    const status = isStatus(requested) ? requested : undefined;
    const { csv } = await exportPreRegistrations(locals.espace, { status, query });
    return csvResponse(csv, `preinscriptions-${isoDay(new Date())}.csv`);
  } catch (error) {
    return failureResponse(error, '[espace/export]');
  }
};
