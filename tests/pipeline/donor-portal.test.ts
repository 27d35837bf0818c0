/**
 * A monthly donor manages their gift in Stripe's customer portal: Stripe's signed events record the gift with its
 * customer (`client`); /soutenir/gerer answers every address alike and mails a link only to a monthly donor's; the
 * link page opens the fake's portal for the right customer once, and refuses an expired, reused or replaced link.
 * The embedded Firestore, the SMTP catcher and the fake Stripe (STRIPE_API_BASE).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, it } from 'vitest';
import { siteAddress } from '../../scripts/lib/site-address';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { portalDocumentId, requestPortalLink } from '../../src/features/donations/portal/portal.server';
import {
  portalLinkGet,
  portalLinkPost,
  portalRequestPost,
} from '../../src/features/donations/portal/portal-pages.server';
import { mailIdentity, trySend } from '../../src/features/mail/mail-env.server';
import { paidInvoice, paidSession, stripeEvent, type FAKE_DONOR } from '../fixtures/fake-stripe';
import { useMailAndStripe } from '../fixtures/mail-setup';
import { deliver } from '../fixtures/webhook';

const SITE = new URL(siteAddress()).origin;
/** The one answer to every valid address, written out independently of portal.server.ts. */
const ANSWER =
  'Si cette adresse correspond à un don mensuel, vous allez recevoir un lien pour le gérer dans quelques minutes. ' +
  'Ce lien est valable une heure et ne sert qu’une fois. Pensez à regarder dans vos courriers indésirables.';

const servers = useMailAndStripe();

/** A donor of their own, so that each test reads its own mails. */
function donor(): typeof FAKE_DONOR {
  return {
    name: 'Jeanne Dupont',
    email: `donatrice-${randomUUID().slice(0, 8)}@exemple.fr`,
    address: { line1: '8 quai Rambaud', line2: '', postal_code: '69002', city: 'Lyon', country: 'FR', state: null },
  } as unknown as typeof FAKE_DONOR;
}

/** A monthly gift of `person` paid through Stripe (the session, then its first invoice): its customer id. */
async function monthlyDonor(person: typeof FAKE_DONOR): Promise<string> {
  const session = paidSession(
    {
      id: `cs_test_${randomUUID().replaceAll('-', '')}`,
      object: 'checkout.session',
      amount_total: 2500,
      currency: 'eur',
      metadata: { origine: 'site-association' },
      mode: 'subscription',
    },
    person,
  );
  expect(await deliver(stripeEvent('checkout.session.completed', session))).toBe(200);
  const invoice = paidInvoice(
    session.subscription!,
    2500,
    { origine: 'site-association' },
    person,
    undefined,
    session.customer,
  );
  expect(await deliver(stripeEvent('invoice.paid', invoice))).toBe(200);
  const stored = await adminFirestore().collection('dons').doc(invoice.id).get();
  expect(stored.get('client')).toBe(session.customer);
  expect(
    (
      await adminFirestore()
        .collection('dons')
        .doc(session.id as string)
        .get()
    ).get('client'),
  ).toBe(session.customer);
  return session.customer!;
}

/** POSTs the request page's form with `email`. */
const requestLink = (email: string) =>
  portalRequestPost(
    new Request(`${SITE}/soutenir/gerer`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    }),
  );

/** POSTs the link page's button with `token`. */
const useLink = (token: string) =>
  portalLinkPost(
    new Request(`${SITE}/soutenir/gerer/lien`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ jeton: token }).toString(),
    }),
  );

const LINK_PAGE = fileURLToPath(new URL('../../src/pages/soutenir/gerer/lien.astro', import.meta.url));

/** The link page (src/pages/soutenir/gerer/lien.astro) rendered by Astro for `request`, as the site answers it. */
async function linkPage(request: Request): Promise<Response> {
  // By its path, not a static import: eslint's import plugin would parse the .astro file without its TypeScript.
  const { default: LinkPage } = (await import(/* @vite-ignore */ LINK_PAGE)) as { default: AstroComponentFactory };
  const container = await AstroContainer.create({ astroConfig: { site: SITE } });
  return container.renderToResponse(LinkPage, { request });
}

