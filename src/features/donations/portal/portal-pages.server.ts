/**
 * What the customer-portal pages do (src/pages/soutenir/gerer/): the request form's POST, the link page's GET and POST,
 * within bounded times, with their French outcomes. The links themselves: portal.server.ts.
 */
import { STRIPE_API_BASE } from 'astro:env/server';
import type { PageCsp } from '../../../lib/csp';
import { withDeadline } from '../../../lib/deadline';
import { readBoundedBody } from '../../../lib/endpoint.server';
import { email as emailSchema } from '../../../lib/field-schemas';
import { adminFirestore } from '../../../lib/firebase-admin.server';
import { FIELD_MESSAGES } from '../../../lib/fields';
import { logId } from '../../../lib/log-id.server';
import { siteOrigin } from '../../../lib/site-origin';
import { mailIdentity, trySend } from '../../mail/mail-env.server';
import { peekPortalLink, portalDocumentId, requestPortalLink, usePortalLink, type LinkState } from './portal.server';

export { PORTAL_PAGES, type LinkState } from './portal.server';

/** Stripe's customer portal, where the link page's form is redirected (its policy's `form-action`). */
const PORTAL_ORIGIN = 'https://billing.stripe.com';

/**
 * Lets the link page's form lead to Stripe's portal: browsers apply `form-action` to the redirect after a POST. Adds
 * the origin of STRIPE_API_BASE too when it is set (the tests' fake Stripe serves its own portal pages).
 */
export function allowPortalRedirect(csp: PageCsp): void {
  const fake = STRIPE_API_BASE?.trim() ? URL.parse(STRIPE_API_BASE.trim())?.origin : undefined;
  csp?.insertDirective(`form-action 'self' ${PORTAL_ORIGIN}${fake ? ` ${fake}` : ''}`);
}

/** What both pages say under their title. */
export const PORTAL_LEAD =
  'Changer le montant, mettre à jour votre carte bancaire ou arrêter votre don mensuel, à tout moment et sans ' +
  'justification.';
import { stripeFromEnv } from '../checkout/stripe.server';

/**
 * The request page's answer comes this many ms after the request, whether a mail was queued or not (the lookup, the
 * write and the first sending attempt happen within it), so that its timing does not tell a known address.
 */
export const PORTAL_ANSWER_AFTER_MS = 2500;

/** Where Stripe's portal sends the donor back (« Retour » in the portal): the donation page of the configured site. */
export const PORTAL_RETURN_PATH = '/soutenir';

/** Every French text of the two pages' outcomes. */
export const PORTAL_MESSAGES = {
  /** The one answer to a valid request, whether the address is a monthly donor's or not. */
  requested:
    'Si cette adresse correspond à un don mensuel, vous allez recevoir un lien pour le gérer dans quelques minutes. ' +
    'Ce lien est valable une heure et ne sert qu’une fois. Pensez à regarder dans vos courriers indésirables.',
  emailInvalid: FIELD_MESSAGES.emailInvalid,
  requestUnavailable:
    'Le service est momentanément indisponible : aucun lien n’a été envoyé. Merci de réessayer dans quelques minutes.',
  expired: 'Ce lien a expiré : il n’est valable qu’une heure après son envoi.',
  used: 'Ce lien a déjà servi : chaque lien n’ouvre l’espace de gestion qu’une fois.',
  invalid: 'Ce lien n’est pas valable : il est incomplet, ou un lien plus récent l’a remplacé.',
  linkUnavailable:
    'L’espace de gestion de Stripe ne répond pas pour le moment. Votre lien reste valable : merci de réessayer dans ' +
    'quelques minutes.',
} as const;

/** The form of the request page as posted: its `email` field (a body of at most 2 KB). */
async function postedEmail(request: Request): Promise<string> {
  const body = await readBoundedBody(request, 2048).catch(() => new Uint8Array());
  return new URLSearchParams(new TextDecoder().decode(body)).get('email') ?? '';
}

