/** GET /api/recu?session_id=cs_…: a paid one-off gift's tax receipt (PDF), or where the gift stands (JSON). */
import type { APIRoute } from 'astro';
import { address } from '../../content';
import { methodNotAllowedFor } from '../../lib/endpoint.server';
import { contactLineText } from '../../lib/obfuscation';
import { issuerFromEnv, receiptHandler } from '../../features/donations/receipt-endpoint.server';

export const prerender = false;

/** The issuer: the content's `adresse` article (name, address) and the environment (object, signatory). */
export const GET = receiptHandler(async () => {
  const info = await address();
  return { name: info.name, addressLines: info.lines.map(contactLineText), ...issuerFromEnv() };
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: GET`. */
export const ALL = methodNotAllowedFor('GET') satisfies APIRoute;