/**
 * The POST a browser sends when the button of `html` (a page at `pageUrl`) is clicked: to the form's action, resolved
 * against the page's address, with the form's hidden fields.
 */
function submit(pageUrl: string, html: string): Request {
  const form = /<form[^>]*\saction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  expect(form, 'the page has a form').not.toBeNull();
  const fields = [...form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  return new Request(new URL(form![1]!.replaceAll('&amp;', '&'), pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields.map(([, name, value]) => [name!, value!])).toString(),
  });
}

/** A page's text, tags removed and spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&nbsp;', ' ')
    .replace(/\s+/g, ' ');

const LINK_SUBJECT = 'Votre lien pour gérer votre don mensuel';

/** The portal-link mails `email` received (not the monthly gift's confirmation), after the drain had a moment. */
async function mailsTo(email: string) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return servers.world.smtp.mails.filter((mail) => mail.to.includes(email) && mail.subject === LINK_SUBJECT);
}

/** The token of the link in `text` (a mail's plain text). */
function tokenIn(text: string): string {
  const match = /\/soutenir\/gerer\/lien\?jeton=([0-9a-f]{64}\.[A-Za-z0-9_-]{43})/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

describe('the request page', () => {
  it('answers a monthly donor and an unknown address alike, and mails the link to the donor only', async () => {
    const person = donor();
    await monthlyDonor(person);
    const stranger = `inconnu-${randomUUID().slice(0, 8)}@exemple.fr`;

    const startedKnown = Date.now();
    const known = await requestLink(person.email);
    const knownMs = Date.now() - startedKnown;
    const startedUnknown = Date.now();
    const unknown = await requestLink(stranger);
    const unknownMs = Date.now() - startedUnknown;

    expect(known).toEqual({ email: person.email, status: 200, success: true, text: ANSWER });
    expect(unknown).toEqual({ email: stranger, status: 200, success: true, text: ANSWER });
    // The same fixed time (2.5 s) for both: the answer's time does not tell a known address.
    expect(knownMs).toBeGreaterThanOrEqual(2400);
    expect(unknownMs).toBeGreaterThanOrEqual(2400);

    const mails = await mailsTo(person.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(LINK_SUBJECT);
    expect(mails[0]!.text).toContain('Ce lien est valable une heure et ne sert qu’une fois.');
    expect(mails[0]!.text).toContain(`${SITE}/soutenir/gerer/lien?jeton=`);
    expect(await mailsTo(stranger)).toHaveLength(0);

    // Only the link's hash is stored, never the link.
    const token = tokenIn(mails[0]!.text);
    const stored = (await adminFirestore().collection('portail').doc(portalDocumentId(person.email)).get()).data();
    expect(JSON.stringify(stored)).not.toContain(token.split('.')[1]);
    expect(stored?.jetonHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends at most one mail an hour to an address, with the same answer', async () => {
    const person = donor();
    await monthlyDonor(person);
    expect((await requestLink(person.email)).text).toBe(ANSWER);
    expect((await requestLink(person.email.toUpperCase())).text).toBe(ANSWER);
    expect(await mailsTo(person.email)).toHaveLength(1);
  });

  it('refuses an address that is not one with the forms’ message, and keeps what was typed', async () => {
    expect(await requestLink('jeanne@')).toEqual({
      email: 'jeanne@',
      status: 400,
      success: false,
      text: 'Merci de saisir un email valide',
    });
  });
});

describe('the link page', () => {
  it('opens the fake Stripe portal for the donor’s customer once, returning to the configured site', async () => {
    const person = donor();
    const customer = await monthlyDonor(person);
    await requestLink(person.email);
    const token = tokenIn((await mailsTo(person.email))[0]!.text);

    // Opening the page (a mail scanner, the donor) uses nothing.
    expect(await portalLinkGet(token)).toBe('ok');
    expect(await portalLinkGet(token)).toBe('ok');

    const opened = await useLink(token);
    expect(opened).toHaveProperty('redirect');
    const url = (opened as { redirect: string }).redirect;
    expect(url).toMatch(new RegExp(`^${servers.fake.url}/__fake__/portal/bps_test_`));
    const page = await (await fetch(url)).text();
    expect(page).toContain(`<span data-customer>${customer}</span>`);
    const [request] = servers.fake.requests().filter((recorded) => recorded.path === '/v1/billing_portal/sessions');
    expect(request!.body).toEqual({ customer, return_url: `${SITE}/soutenir`, locale: 'fr' });

    // Used: refused, read or posted.
    expect(await portalLinkGet(token)).toBe('used');
    expect(await useLink(token)).toEqual({ state: 'used', status: 410, token });
    expect(servers.fake.requests().filter((recorded) => recorded.path === '/v1/billing_portal/sessions')).toHaveLength(
      1,
    );
  });

  it('refuses an expired link, and a link replaced by a newer one', async () => {
    const person = donor();
    await monthlyDonor(person);
    const identity = await mailIdentity();
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    // A link mailed two hours ago (queued by the request, sent here).
    const queued = await requestPortalLink(adminFirestore(), person.email, { identity, now: twoHoursAgo });
    expect(queued).toHaveLength(1);
    await trySend(queued, 5000);
    const [mailed] = await mailsTo(person.email);
    const expired = tokenIn(mailed!.text);
    expect(await portalLinkGet(expired)).toBe('expired');
    expect(await useLink(expired)).toEqual({ state: 'expired', status: 410, token: expired });

    // Over an hour later a new request mails a new link; the old one no longer matches.
    await requestLink(person.email);
    const mails = await mailsTo(person.email);
    expect(mails).toHaveLength(2);
    const fresh = tokenIn(mails[1]!.text);
    expect(await portalLinkGet(fresh)).toBe('ok');
    expect(await portalLinkGet(expired)).toBe('invalid');
    expect(await useLink('nimportequoi')).toEqual({ state: 'invalid', status: 400, token: 'nimportequoi' });
    // No portal was opened for a refused link.
    expect(servers.fake.requests().filter((recorded) => recorded.path === '/v1/billing_portal/sessions')).toEqual([]);
  });

  it('keeps the link usable when Stripe fails: the page’s button, posted again, opens the portal', async () => {
    const person = donor();
    const customer = await monthlyDonor(person);
    await requestLink(person.email);
    const token = tokenIn((await mailsTo(person.email))[0]!.text);

    // The page the mail's link opens, then its button posted as a browser posts it (the form's own fields and action).
    const shown = await linkPage(new Request(`${SITE}/soutenir/gerer/lien?jeton=${token}`));
    expect(shown.status).toBe(200);
    servers.fake.behave({ kind: 'error', status: 500 });
    const failed = await linkPage(submit(`${SITE}/soutenir/gerer/lien?jeton=${token}`, await shown.text()));
    servers.fake.behave({ kind: 'ok' });
    expect(failed.status).toBe(502);
    const html = await failed.text();
    expect(text(html)).toContain(
      'L’espace de gestion de Stripe ne répond pas pour le moment. Votre lien reste valable : merci de réessayer ' +
        'dans quelques minutes.',
    );
    expect(text(html)).toContain('Ouvrir l’espace de gestion sécurisé');
    expect(await portalLinkGet(token)).toBe('ok');

    // The button of the page that said so: the form posts to the address without its query, the token in a field.
    const retried = await linkPage(submit(`${SITE}/soutenir/gerer/lien`, html));
    expect(retried.status).toBe(303);
    const portal = retried.headers.get('location') ?? '';
    expect(portal).toMatch(new RegExp(`^${servers.fake.url}/__fake__/portal/bps_test_`));
    expect(await (await fetch(portal)).text()).toContain(`<span data-customer>${customer}</span>`);
    expect(await portalLinkGet(token)).toBe('used');
  });
});
