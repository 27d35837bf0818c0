import type { APIRoute } from 'astro';
import { receiptIssuer } from '../../association';
import { methodNotAllowedFor } from '../../lib/endpoint.server';
import { receiptHandler } from '../../features/donations/ledger/donation-ledger.server';

export const prerender = false;

/** GET /api/recu?session_id=cs_…: the receipt PDF or the gift's state (JSON); the issuer from src/association.ts. */
export const GET = receiptHandler(receiptIssuer) satisfies APIRoute;

/** Any other method: 405 with `Allow: GET`. */
export const ALL = methodNotAllowedFor('GET') satisfies APIRoute;
