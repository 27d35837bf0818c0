import type { APIRoute } from 'astro';
import { address } from '../../content';
import { methodNotAllowedFor } from '../../lib/endpoint.server';
import { contactLineText } from '../../lib/obfuscation';
import { receiptHandler } from '../../features/donations/donation-ledger.server';

export const prerender = false;

/** GET /api/recu?session_id=cs_…: the receipt PDF or the gift's state (JSON); issuer from the `adresse` article (and env). */
export const GET = receiptHandler(async () => {
  const info = await address();
  return { name: info.name, addressLines: info.lines.map(contactLineText) };
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: GET`. */
export const ALL = methodNotAllowedFor('GET') satisfies APIRoute;