const validEmail = emailSchema(FIELD_MESSAGES.emailInvalid);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The request page's POST: `{email}` as typed (shown again), and the outcome, always PORTAL_MESSAGES.requested for a
 * valid address after PORTAL_ANSWER_AFTER_MS (400 for an invalid one at once, 503 when the database failed).
 */
export async function portalRequestPost(
  request: Request,
): Promise<{ email: string; status: number; success: boolean; text: string }> {
  const started = Date.now();
  const email = (await postedEmail(request)).slice(0, 300);
  const parsed = validEmail.safeParse(email);
  if (!parsed.success) return { email, status: 400, success: false, text: PORTAL_MESSAGES.emailInvalid };
  let status = 200;
  try {
    const identity = await mailIdentity();
    const work = requestPortalLink(adminFirestore(), parsed.data, { identity, now: started });
    const queued = await withDeadline(work, PORTAL_ANSWER_AFTER_MS - 200);
    // The mail is in the outbox; a first try within the answer's time, the scheduled drain does the rest.
    await trySend(queued, Math.max(0, PORTAL_ANSWER_AFTER_MS - (Date.now() - started) - 50));
  } catch (error) {
    console.error(
      `[soutenir/gerer] request for ${logId(portalDocumentId(parsed.data))} failed: ` +
        (error instanceof Error ? error.message : String(error)),
    );
    status = 503;
  }
  await sleep(PORTAL_ANSWER_AFTER_MS - (Date.now() - started));
  return status === 200
    ? { email, status, success: true, text: PORTAL_MESSAGES.requested }
    : { email, status, success: false, text: PORTAL_MESSAGES.requestUnavailable };
}

/** The link page's GET: the link's state, read only (a mail scanner's visit changes nothing). 'error' if unreadable. */
export async function portalLinkGet(token: string): Promise<LinkState | 'error'> {
  return withDeadline(peekPortalLink(adminFirestore(), token, Date.now()), 8000).catch((error: unknown) => {
    console.error(`[soutenir/gerer/lien] ${error instanceof Error ? error.message : String(error)}`);
    return 'error' as const;
  });
}

/**
 * The link page's POST (form field `jeton`): uses the link and creates a customer portal session for its customer
 * (return_url on the configured site, never the request's Host), then `{redirect}` to Stripe's portal; else the
 * reason, with its HTTP status: 410 expired or used, 400 invalid, 502/503 Stripe or the database failed (the link
 * stays usable), and the `token` posted, which the page's form carries again (the form posts to the page's address
 * without its query).
 */
export async function portalLinkPost(
  request: Request,
): Promise<{ redirect: string } | { state: Exclude<LinkState, 'ok'> | 'error'; status: number; token: string }> {
  const body = await readBoundedBody(request, 2048).catch(() => new Uint8Array());
  const token = new URLSearchParams(new TextDecoder().decode(body)).get('jeton') ?? '';
  const firestore = adminFirestore();
  const used = await withDeadline(usePortalLink(firestore, token, Date.now()), 8000).catch((error: unknown) => {
    console.error(`[soutenir/gerer/lien] ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'error' as const };
  });
  if (used.state === 'error') return { state: 'error', status: 503, token };
  if (used.state !== 'ok') return { state: used.state, status: used.state === 'invalid' ? 400 : 410, token };
  try {
    const session = await withDeadline(
      stripeFromEnv().billingPortal.sessions.create({
        customer: used.customer,
        return_url: `${siteOrigin()}${PORTAL_RETURN_PATH}`,
        locale: 'fr',
      }),
      9000,
    );
    if (!session.url) throw new Error(`portal session ${session.id} came back without its url`);
    return { redirect: session.url };
  } catch (error) {
    console.error(
      `[soutenir/gerer/lien] Stripe did not open the portal of ${logId(used.customer)}: ` +
        (error instanceof Error ? `${error.name} ${error.message}` : String(error)),
    );
    await used.release().catch(() => undefined);
    return { state: 'error', status: 502, token };
  }
}
