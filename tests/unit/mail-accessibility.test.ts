/**
 * The site's mails are as accessible as its pages: every template rendered as the outbox sends it (renderMail), then
 * read in JSDOM — a <title>, real headings from <h1> without a gap, numbered steps as a list, link texts that say
 * where they go (no bare address) — and checked by axe-core (the pages' WCAG tags and its best practices; landmarks
 * aside: a mail has none).
 */
import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { createElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderMail } from '../../src/features/mail/mails.server';
import {
  DonationThanks,
  MonthlyDonationConfirmation,
  ReceiptChange,
} from '../../src/features/donations/receipts/DonationMails';
import { LetterMail } from '../../src/features/newsletter/LetterMail';
import { letterBodyHtml } from '../../src/features/newsletter/letter-mails.server';
import { NewsletterConfirmation } from '../../src/features/newsletter/NewsletterConfirmation';
import { PortalLink } from '../../src/features/donations/portal/PortalLink';
import { PreRegistrationAck, PreRegistrationNotice } from '../../src/features/admissions/PreRegistrationMails';
import { SignInLink } from '../../src/features/espace/SignInLink';
import {
  StatusChangeMail,
  STATUS_MAIL_TEXTS,
  type AnnouncedStatus,
} from '../../src/features/admissions/StatusChangeMail';
import { YearlyReceiptChange, YearlyReceiptMail } from '../../src/features/donations/yearly/YearlyReceiptMails';

const identity = {
  name: 'Les Petits Pas Ensemble',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  siteUrl: 'https://exemple.org',
};
const SITE = identity.siteUrl;

/** Every template, by name, with plausible values. */
const MAILS: Record<string, ReactElement> = {
  'pre-registration acknowledgement': createElement(PreRegistrationAck, {
    identity,
    parentFirstName: 'Awa',
    childFirstName: 'Léo',
    reference: '4829 1375',
    replyTo: 'admissions@exemple.org',
  }),
  'pre-registration notice': createElement(PreRegistrationNotice, {
    identity,
    reference: '4829 1375',
    receivedAt: '12 mars 2026 à 14 h 05',
  }),
  ...Object.fromEntries(
    (Object.keys(STATUS_MAIL_TEXTS) as AnnouncedStatus[]).map((status) => [
      `pre-registration status ${status}`,
      createElement(StatusChangeMail, {
        identity,
        status,
        parentFirstName: 'Awa',
        childFirstName: 'Inès',
        reference: '4829 1375',
        decision: status !== 'visite-prevue',
      }),
    ]),
  ),
  'newsletter confirmation': createElement(NewsletterConfirmation, {
    identity,
    confirmUrl: `${SITE}/newsletter/confirmer?jeton=abc`,
    unsubscribeUrl: `${SITE}/newsletter/desinscription?jeton=abc`,
  }),
  'newsletter letter': createElement(LetterMail, {
    identity,
    subject: 'Nouvelles de juin',
    preview: 'Bonjour à toutes et à tous',
    bodyHtml: letterBodyHtml(
      '<p>Bonjour à toutes et à tous,</p><h3>La fête</h3><ul><li>Samedi, <a href="/ecole">à l’école</a></li></ul>',
      SITE,
    ),
    unsubscribeUrl: `${SITE}/newsletter/desinscription?jeton=abc`,
  }),
  'sign-in link': createElement(SignInLink, {
    identity,
    signInUrl: `${SITE}/espace/connexion/lien?x=1`,
    validity: '1 heure',
  }),
  'portal link': createElement(PortalLink, { identity, linkUrl: `${SITE}/soutenir/gerer/lien?jeton=abc` }),
  'donation thanks': createElement(DonationThanks, {
    identity,
    donorName: 'Awa Diallo',
    amount: '25,00 €',
    paidOn: '12 mars 2026',
    receiptNumber: '2026-0001',
    costAfterReduction: '8,50 €',
  }),
  'monthly donation confirmation': createElement(MonthlyDonationConfirmation, {
    identity,
    donorName: 'Awa Diallo',
    amount: '10,00 €',
    contact: 'tresorerie@exemple.org',
  }),
  'receipt change': createElement(ReceiptChange, {
    identity,
    donorName: 'Awa Diallo',
    cancelled: '2026-0001',
    reason: 'remboursement',
    refunded: '25,00 €',
  }),
  'yearly receipt': createElement(YearlyReceiptMail, {
    identity,
    donorName: 'Awa Diallo',
    year: 2026,
    amount: '120,00 €',
    payments: 12,
    receiptNumber: '2027-0001',
    costAfterReduction: '40,80 €',
  }),
  'yearly receipt change': createElement(YearlyReceiptChange, {
    identity,
    donorName: 'Awa Diallo',
    year: 2026,
    cancelled: '2027-0001',
    reason: 'remboursement',
  }),
};

/** The rendered HTML of `mail` in JSDOM, axe-core loaded into it. */
async function open(mail: ReactElement) {
  const { html } = await renderMail(mail);
  const dom = new JSDOM(html, { runScripts: 'outside-only' });
  dom.window.eval(axe.source);
  return dom.window as unknown as Window & { axe: typeof axe };
}

describe('every mail', () => {
  for (const [name, mail] of Object.entries(MAILS)) {
    it(`${name}: a title, headings without a gap, links that say where they go, and axe finds nothing`, async () => {
      const window = await open(mail);
      const document = window.document;
      const h1 = document.querySelectorAll('h1');
      expect(h1).toHaveLength(1);
      expect(document.title).toBe(h1[0]!.textContent);
      const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) =>
        Number(heading.tagName[1]),
      );
      levels.forEach((level, index) => index > 0 && expect(level).toBeLessThanOrEqual(levels[index - 1]! + 1));
      // A link's text is words or the site's name, never an address with a path (https://…, exemple.org/espace…).
      const texts = [...document.querySelectorAll('a')].map((link) => link.textContent?.trim() ?? '');
      expect(texts.filter((text) => /^https?:|\/\w/.test(text) || text === '')).toEqual([]);

      const { violations } = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        // JSDOM lays nothing out: contrast is the tokens' (MailLayout's COLORS), not measured here.
        rules: {
          region: { enabled: false },
          'landmark-one-main': { enabled: false },
          'color-contrast': { enabled: false },
        },
      });
      expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.html).join(' | ')}`)).toEqual([]);
    });
  }

  it('the pre-registration acknowledgement: « Et maintenant ? », its numbered steps, how to correct it', async () => {
    const document = (await open(MAILS['pre-registration acknowledgement']!)).document;
    expect([...document.querySelectorAll('h2')].map((heading) => heading.textContent)).toEqual([
      'Et maintenant\u00a0?',
      'Corriger ou retirer votre demande',
    ]);
    expect([...document.querySelectorAll('ol > li')].map((item) => item.textContent)).toEqual([
      'L’équipe des admissions lit votre demande.',
      'Elle vous recontacte pour convenir d’une rencontre avec vous et Léo.',
      'Après cette rencontre, elle vous dit si une place peut vous être proposée.',
    ]);
  });

  it('the staff notice names where its link goes', async () => {
    const document = (await open(MAILS['pre-registration notice']!)).document;
    const link = document.querySelector(`a[href="${SITE}/espace/preinscriptions"]`);
    expect(link?.textContent).toBe('Lire les pré-inscriptions dans l’espace de l’association');
  });
});
