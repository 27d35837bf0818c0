/**
 * GET /api/recu?session_id=cs_… — a one-off gift's tax receipt: the PDF once the webhook has
 * recorded the paid gift (with its number), or, asked for JSON, where the gift stands (the
 * thank-you page polls it). Answers: docs/donations.md.
 */
import { ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY } from 'astro:env/server';
import type { DocumentData, Timestamp } from 'firebase-admin/firestore';
import { readDonation, SESSION_ID_PATTERN } from './donation-ledger.server';
import { jsonResponse, type EndpointContext, type EndpointHandler } from '../../lib/endpoint.server';
import { MESSAGES } from '../forms/forms';
import { HttpError } from '../../lib/http-error.server';
import { receiptPdf, type ReceiptIssuer } from './receipt-pdf.server';

/** Where a session stands, for the thank-you page. */
export type ReceiptState =
  /** The webhook has not recorded the session yet (or never will: not ours, not paid). */
  | 'attente'
  /** A paid one-off gift: the receipt can be downloaded. */
  | 'pret'
  /** A monthly gift: one yearly receipt, sent later. */
  | 'mensuel'
  /** A delayed payment (SEPA debit…) not settled yet. */
  | 'impaye'
  /** That delayed payment failed. */
  | 'echec';

/** The association's object when ASSOCIATION_OBJECT is not set (the demo association's). */
export const DEFAULT_ASSOCIATION_OBJECT =
  'Gérer l’École des Petits Pas, école primaire inclusive qui accueille ensemble des enfants avec et sans handicap, et soutenir leurs familles.';

/** The receipt text when the receipt is not available. */
export const RECEIPT_NOT_READY = 'Ce reçu fiscal n’est pas disponible : le don n’est pas encore enregistré comme payé.';

/** The answer to a bad or missing session_id. */
export const RECEIPT_BAD_SESSION = 'Le lien du reçu est incomplet. Ouvrez-le depuis la page de remerciement.';

/** The issuer's object and signatory: ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY from astro:env unless `env` says otherwise. */
export function issuerFromEnv(
  env: { ASSOCIATION_OBJECT?: string; ASSOCIATION_SIGNATORY?: string } = { ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY },
): Pick<ReceiptIssuer, 'object' | 'signatory'> {
  return {
    object: env.ASSOCIATION_OBJECT?.trim() || DEFAULT_ASSOCIATION_OBJECT,
    signatory: env.ASSOCIATION_SIGNATORY?.trim() ?? '',
  };
}

/** Where a `dons` document stands (undefined: not recorded). */
export function receiptState(entry: DocumentData | undefined): ReceiptState {
  if (!entry) return 'attente';
  if (entry.nature === 'abonnement' || entry.nature === 'mensualite') return 'mensuel';
  if (entry.statut === 'failed') return 'echec';
  if (entry.statut === 'paid' && typeof entry.recu === 'string') return 'pret';
  return 'impaye';
}

const NO_STORE = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' };

/** The donor's address lines: street, then postal code and town, then the country when not France. */
function donorAddress(entry: DocumentData): string[] {
  const town = [entry.postal, entry.ville].filter(Boolean).join(' ');
  const country =
    entry.pays && entry.pays !== 'FR' ? new Intl.DisplayNames(['fr'], { type: 'region' }).of(entry.pays) : '';
  return [entry.adresse, town, country].filter((line): line is string => Boolean(line));
}

/**
 * The GET handler of /api/recu.
 * @param issuer - the association's name and address (the content's `adresse` article) with its
 *   object and signatory (issuerFromEnv()).
 */
export function receiptHandler(issuer: () => Promise<ReceiptIssuer>): EndpointHandler {
  return async ({ request }: EndpointContext): Promise<Response> => {
    const url = new URL(request.url);
    const sessionId = url.searchParams.get('session_id') ?? '';
    const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
    if (!SESSION_ID_PATTERN.test(sessionId)) return jsonResponse(400, { ok: false, message: RECEIPT_BAD_SESSION });
    try {
      const entry = await readDonation(sessionId);
      const state = receiptState(entry);
      if (wantsJson)
        return jsonResponse(200, { ok: true, etat: state, ...(state === 'pret' ? { numero: entry?.recu } : {}) });
      if (!entry || state !== 'pret') return jsonResponse(404, { ok: false, message: RECEIPT_NOT_READY });
      const pdf = await receiptPdf({
        number: entry.recu,
        issuer: await issuer(),
        donorName: [entry.prenom, entry.nom].filter(Boolean).join(' '),
        donorAddressLines: donorAddress(entry),
        amountCents: Number(entry.montant ?? 0),
        paidAt: (entry.datePaiement as Timestamp).toDate(),
        paymentMode: 'Carte bancaire (paiement en ligne sécurisé par Stripe)',
        // The date the gift was recorded: the same file however often it is downloaded.
        issuedAt: (entry.date as Timestamp).toDate(),
      });
      return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="recu-fiscal-${entry.recu}.pdf"`,
          ...NO_STORE,
        },
      });
    } catch (error) {
      console.error('[api/recu]', error);
      const unavailable = error instanceof HttpError && error.status === 503;
      return jsonResponse(
        unavailable ? 503 : 500,
        { ok: false, message: MESSAGES.unavailable },
        unavailable ? { 'retry-after': '30' } : {},
      );
    }
  };
}
