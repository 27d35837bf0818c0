/** GET /api/recu?session_id=cs_…: a one-off gift's tax receipt (PDF), or as JSON where the gift stands (docs/donations.md). */
import { ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY } from 'astro:env/server';
import type { DocumentData } from 'firebase-admin/firestore';
import { readDonation } from './donation-ledger.server';
import { SESSION_ID_PATTERN } from './donations';
import { errorResponse, jsonResponse, type EndpointContext, type EndpointHandler } from '../../lib/endpoint.server';
import { receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';

/** HTTP 404: the receipt is not available. */
export const RECEIPT_NOT_READY = 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.';

/** The answer (400) to a bad or missing session_id. */
export const RECEIPT_BAD_SESSION = 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.';

/** The issuer's object and signatory from astro:env: ASSOCIATION_OBJECT (else the demo association's), ASSOCIATION_SIGNATORY ('' = none). */
export function issuerFromEnv(): Pick<ReceiptIssuer, 'object' | 'signatory'> {
  return {
    object:
      ASSOCIATION_OBJECT?.trim() ||
      'Gérer l’École des Petits Pas, école primaire inclusive qui accueille ensemble des enfants avec et sans handicap, et soutenir leurs familles.',
    signatory: ASSOCIATION_SIGNATORY?.trim() ?? '',
  };
}

// 'attente' not recorded (yet), 'pret' a paid one-off gift with its number, 'mensuel' a monthly gift (one yearly
// receipt), 'echec' a failed delayed payment, 'impaye' one not settled yet.
function receiptState(entry: DocumentData | undefined): string {
  if (!entry) return 'attente';
  if (entry.nature === 'abonnement' || entry.nature === 'mensualite') return 'mensuel';
  if (entry.statut === 'failed') return 'echec';
  return entry.statut === 'paid' && typeof entry.recu === 'string' ? 'pret' : 'impaye';
}

/** The GET handler of /api/recu; `issuer`: the association's name and address (content) with issuerFromEnv(). */
export function receiptHandler(issuer: () => Promise<ReceiptIssuer>): EndpointHandler {
  return async ({ request }: EndpointContext): Promise<Response> => {
    const sessionId = new URL(request.url).searchParams.get('session_id') ?? '';
    if (!SESSION_ID_PATTERN.test(sessionId)) return jsonResponse(400, { ok: false, message: RECEIPT_BAD_SESSION });
    try {
      const entry = await readDonation(sessionId);
      const state = receiptState(entry);
      if (request.headers.get('accept')?.includes('application/json')) {
        return jsonResponse(200, { ok: true, etat: state, ...(state === 'pret' ? { numero: entry?.recu } : {}) });
      }
      if (!entry || state !== 'pret') return jsonResponse(404, { ok: false, message: RECEIPT_NOT_READY });
      const pdf = await receiptPdf(await issuer(), entry);
      return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="recu-fiscal-${entry.recu}.pdf"`,
          'cache-control': 'private, no-store',
          'x-robots-tag': 'noindex',
        },
      });
    } catch (error) {
      const response = errorResponse('api/recu', error);
      if (response.status === 503) response.headers.set('retry-after', '30');
      return response;
    }
  };
}
