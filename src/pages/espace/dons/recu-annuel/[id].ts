/**
 * GET /espace/dons/recu-annuel/<id> (tresorerie, admin): the yearly receipt `recusAnnuels/<id>` of a monthly donor as
 * PDF, the same document the donor got; each download is logged. 404 for an unknown id.
 */
import type { APIRoute } from 'astro';
import { yearlyReceiptOf } from '../../../../features/donations/ledger/ledger-reads.server';
import { failureResponse } from '../../../../features/espace/server-calls.server';
import { pdfResponse } from '../../../../lib/endpoint.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const { pdf, fileName } = await yearlyReceiptOf(locals.espace, params.id ?? '');
    return pdfResponse(pdf, fileName);
  } catch (error) {
    return failureResponse(error, '[espace/dons/recu-annuel]');
  }
};
