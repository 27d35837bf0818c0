/**
 * GET /espace/lettre/export.csv (section `lettre`): the confirmed subscribers as CSV for a mailing tool or a French
 * spreadsheet (src/lib/csv.ts): email and confirmation date, newest first; the export is logged.
 */
import type { APIRoute } from 'astro';
import { isoDay } from '../../../features/admissions/admissions';
import { csvResponse } from '../../../lib/csv';
import { exportSubscribers } from '../../../features/newsletter/subscribers.server';
import { failureResponse } from '../../../features/espace/server-calls.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals }) => {
  try {
    const { csv } = await exportSubscribers(locals.espace);
    return csvResponse(csv, `lettre-abonnes-${isoDay(new Date())}.csv`);
  } catch (error) {
    return failureResponse(error, '[espace/lettre/export]');
  }
};
