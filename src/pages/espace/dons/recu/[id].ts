/**
 * GET /espace/dons/recu/<gift id> (tresorerie, admin): the gift's tax receipt as PDF, the same document the donor got
 * (card, cheque or transfer); each download is logged. 404 for a gift without a receipt.
 */
import type { APIRoute } from 'astro';
import { receiptOf } from '../../../../features/donations/ledger/ledger-reads.server';
import { failureResponse } from '../../../../features/espace/server-calls.server';
import { pdfResponse } from '../../../../lib/endpoint.server';

export const prerender = false;

export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const { pdf, fileName } = await receiptOf(locals.espace, params.id ?? '');
    return pdfResponse(pdf, fileName);
  } catch (error) {
    return failureResponse(error, '[espace/dons/recu]');
  }
};
