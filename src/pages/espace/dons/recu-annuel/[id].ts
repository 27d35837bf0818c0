/**
 * GET /espace/dons/recu-annuel/<id> (tresorerie, admin): the yearly receipt `recusAnnuels/<id>` of a monthly donor as
 * PDF, the same document the donor got; each download is logged. 404 for an unknown id.
 */
import type { APIRoute } from 'astro';
import { yearlyReceiptOf } from '../../../../features/espace/donations.server';
import { HttpError } from '../../../../lib/http';

export const prerender = false;

export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const { pdf, fileName } = await yearlyReceiptOf(locals.espace, params.id ?? '');
    return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${fileName}"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    const known = error instanceof HttpError;
    if (!known || error.status >= 500) console.error('[espace/dons/recu-annuel]', error);
    return new Response(known ? error.message : 'Une erreur est survenue.', {
      status: known ? error.status : 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
};
