/**
 * GET /api/recu?session_id=cs_… — the tax receipt of a paid one-off gift (PDF), or where the
 * gift stands as JSON (`Accept: application/json`). The association's name and address come
 * from the content (article `adresse`), its object and signatory from the environment.
 */
import type { APIRoute } from 'astro';
import { address } from '../../content';
import { methodNotAllowedFor } from '../../lib/endpoint.server';
import { contactLineText } from '../../lib/obfuscation';
import { issuerFromEnv, receiptHandler } from '../../features/donations/receipt-endpoint.server';

export const prerender = false;

/** The receipt or its state (answers: src/features/donations/receipt-endpoint.server.ts, docs/donations.md). */
export const GET = receiptHandler(async () => {
  const info = await address();
  return { name: info.name, addressLines: info.lines.map(contactLineText), ...issuerFromEnv() };
}) satisfies APIRoute;

/** Any other method: 405 with `Allow: GET`. */
export const ALL = methodNotAllowedFor('GET') satisfies APIRoute;
